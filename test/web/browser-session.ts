import type { TestServer, TestUser } from '../helpers/server';
import { openSocket, RawSocket } from '../helpers/ws';

/**
 * The web app's side of a browser session, over plain HTTP and WebSocket: it logs in through the
 * real /login/ form and then sends what the app sends (the cookies, and the CSRF token in
 * `X-CSRFToken`).
 */
export interface BrowserSession {
  sessionid: string;
  csrftoken: string;
}

const cookieValue = (lines: string[], name: string): string | undefined =>
  lines
    .map((line) => line.split(';')[0])
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);

export const cookieHeader = (session: Partial<BrowserSession>): string =>
  Object.entries(session)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');

/** GET /login/ (the CSRF cookie and the form's hidden token), then POST the form. */
export async function logIn(ts: TestServer, who: TestUser): Promise<BrowserSession> {
  const page = await fetch(`${ts.url}/login/`, { redirect: 'manual' });
  const csrftoken = cookieValue(page.headers.getSetCookie(), 'csrftoken');
  const field = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!csrftoken || field !== csrftoken) throw new Error('the login page gave no CSRF token');
  const res = await fetch(`${ts.url}/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader({ csrftoken }) },
    body: new URLSearchParams({ username: who.email, password: who.password, csrfmiddlewaretoken: field }).toString(),
  });
  await res.text();
  const sessionid = cookieValue(res.headers.getSetCookie(), 'sessionid');
  if (res.status !== 302 || !sessionid) throw new Error(`login failed with ${res.status}`);
  return { sessionid, csrftoken };
}

/** POST /logout/ with the form's token, as the browser's logout button does. */
export async function logOut(ts: TestServer, session: BrowserSession): Promise<void> {
  const res = await fetch(`${ts.url}/logout/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(session) },
    body: new URLSearchParams({ csrfmiddlewaretoken: session.csrftoken }).toString(),
  });
  await res.text();
  if (res.status !== 302) throw new Error(`logout failed with ${res.status}`);
}

export interface SessionGraphQLResponse {
  status: number;
  data: Record<string, any> | null;
  errors?: { message: string; extensions?: Record<string, any> }[];
}

/**
 * A GraphQL request with the session's cookies; `csrf` is the X-CSRFToken header (the session's
 * token unless given, none when null); `headers` are added.
 */
export async function sessionGraphQL(
  ts: TestServer,
  session: Partial<BrowserSession>,
  query: string,
  {
    variables = {},
    csrf = session.csrftoken,
    headers = {},
  }: { variables?: Record<string, unknown>; csrf?: string | null; headers?: Record<string, string> } = {},
): Promise<SessionGraphQLResponse> {
  const sent: Record<string, string> = { 'content-type': 'application/json', cookie: cookieHeader(session), ...headers };
  if (csrf) sent['x-csrftoken'] = csrf;
  const res = await fetch(`${ts.url}/graphql`, { method: 'POST', headers: sent, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: Record<string, any> | null; errors?: SessionGraphQLResponse['errors'] };
  return { status: res.status, data: body.data ?? null, errors: body.errors };
}

/** The one error of a response, with its code and the HTTP status. */
export const errorOf = (res: SessionGraphQLResponse) => {
  expect(res.errors).toHaveLength(1);
  return { status: res.status, message: res.errors![0].message, code: res.errors![0].extensions?.code };
};

export const CSRF_FAILED = { status: 403, code: 'CSRF_FAILED', message: 'CSRF verification failed. Reload the page and try again.' };
export const NOT_LOGGED_IN = { status: 401, code: 'UNAUTHORIZED', message: 'Not logged in: API authentication or user session required' };

/** The server's origin as a browser on its page would send it. */
export const originOf = (ts: TestServer): string => new URL(ts.url).origin;

/** A GraphQL WebSocket opened with the session's cookies and, unless null, an Origin header. */
export function sessionSocket(ts: TestServer, session: Partial<BrowserSession>, origin: string | null = originOf(ts)): Promise<RawSocket | { status: number }> {
  const headers: Record<string, string> = { cookie: cookieHeader(session) };
  if (origin !== null) headers.origin = origin;
  return openSocket(ts, headers);
}
