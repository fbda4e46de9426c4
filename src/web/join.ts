import express, { Request, Response, Router } from 'express';
import type { AppDeps } from '../core/deps';
import { ApiError } from '../errors';
import { refuseLargeBodies } from '../rest/body-guard';
import { acceptInvitation, findUsableInvite } from '../core/invites/actions';
import { Realm } from '../core/realm/model';
import { escape, page } from './html';
import { startBrowserSession } from './login';

/**
 * The page an invitation link opens: a small sign-up form (name and password, plus the address
 * for a reusable link). Submitting it creates the account the invitation offers.
 */
function form(realmName: string, email: string | null, values: { fullName?: string; email?: string }, error?: string): string {
  const emailField =
    email === null
      ? `<label for="email">Email</label><input id="email" name="email" type="email" required value="${escape(values.email ?? '')}">`
      : `<p>Your account: <strong>${escape(email)}</strong></p>`;
  return page(
    `Join ${realmName}`,
    `<h1>Join ${escape(realmName)}</h1>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="post">
${emailField}
<label for="full_name">Full name</label><input id="full_name" name="full_name" required value="${escape(values.fullName ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" required minlength="6">
<button type="submit">Create account</button>
</form>`,
  );
}

async function realmName(deps: AppDeps): Promise<string> {
  return (await Realm.query(deps.knex).findById(deps.realmId))?.name ?? deps.config.realmName;
}

function sendFailure(res: Response, error: unknown): void {
  if (!(error instanceof ApiError)) throw error;
  res
    .status(error.httpStatus)
    .type('html')
    .send(page('Invitation', `<h1>Whoops.</h1><p class="error">${escape(error.message)}</p>`));
}

/** The sign-up form has three short fields. */
const FORM_BYTES = 64 * 1024;

export function joinRouter(deps: AppDeps): Router {
  const router = Router();
  const path = '/join/:key{/}';

  router.get(path, async (req: Request, res: Response) => {
    try {
      const invite = await findUsableInvite(deps, String(req.params.key));
      res.type('html').send(form(await realmName(deps), invite.is_multiuse ? null : invite.email, {}));
    } catch (error) {
      sendFailure(res, error);
    }
  });

  router.post(path, refuseLargeBodies(FORM_BYTES), express.urlencoded({ extended: false, limit: FORM_BYTES }), async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, string>;
    const key = String(req.params.key);
    let invite;
    try {
      invite = await findUsableInvite(deps, key);
    } catch (error) {
      sendFailure(res, error);
      return;
    }
    try {
      const { user } = await acceptInvitation(deps, key, {
        fullName: body.full_name ?? '',
        password: body.password ?? '',
        email: invite.is_multiuse ? (body.email ?? '') : undefined,
      });
      // Straight into the web app, signed in.
      await startBrowserSession(deps, req, res, user, '/');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      res
        .status(error.httpStatus)
        .type('html')
        .send(form(await realmName(deps), invite.is_multiuse ? null : invite.email, { fullName: body.full_name, email: body.email }, error.message));
    }
  });
  return router;
}
