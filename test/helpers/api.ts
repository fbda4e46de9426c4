import type { TestServer, TestUser } from './server';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Record<string, any>;
}

type Params = Record<string, unknown>;
type Credentials = TestUser | { email: string; apiKey: string } | null;

/** Form values as a Zulip client sends them: strings as-is, everything else JSON-encoded. */
export function encodeParams(params: Params): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

export function basicAuth(who: { email: string; apiKey: string }): string {
  return `Basic ${Buffer.from(`${who.email}:${who.apiKey}`).toString('base64')}`;
}

/** The User-Agent of test requests: Zulip's terminal client, whose messages start read for their sender. */
export const TEST_USER_AGENT = 'ZulipTerminal/0.0 (Parley tests)';

export interface RequestOptions {
  /** Send the parameters as multipart/form-data instead of urlencoded. */
  multipart?: boolean;
  /** Put the parameters in the query string, whatever the method. */
  inQuery?: boolean;
  headers?: Record<string, string>;
}

export async function apiRequest(
  ts: TestServer,
  who: Credentials,
  method: string,
  path: string,
  params: Params = {},
  options: RequestOptions = {},
): Promise<ApiResponse> {
  const encoded = encodeParams(params);
  // Requests come from an interactive client unless a test says otherwise, as Zulip's own test
  // suite counts as one: messages sent start read for their sender (see src/core/messages/clients.ts).
  const headers: Record<string, string> = { 'user-agent': TEST_USER_AGENT, ...(options.headers ?? {}) };
  if (who) headers.authorization = basicAuth(who);
  let url = `${ts.url}/api/v1${path}`;
  let body: string | FormData | undefined;
  if (method === 'GET' || options.inQuery) {
    const qs = new URLSearchParams(encoded).toString();
    if (qs) url += `?${qs}`;
  } else if (options.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(encoded)) form.append(k, v);
    body = form;
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(encoded).toString();
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: Record<string, any>;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`non-JSON response ${res.status} for ${method} ${path}: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** A client bound to one account. */
export function client(ts: TestServer, who: Credentials) {
  return {
    get: (path: string, params?: Params, options?: RequestOptions) => apiRequest(ts, who, 'GET', path, params, options),
    post: (path: string, params?: Params, options?: RequestOptions) => apiRequest(ts, who, 'POST', path, params, options),
    patch: (path: string, params?: Params, options?: RequestOptions) => apiRequest(ts, who, 'PATCH', path, params, options),
    put: (path: string, params?: Params, options?: RequestOptions) => apiRequest(ts, who, 'PUT', path, params, options),
    delete: (path: string, params?: Params, options?: RequestOptions) => apiRequest(ts, who, 'DELETE', path, params, options),
  };
}

export function assertSuccess(res: ApiResponse): Record<string, any> {
  if (res.status !== 200 || res.body.result !== 'success') {
    throw new Error(`expected success, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
  expect(res.body.msg).toBe('');
  return res.body;
}

export function assertError(res: ApiResponse, code: string, msg: string, status = 400): Record<string, any> {
  expect({ status: res.status, result: res.body.result, code: res.body.code, msg: res.body.msg }).toEqual({
    status,
    result: 'error',
    code,
    msg,
  });
  return res.body;
}

export interface GraphQLResponse {
  status: number;
  data: Record<string, any> | null;
  errors?: { message: string; extensions?: Record<string, any> }[];
}

export async function graphql(ts: TestServer, who: Credentials, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (who) headers.authorization = basicAuth(who);
  const res = await fetch(`${ts.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: Record<string, any> | null; errors?: GraphQLResponse['errors'] };
  return { status: res.status, data: body.data ?? null, errors: body.errors };
}

/** The one GraphQL error of a response, with its Zulip code. */
export function graphqlError(res: GraphQLResponse): { message: string; code: string } {
  expect(res.errors).toHaveLength(1);
  return { message: res.errors![0].message, code: res.errors![0].extensions?.code };
}
