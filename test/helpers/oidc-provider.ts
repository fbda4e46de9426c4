import crypto from 'node:crypto';
import http from 'node:http';
import { Provider } from 'oidc-provider';
import { freePort } from './ports';
import { startTestServer, type TestServer } from './server';

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

/**
 * Follows the browser's redirects through the provider (keeping its cookies) until it is sent to
 * `callbackUrl`; returns that URL without requesting it.
 */
export async function throughProvider(start: string, callbackUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(callbackUrl)) return url;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider stopped at ${url} with ${res.status}: ${(await res.text()).slice(0, 300)}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects');
}

/**
 * A test server using a loopback provider for single sign-on. The provider must know the server's
 * callback URL, so the server's port is chosen first.
 */
export async function startServerWithProvider(env: Record<string, string> = {}): Promise<{ ts: TestServer; provider: TestProvider }> {
  const port = await freePort();
  const externalUrl = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider(`${externalUrl}/complete/oidc/`);
  const ts = await startTestServer({
    PORT: String(port),
    PARLEY_EXTERNAL_URL: externalUrl,
    PARLEY_OIDC_ISSUER: provider.issuer,
    PARLEY_OIDC_CLIENT_ID: provider.clientId,
    PARLEY_OIDC_CLIENT_SECRET: provider.clientSecret,
    ...env,
  });
  return { ts, provider };
}
