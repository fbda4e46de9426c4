import { Router } from 'express';
import type { AppDeps } from '../core/deps';
import { ApiError } from '../errors';
import { confirmEmailChange } from '../core/accounts/email-change';
import { passwordResetAccount, requestPasswordReset, resetPassword } from '../core/accounts/password-reset';
import { findUsableToken } from '../core/accounts/tokens';
import { clientAddress } from '../rest/client-address';
import { checkCsrf, csrfInput, csrfToken } from './cookies';
import { field, fieldsOf, formBody, pageHandler } from './forms';
import { errorParagraph, escape, page } from './html';

/**
 * The pages behind the account emails: asking for a password-reset link, choosing the new
 * password, and confirming a new email address.
 */
function requestForm(csrf: string, email = '', error?: string): string {
  return page(
    'Reset your password',
    `<h1>Reset your password</h1>${errorParagraph(error)}
<p>Enter your email address and we will send you a link to choose a new password.</p>
<form method="post" action="/accounts/password/reset/">${csrfInput(csrf)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required value="${escape(email)}">
<button type="submit">Send reset link</button>
</form>`,
  );
}

function newPasswordForm(csrf: string, email: string, error?: string): string {
  return page(
    'Choose a new password',
    `<h1>Choose a new password</h1>${errorParagraph(error)}
<p>For your account <strong>${escape(email)}</strong>.</p>
<form method="post">${csrfInput(csrf)}
<label for="new_password1">New password</label><input id="new_password1" name="new_password1" type="password" autocomplete="new-password" required>
<label for="new_password2">Confirm the new password</label><input id="new_password2" name="new_password2" type="password" autocomplete="new-password" required>
<button type="submit">Set password</button>
</form>`,
  );
}

export function accountPagesRouter(deps: AppDeps): Router {
  const router = Router();
  const config = deps.config;

  router.get(
    '/accounts/password/reset/',
    pageHandler(async (req, res) => {
      res.type('html').send(requestForm(csrfToken(req, res, config)));
    }),
  );

  router.post(
    '/accounts/password/reset/',
    ...formBody,
    pageHandler(async (req, res) => {
      checkCsrf(req, fieldsOf(req));
      const email = field(req, 'email');
      try {
        await requestPasswordReset(deps, email, clientAddress(req, config.trustedProxies));
      } catch (error) {
        if (!(error instanceof ApiError) || error.code === 'RATE_LIMIT_HIT') throw error;
        res
          .status(error.httpStatus)
          .type('html')
          .send(requestForm(csrfToken(req, res, config), email, error.message));
        return;
      }
      res
        .type('html')
        .send(
          page(
            'Check your email',
            `<h1>Check your email</h1><p>If <strong>${escape(email.trim())}</strong> has an account here, an email with a link to ` +
              `choose a new password is on its way. The link works once and expires in an hour.</p>`,
          ),
        );
    }),
  );

  const resetPath = '/accounts/password/reset/:token/';
  router.get(
    resetPath,
    pageHandler(async (req, res) => {
      const user = await passwordResetAccount(deps, String(req.params.token));
      res.type('html').send(newPasswordForm(csrfToken(req, res, config), user.delivery_email));
    }),
  );

  router.post(
    resetPath,
    ...formBody,
    pageHandler(async (req, res) => {
      checkCsrf(req, fieldsOf(req));
      const token = String(req.params.token);
      const user = await passwordResetAccount(deps, token);
      const password = field(req, 'new_password1');
      let error: string | undefined;
      if (password !== field(req, 'new_password2')) error = 'The two password fields didn’t match.';
      else {
        try {
          await resetPassword(deps, token, password);
        } catch (failure) {
          // A weak password shows the form again; anything else (a used link, a limit) is the error page.
          if (!(failure instanceof ApiError) || failure.code !== 'PASSWORD_TOO_WEAK') throw failure;
          error = failure.message;
        }
      }
      if (error !== undefined) {
        res
          .status(400)
          .type('html')
          .send(newPasswordForm(csrfToken(req, res, config), user.delivery_email, error));
        return;
      }
      res
        .type('html')
        .send(page('Password reset', `<h1>Password reset</h1><p>Your password has been changed. <a href="/login/">Log in</a> with your new password.</p>`));
    }),
  );

  const confirmPath = '/accounts/confirm_new_email/:token/';
  router.get(
    confirmPath,
    pageHandler(async (req, res) => {
      // Opening the link only shows a button: mail scanners that fetch links change nothing.
      const token = await findUsableToken(deps.knex, deps.realmId, 'email_change', String(req.params.token));
      res.type('html').send(
        page(
          'Confirm your new email address',
          `<h1>Confirm your new email address</h1><p>Change the address of your account to <strong>${escape(token.new_email ?? '')}</strong>?</p>
<form method="post">${csrfInput(csrfToken(req, res, config))}<button type="submit">Confirm</button></form>`,
        ),
      );
    }),
  );

  router.post(
    confirmPath,
    ...formBody,
    pageHandler(async (req, res) => {
      checkCsrf(req, fieldsOf(req));
      const { oldEmail, newEmail } = await confirmEmailChange(deps, String(req.params.token));
      res
        .type('html')
        .send(
          page(
            'Email address changed',
            `<h1>Email address changed</h1><p>The address of your account is now <strong>${escape(newEmail)}</strong> ` +
              `(it was ${escape(oldEmail)}); ${escape(oldEmail)} has been told.</p>`,
          ),
        );
    }),
  );
  return router;
}
