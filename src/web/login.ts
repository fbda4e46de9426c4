import { Request, Response, Router } from 'express';
import type { AppDeps } from '../core/deps';
import { ApiError } from '../errors';
import { externalAuthenticationMethods } from '../core/accounts/auth-methods';
import { isValidOtp, mobileFlowRedirect } from '../core/accounts/otp';
import { createSession, endSession, SESSION_MAX_AGE_SECONDS, sessionUser } from '../core/accounts/sessions';
import { issueApiKey } from '../core/users/actions';
import { loginApiKey } from '../core/accounts/login-keys';
import { checkPasswordLogin } from '../core/users/authenticate';
import type { User } from '../core/users/model';
import { getRealm } from '../core/realm/queries';
import { clientAddress, loginDevice } from '../rest/client-address';
import { checkCsrf, clearCookie, csrfInput, csrfToken, readCookie, SESSION_COOKIE, setCookie } from './cookies';
import { field, fieldsOf, formBody, pageHandler } from './forms';
import { errorParagraph, escape, page } from './html';
import { recordLogin } from '../core/accounts/login-emails';

/**
 * The web login page. With `mobile_flow_otp` (Zulip's mobile apps, in a webview or browser) a
 * successful login answers with a redirect to zulip://login carrying a new API key encrypted with
 * the pad; otherwise it starts a browser session.
 */
const invalidOtp = () => new ApiError('BAD_REQUEST', 'Invalid OTP', 400);

/** The pad from the query or the form; absent is fine, malformed is refused. */
function otpOf(value: unknown): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !isValidOtp(value)) throw invalidOtp();
  return value;
}

/** Only paths on this server: never another site. */
function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : '/';
}

/** `password`: the one the user just logged in with, which gives them their existing key (login-keys.ts). */
export async function finishMobileFlow(deps: AppDeps, req: Request, res: Response, user: User, otp: string, password?: string): Promise<void> {
  const apiKey = password === undefined ? await issueApiKey(deps, user.id) : await loginApiKey(deps, user.id, password);
  await recordLogin(deps, user.id, loginDevice(req, deps.config.trustedProxies));
  // Express's redirect only takes http(s) URLs as given; the app's scheme is set directly.
  res.status(302).setHeader('Location', mobileFlowRedirect(deps.config, otp, apiKey, user));
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}

function externalButtons(deps: AppDeps, otp: string | null): string {
  const methods = externalAuthenticationMethods(deps.config);
  if (methods.length === 0) return '';
  const query = otp ? `?mobile_flow_otp=${otp}` : '';
  return `<section aria-label="Other ways to log in">${methods
    .map((m) => `<p><a class="button" href="${escape(m.login_url + query)}">Log in with ${escape(m.display_name)}</a></p>`)
    .join('')}</section>`;
}

async function loginForm(
  deps: AppDeps,
  req: Request,
  res: Response,
  fields: { username?: string; otp: string | null; next?: string; error?: string },
): Promise<string> {
  const realm = await getRealm(deps);
  const label = deps.config.ldap && deps.config.ldap.emailAttr !== null ? 'Username' : 'Email';
  return page(
    `Log in to ${realm.name}`,
    `<h1>Log in to ${escape(realm.name)}</h1>${errorParagraph(fields.error)}
<form method="post" action="/login/">${csrfInput(csrfToken(req, res, deps.config))}
${fields.otp ? `<input type="hidden" name="mobile_flow_otp" value="${escape(fields.otp)}">` : ''}
${fields.next ? `<input type="hidden" name="next" value="${escape(fields.next)}">` : ''}
<label for="username">${label}</label><input id="username" name="username" autocomplete="username" required value="${escape(fields.username ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>
${externalButtons(deps, fields.otp)}
<p><a href="/accounts/password/reset/">Forgot your password?</a></p>`,
  );
}

/** Starts a browser session for `user` and goes on to `next`. */
export async function startBrowserSession(deps: AppDeps, req: Request, res: Response, user: User, next: string): Promise<void> {
  const secret = await createSession(deps, user.id, loginDevice(req, deps.config.trustedProxies));
  setCookie(res, deps.config, SESSION_COOKIE, secret, SESSION_MAX_AGE_SECONDS);
  res.redirect(302, next);
}

export function loginRouter(deps: AppDeps): Router {
  const router = Router();

  router.get(
    '/login/',
    pageHandler(async (req, res) => {
      const otp = otpOf(req.query.mobile_flow_otp);
      const user = await sessionUser(deps, readCookie(req, SESSION_COOKIE));
      if (user && otp) return finishMobileFlow(deps, req, res, user, otp);
      res.setHeader('Cache-Control', 'no-store');
      const next = typeof req.query.next === 'string' ? safeNext(req.query.next) : undefined;
      // Signed in already: on into the web app (or where the link pointed).
      if (user) {
        res.redirect(302, next ?? '/');
        return;
      }
      res.type('html').send(await loginForm(deps, req, res, { otp, next }));
    }),
  );

  router.post(
    '/login/',
    ...formBody,
    pageHandler(async (req, res) => {
      checkCsrf(req, fieldsOf(req));
      const otp = otpOf(fieldsOf(req).mobile_flow_otp);
      const username = field(req, 'username');
      let user: User;
      try {
        user = await checkPasswordLogin(deps, username, field(req, 'password'), clientAddress(req, deps.config.trustedProxies));
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'AUTHENTICATION_FAILED') throw error;
        res
          .status(401)
          .type('html')
          .send(await loginForm(deps, req, res, { username, otp, next: field(req, 'next') || undefined, error: error.message }));
        return;
      }
      if (otp) return finishMobileFlow(deps, req, res, user, otp, field(req, 'password'));
      await startBrowserSession(deps, req, res, user, safeNext(fieldsOf(req).next));
    }),
  );

  router.get(
    '/logout/',
    pageHandler(async (req, res) => {
      res
        .type('html')
        .send(
          page(
            'Log out',
            `<h1>Log out</h1><form method="post" action="/logout/">${csrfInput(csrfToken(req, res, deps.config))}<button type="submit">Log out</button></form>`,
          ),
        );
    }),
  );

  router.post(
    '/logout/',
    ...formBody,
    pageHandler(async (req, res) => {
      checkCsrf(req, fieldsOf(req));
      await endSession(deps, readCookie(req, SESSION_COOKIE));
      clearCookie(res, deps.config, SESSION_COOKIE);
      res.redirect(302, '/login/');
    }),
  );
  return router;
}
