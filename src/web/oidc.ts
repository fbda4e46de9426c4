import { Router } from 'express';
import type { AppDeps } from '../core/deps';
import { ApiError } from '../errors';
import { finishOidcLogin, OIDC_CALLBACK_PATH, OidcFlow, startOidcLogin } from '../core/accounts/oidc';
import { isValidOtp } from '../core/accounts/otp';
import { clearCookie, readCookie, setCookie } from './cookies';
import { pageHandler } from './forms';
import { finishMobileFlow, startBrowserSession } from './login';

/** The single sign-on pages: the button's target, which goes to the provider, and the way back. */
const FLOW_COOKIE = 'oidc_flow';
const FLOW_SECONDS = 10 * 60;

function readFlow(value: string | undefined): OidcFlow | null {
  if (!value || value.length > 2000) return null;
  try {
    const flow = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as OidcFlow;
    const ok = [flow.state, flow.nonce, flow.verifier].every((v) => typeof v === 'string') && (flow.otp === null || isValidOtp(flow.otp));
    return ok ? flow : null;
  } catch {
    return null;
  }
}

export function oidcRouter(deps: AppDeps): Router {
  const router = Router();
  const start = pageHandler(async (req, res) => {
    const raw = req.query.mobile_flow_otp;
    if (raw !== undefined && (typeof raw !== 'string' || !isValidOtp(raw))) throw new ApiError('BAD_REQUEST', 'Invalid OTP', 400);
    const { url, flow } = await startOidcLogin(deps, typeof raw === 'string' ? raw : null);
    setCookie(res, deps.config, FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), FLOW_SECONDS);
    res.redirect(302, url);
  });
  router.get('/accounts/login/social/oidc', start);
  router.get('/accounts/register/social/oidc', start);

  router.get(
    OIDC_CALLBACK_PATH,
    pageHandler(async (req, res) => {
      const flow = readFlow(readCookie(req, FLOW_COOKIE));
      // One use per flow, whatever the outcome.
      clearCookie(res, deps.config, FLOW_COOKIE);
      const params = Object.fromEntries(Object.entries(req.query).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
      const user = await finishOidcLogin(deps, params, flow);
      if (flow!.otp) return finishMobileFlow(deps, req, res, user, flow!.otp);
      await startBrowserSession(deps, req, res, user, '/');
    }),
  );
  return router;
}
