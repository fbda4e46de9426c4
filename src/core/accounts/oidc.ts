import { BaseClient, CallbackParamsType, errors as oidcErrors, generators, Issuer } from 'openid-client';
import type { AppDeps } from '../deps';
import { ApiError } from '../../errors';
import { describeFailure } from '../../failure-log';
import { User } from '../users/model';
import { checkFullName } from '../users/validation';
import { log } from '../../log';
import { signUpThroughSso } from './sso-signup';

/**
 * OpenID Connect single sign-on (authorization code flow with PKCE, openid-client). The provider
 * is discovered from PARLEY_OIDC_ISSUER at the first login; the browser carries the flow's state,
 * nonce and verifier in a short-lived HttpOnly cookie and comes back to /complete/oidc/.
 */
export interface OidcFlow {
  state: string;
  nonce: string;
  verifier: string;
  /** The mobile app's pad, when the login started from one. */
  otp: string | null;
}

export const OIDC_CALLBACK_PATH = '/complete/oidc/';

const clients = new Map<string, Promise<BaseClient>>();

function oidcClient(deps: AppDeps): Promise<BaseClient> {
  const config = deps.config.oidc!;
  const key = `${config.issuer} ${config.clientId}`;
  let client = clients.get(key);
  if (!client) {
    client = Issuer.discover(config.issuer).then(
      (issuer) =>
        new issuer.Client({
          client_id: config.clientId,
          client_secret: config.clientSecret,
          redirect_uris: [deps.config.externalUrl + OIDC_CALLBACK_PATH],
          response_types: ['code'],
        }),
    );
    // A failed discovery is retried at the next login.
    client.catch(() => clients.delete(key));
    clients.set(key, client);
  }
  return client;
}

const unavailable = () => new ApiError('BAD_REQUEST', 'The single sign-on provider could not be reached. Try again later.', 502);
export const oidcNotConfigured = () => new ApiError('NOT_FOUND', 'Not Found', 404);

/** Where to send the browser, and the flow to remember until it comes back. */
export async function startOidcLogin(deps: AppDeps, otp: string | null): Promise<{ url: string; flow: OidcFlow }> {
  if (!deps.config.oidc) throw oidcNotConfigured();
  let client: BaseClient;
  try {
    client = await oidcClient(deps);
  } catch (error) {
    log().error(`OpenID Connect discovery failed: ${describeFailure(error).split('\n')[0]}`);
    throw unavailable();
  }
  const flow: OidcFlow = { state: generators.state(), nonce: generators.nonce(), verifier: generators.codeVerifier(), otp };
  const url = client.authorizationUrl({
    scope: 'openid email profile',
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: generators.codeChallenge(flow.verifier),
    code_challenge_method: 'S256',
  });
  return { url, flow };
}

const loginFailed = () => new ApiError('BAD_REQUEST', 'Single sign-on failed: the login session is invalid or has expired. Please log in again.', 400);

/**
 * The account the provider's answer opens; a missing one is signed up (sso-signup.ts) when
 * PARLEY_OIDC_CREATE_USERS allows.
 */
export async function finishOidcLogin(deps: AppDeps, params: CallbackParamsType, flow: OidcFlow | null): Promise<User> {
  const config = deps.config.oidc;
  if (!config) throw oidcNotConfigured();
  // A callback that does not carry the state this browser started with is refused (CSRF).
  if (!flow || typeof params.state !== 'string' || params.state !== flow.state) throw loginFailed();
  const client = await oidcClient(deps).catch(() => {
    throw unavailable();
  });
  let claims: Record<string, unknown>;
  try {
    const tokens = await client.callback(deps.config.externalUrl + OIDC_CALLBACK_PATH, params, {
      state: flow.state,
      nonce: flow.nonce,
      code_verifier: flow.verifier,
    });
    claims = { ...tokens.claims() };
    if (typeof claims.email !== 'string' && tokens.access_token) claims = { ...claims, ...(await client.userinfo(tokens.access_token)) };
  } catch (error) {
    // The error's text may quote codes or states: only its kind is logged.
    const kind =
      error instanceof oidcErrors.OPError ? `provider error ${error.error}` : error instanceof oidcErrors.RPError ? 'response check failed' : 'request failed';
    log().error(`OpenID Connect login failed: ${kind}`);
    throw loginFailed();
  }
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (email === '' || claims.email_verified === false) {
    throw new ApiError('BAD_REQUEST', 'The single sign-on provider did not confirm an email address for this account.', 400);
  }
  const existing = await User.query(deps.knex).where({ realm_id: deps.realmId, is_bot: false }).whereRaw('lower(delivery_email) = lower(?)', [email]).first();
  if (existing) {
    if (!existing.is_active) throw new ApiError('BAD_REQUEST', 'Your account has been deactivated.', 400);
    return existing;
  }
  if (!config.createUsers) throw new ApiError('BAD_REQUEST', `There is no account for ${email} in this organization.`, 400);
  return signUpThroughSso(deps, email, nameFrom(claims, email));
}

function nameFrom(claims: Record<string, unknown>, email: string): string {
  for (const candidate of [claims.name, [claims.given_name, claims.family_name].filter(Boolean).join(' '), email.split('@')[0]]) {
    if (typeof candidate !== 'string') continue;
    try {
      return checkFullName(candidate);
    } catch {
      // Try the next one.
    }
  }
  return 'New user';
}
