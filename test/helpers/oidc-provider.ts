import crypto from 'node:crypto';
import http from 'node:http';
import { Provider } from 'oidc-provider';
import { freePort } from './ports';

/**
 * A real OpenID Connect provider (the oidc-provider package) on loopback. Its login and consent
 * steps finish at once as `nextUser` (what a person would type on the provider's own pages), so
 * tests drive the whole redirect flow over HTTP.
 */
export interface ProviderUser {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  nextUser: ProviderUser;
  close(): Promise<void>;
}

export async function startOidcProvider(redirectUri: string): Promise<TestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const users = new Map<string, ProviderUser>();
  const state: TestProvider = {
    issuer,
    clientId: 'parley-test',
    clientSecret: 'parley-test-client-secret-0123456789',
    nextUser: { sub: 'user-1', email: 'someone@example.com', email_verified: true, name: 'Some One' },
    close: async () => undefined,
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: state.clientId,
        client_secret: state.clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_ctx, id) => {
      const user = users.get(id);
      return user ? { accountId: id, claims: async () => ({ ...user }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['parley-test-cookie-key'] },
    jwks: {
      keys: [{ ...crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }],
    },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  const handler = provider.callback();
  const server = http.createServer(async (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      handler(req, res);
      return;
    }
    try {
      const details = await provider.interactionDetails(req, res);
      let result: Record<string, unknown>;
      if (details.prompt.name === 'login') {
        users.set(state.nextUser.sub, { ...state.nextUser });
        result = { login: { accountId: state.nextUser.sub } };
      } else {
        const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
        grant.addOIDCScope('openid email profile');
        result = { consent: { grantId: await grant.save() } };
      }
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
