import type { IncomingMessage, ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import type { AppDeps } from '../core/deps';
import { ApiError, errors } from '../errors';
import { describeFailure, describeUrl } from '../failure-log';
import { log, newRequestId, writeAccessLine } from '../log';
import { admit, admitRequest } from './admit';
import { ApiRequest, readBody, readRawBody } from './body';
import { closeIfBodyUnread } from './body-limits';
import { ANSWERED_LATER, type Answer, type Endpoint } from './endpoint';
import type { Metrics, RouteRecorder } from '../ops/metrics';
import { BotType } from '../core/bots/constants';
import { isDatabaseUnavailable } from '../db/connect';
import { authenticateBrowserRequest, sessionSecretOf } from '../web/session-auth';

const INCOMING_WEBHOOK_BOT = BotType.INCOMING_WEBHOOK;
export const incomingWebhookRefused = () => new ApiError('BAD_REQUEST', 'This API is not available to incoming webhook bots.', 400);

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  method: Method;
  /** Relative to /api/v1. `:name` matches one segment, `*name` the rest of the path. */
  path: string;
  endpoint: Endpoint;
  /**
   * Also served under /json (Zulip's prefix for its web app) to the web app's session: the
   * `sessionid` cookie with the `X-CSRFToken` header, and no other credentials. Only for endpoints
   * that require authentication.
   */
  browser?: boolean;
}

interface CompiledPath {
  segments: string[];
  methods: Map<Method, Endpoint>;
  /** The path as declared, e.g. `/api/v1/messages/:message_id`: what logs and metrics name. */
  template: string;
  /** Requests on this path, labelled with its template (never the raw path, which holds ids). */
  recorder: RouteRecorder | null;
}

function matchPath(pattern: string[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const seg = pattern[i];
    if (seg.startsWith('*')) {
      const rest = parts.slice(i);
      if (rest.length === 0 || rest.every((p) => p === '')) return null;
      params[seg.slice(1)] = rest.map(safeDecode).join('/');
      return params;
    }
    if (i >= parts.length) return null;
    if (seg.startsWith(':')) {
      if (parts[i] === '') return null;
      params[seg.slice(1)] = safeDecode(parts[i]);
    } else if (seg !== parts[i]) {
      return null;
    }
  }
  return pattern.length === parts.length ? params : null;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Last value wins for repeated keys, as Django's QueryDict does. */
function flatten(source: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!source || typeof source !== 'object') return out;
  for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof last === 'string') out[key] = last;
    else if (last !== undefined && last !== null) out[key] = typeof last === 'object' ? JSON.stringify(last) : String(last);
  }
  return out;
}

/** The JSON answer every REST response is; node:http directly, as this is the hot path. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

function sendJsonText(res: ServerResponse, status: number, json: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

const SUCCESS_HEAD = '{"result":"success","msg":""';

/**
 * A 200 answer: `{"result":"success","msg":""}` with the payload's fields after it. A plain payload
 * is serialized once and joined to that head as text, which spares copying it into a new object
 * on every request; anything else (its own result or msg, a class instance) goes by the spread.
 */
export function sendSuccess(res: ServerResponse, payload: unknown): void {
  if (payload === undefined || payload === null) {
    sendJsonText(res, 200, `${SUCCESS_HEAD}}`);
  } else if (Object.getPrototypeOf(payload) !== Object.prototype || 'result' in (payload as object) || 'msg' in (payload as object)) {
    sendJson(res, 200, { result: 'success', msg: '', ...(payload as object) });
  } else {
    const fields = JSON.stringify(payload);
    sendJsonText(res, 200, fields === '{}' ? `${SUCCESS_HEAD}}` : `${SUCCESS_HEAD},${fields.slice(1)}`);
  }
}

export function sendError(res: ServerResponse, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  sendJson(res, error.httpStatus, error.body());
}

/** The id of a request, for its log lines and its 500 answer; set by the first front door. */
export type IdentifiedRequest = IncomingMessage & { requestId?: string; userId?: number };

export function requestIdOf(req: IncomingMessage): string {
  const identified = req as IdentifiedRequest;
  return (identified.requestId ??= newRequestId());
}

export function sendInternalError(res: ServerResponse, error: unknown, req: IncomingMessage): void {
  const requestId = requestIdOf(req);
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  // The database down or too slow is no fault of the request or of the code: 503, try again.
  if (isDatabaseUnavailable(error)) {
    log().warn({ requestId, method: req.method, path: describeUrl(url) }, `database unavailable: ${describeFailure(error).split('\n')[0]}`);
    if (!res.headersSent) sendError(res, errors.databaseUnavailable());
    return;
  }
  log().error({ requestId, method: req.method, path: describeUrl(url) }, `request failed: ${describeFailure(error)}`);
  if (res.headersSent) return;
  sendJson(res, 500, { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', request_id: requestId });
}

export const REST_PREFIX = '/api/v1';
/** Where the routes marked `browser` are served to the web app's session. */
export const BROWSER_PREFIX = '/json';
const UNMATCHED = '(unmatched)';

/**
 * The access log: one line per request with its route template (never the raw path or query,
 * which may hold message text), status, duration in ms, user id and request id.
 */
export function logRequest(req: IdentifiedRequest, route: string, status: number, started: number, userId: number | null): void {
  if (!log().isLevelEnabled('info')) return;
  const durationMs = Math.round((performance.now() - started) * 100) / 100;
  // Read, never set: a property added to every request object would change its shape on the hot path.
  writeAccessLine(req.requestId ?? newRequestId(), req.method, route, status, durationMs, userId);
}

const underPrefix = (url: string, prefix: string): boolean => {
  if (!url.startsWith(prefix)) return false;
  const next = url.charAt(prefix.length);
  return next === '' || next === '/' || next === '?';
};

/** Whether a request URL is under /api/v1 (exactly that prefix, as Zulip's URLs are case-sensitive). */
export function isApiUrl(url: string): boolean {
  return underPrefix(url, REST_PREFIX);
}

/** Whether the REST handler answers a request URL: under /api/v1, or under /json for the web app. */
export function isRestUrl(url: string): boolean {
  return underPrefix(url, REST_PREFIX) || underPrefix(url, BROWSER_PREFIX);
}

/** Routes by path: fixed paths in one lookup (they win over parameters), the others tried in order. */
function routeTable(routes: Route[], prefix: string, metrics?: Metrics) {
  const fixed = new Map<string, CompiledPath>();
  const parameterized: CompiledPath[] = [];
  for (const route of routes) {
    const segments = route.path.split('/').filter(Boolean);
    const key = segments.join('/');
    const isFixed = !segments.some((seg) => seg.startsWith(':') || seg.startsWith('*'));
    let compiled = isFixed ? fixed.get(key) : parameterized.find((p) => p.segments.join('/') === key);
    if (!compiled) {
      const template = `${prefix}/${key}`;
      compiled = { segments, methods: new Map(), template, recorder: metrics?.route(template) ?? null };
      if (isFixed) fixed.set(key, compiled);
      else parameterized.push(compiled);
    }
    if (compiled.methods.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    compiled.methods.set(route.method, route.endpoint);
  }
  // Literal segments win over parameters (/messages/flags before /messages/:message_id), whatever
  // order the feature tables list them in.
  const rank = (seg: string) => (seg.startsWith('*') ? 2 : seg.startsWith(':') ? 1 : 0);
  parameterized.sort((a, b) => {
    for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
      const diff = rank(a.segments[i]) - rank(b.segments[i]);
      if (diff !== 0) return diff;
    }
    return a.segments.length - b.segments.length;
  });

  return (parts: string[]): { path: CompiledPath; params: Record<string, string> } | null => {
    const path = fixed.get(parts.join('/'));
    if (path) return { path, params: {} };
    for (const candidate of parameterized) {
      const params = matchPath(candidate.segments, parts);
      if (params) return { path: candidate, params };
    }
    return null;
  };
}

/**
 * One request listener for every /api/v1 route (and the few also served under /json to the web
 * app's session): match, authenticate and rate-limit (from the headers), read the body, decode, run,
 * envelope. It works on node:http's objects without express, which would cost more per request
 * than everything else a simple endpoint does.
 */
export function restRequestHandler(deps: AppDeps, routes: Route[], metrics?: Metrics) {
  const findApi = routeTable(routes, REST_PREFIX, metrics);
  const browserRoutes = routes.filter((route) => route.browser);
  for (const route of browserRoutes) {
    if (route.endpoint.auth !== 'required') throw new Error(`browser route ${route.method} ${route.path} must require authentication`);
  }
  const findBrowser = routeTable(browserRoutes, BROWSER_PREFIX, metrics);

  const unmatched = metrics?.unmatched ?? null;
  const dispatch = async (req: ApiRequest & IdentifiedRequest, res: ServerResponse, started: number) => {
    let recorder = unmatched;
    let template = UNMATCHED;
    let userId: number | null = null;
    let answeredLater = false;
    // A long poll's answer: sent, recorded and logged when it comes, after this call has returned.
    const later = (): Answer => {
      answeredLater = true;
      return (error, payload) => {
        if (res.headersSent) return;
        if (error === null || error === undefined) sendSuccess(res, payload);
        else if (error instanceof ApiError) sendError(res, error);
        else sendInternalError(res, error, req);
        recorder?.record(req.method, res.statusCode, started);
        logRequest(req, template, res.statusCode, started, userId);
      };
    };
    try {
      const url = req.url ?? '/';
      const queryAt = url.indexOf('?');
      const browser = !url.startsWith(REST_PREFIX);
      const pathname = url.slice(browser ? BROWSER_PREFIX.length : REST_PREFIX.length, queryAt < 0 ? url.length : queryAt);
      const parts = pathname.split('/').filter((p, i, all) => p !== '' || (i > 0 && i < all.length - 1));
      const found = browser ? findBrowser(parts) : findApi(parts);
      if (!found) throw errors.notFound();
      recorder = found.path.recorder;
      template = found.path.template;
      const method = (req.method === 'HEAD' ? 'GET' : req.method) as Method;
      const ep = found.path.methods.get(method);
      if (!ep) {
        // HEAD is served wherever GET is, so it is allowed there too.
        const allowed: string[] = [...found.path.methods.keys()];
        if (allowed.includes('GET')) allowed.push('HEAD');
        res.setHeader('Allow', allowed.join(', '));
        throw new ApiError('BAD_REQUEST', 'Method Not Allowed', 405, { allowed_methods: allowed });
      }
      // Credentials and rate limits come from the headers, before a byte of the body is read.
      const user = browser
        ? await admit(deps, req, res, 'required', () => authenticateBrowserRequest(deps, req, sessionSecretOf(req)))
        : await admitRequest(deps, req, res, ep.auth);
      userId = user?.id ?? null;
      if (user !== null && user.is_bot && user.bot_type === INCOMING_WEBHOOK_BOT && !ep.allowIncomingWebhooks) throw incomingWebhookRefused();
      const reading = ep.streamsBody
        ? null
        : ep.rawBody
          ? readRawBody(req, deps.config.maxRequestBodyBytes)
          : readBody(req, res, deps.config.maxRequestBodyBytes);
      if (reading) await reading;
      // Body fields win over query fields of the same name.
      const request = queryAt < 0 ? flatten(req.body) : { ...flatten(querystring.parse(url.slice(queryAt + 1))), ...flatten(req.body) };
      const raw = { request, path: found.params };
      const payload = await ep.run({ deps, user, raw, req, res, later });
      if (payload === ANSWERED_LATER || res.headersSent) return;
      sendSuccess(res, payload);
    } catch (error) {
      // An error thrown after deferring is this request's answer after all.
      answeredLater = false;
      closeIfBodyUnread(req, res);
      if (error instanceof ApiError) sendError(res, error);
      else sendInternalError(res, error, req);
    } finally {
      // Also after endpoints that answer by themselves (file downloads); deferred answers record
      // and log themselves when sent.
      if (!answeredLater) {
        recorder?.record(req.method, res.statusCode, started);
        logRequest(req, template, res.statusCode, started, userId);
      }
    }
  };

  return (req: IncomingMessage, res: ServerResponse): void => void dispatch(req, res, performance.now());
}
