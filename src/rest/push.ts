import { registerPushDevice } from '../core/push/actions';
import { TOKEN_KINDS } from '../core/push/model';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const pushRoutes: Route[] = [
  {
    method: 'POST',
    path: '/mobile_push/register',
    endpoint: endpoint({
      params: {
        token_kind: p.enum(TOKEN_KINDS),
        push_account_id: p.int(),
        push_public_key: p.string(),
        bouncer_public_key: p.string(),
        encrypted_push_registration: p.string(),
      },
      handler: async ({ deps, user, params }) => {
        await registerPushDevice(deps, user, {
          tokenKind: params.token_kind,
          pushAccountId: params.push_account_id,
          pushPublicKey: params.push_public_key,
          bouncerPublicKey: params.bouncer_public_key,
          encryptedPushRegistration: params.encrypted_push_registration,
        });
      },
    }),
  },
];
