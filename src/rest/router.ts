import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { AppDeps } from '../deps';
import { ApiError, errors } from '../errors';
import { authenticateRequest } from './auth';
import type { Endpoint } from './endpoint';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  method: Method;
  /** Relative to /api/v1. `:name` matches one segment, `*name` the rest of the path. */
  path: string;
  endpoint: Endpoint;
}

interface CompiledPath {
  segments: string[];
  methods: Map<Method, Endpoint>;
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

export function sendError(res: Response, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.httpStatus).json(error.body());
}

export function sendInternalError(res: Response, error: unknown, req: Request): void {
  const requestId = crypto.randomUUID();
  console.error(`[${requestId}] ${req.method} ${req.originalUrl} failed:`, error);
  if (res.headersSent) return;
  res.status(500).json({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', request_id: requestId });
}

/** One express handler for every /api/v1 route: match, authenticate, decode, run, envelope. */
export function restDispatcher(deps: AppDeps, routes: Route[]) {
  const paths: CompiledPath[] = [];
  for (const route of routes) {
    let compiled = paths.find((p) => p.segments.join('/') === route.path.split('/').filter(Boolean).join('/'));
    if (!compiled) {
      compiled = { segments: route.path.split('/').filter(Boolean), methods: new Map() };
      paths.push(compiled);
    }
    if (compiled.methods.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    compiled.methods.set(route.method, route.endpoint);
  }
  // Literal segments win over parameters (/messages/flags before /messages/:message_id), whatever
  // order the feature tables list them in.
  const rank = (seg: string) => (seg.startsWith('*') ? 2 : seg.startsWith(':') ? 1 : 0);
  paths.sort((a, b) => {
    for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
      const diff = rank(a.segments[i]) - rank(b.segments[i]);
      if (diff !== 0) return diff;
    }
    return a.segments.length - b.segments.length;
  });

  return async (req: Request, res: Response, _next: NextFunction) => {
    try {
      const parts = req.path.split('/').filter((p, i, all) => p !== '' || (i > 0 && i < all.length - 1));
      let found: { path: CompiledPath; params: Record<string, string> } | null = null;
      for (const path of paths) {
        const params = matchPath(path.segments, parts);
        if (params) {
          found = { path, params };
          break;
        }
      }
      if (!found) throw errors.notFound();
      const method = (req.method === 'HEAD' ? 'GET' : req.method) as Method;
      const ep = found.path.methods.get(method);
      if (!ep) {
        const allowed = [...found.path.methods.keys()];
        res.setHeader('Allow', allowed.join(', '));
        throw new ApiError('BAD_REQUEST', 'Method Not Allowed', 405, { allowed_methods: allowed });
      }
      const user = ep.auth === 'required' ? await authenticateRequest(deps, req.headers.authorization) : null;
      const raw = { request: { ...flatten(req.query), ...flatten(req.body) }, path: found.params };
      const payload = await ep.run({ deps, user, raw, req, res });
      if (res.headersSent) return;
      res.status(200).json({ result: 'success', msg: '', ...(payload as object) });
    } catch (error) {
      if (error instanceof ApiError) sendError(res, error);
      else sendInternalError(res, error, req);
    }
  };
}
