import type { Route } from '../../src/rest/router';
import { Known, Rng, ValueGenerator, WireValue } from './fuzz-values';

/**
 * Requests generated from the route table: every declared endpoint, with its declared parameters
 * missing, repeated, of the wrong type or hostile, plus stray ones, sent by different callers in
 * the encodings clients use.
 */
export type Caller = 'owner' | 'member' | 'guest' | 'none' | 'bad-key' | 'malformed';

export interface WireRequest {
  method: string;
  /** Path under /api/v1, with its query string, percent-encoded. */
  url: string;
  caller: Caller;
  body?: { contentType: string; data: string } | { form: [string, string][] };
}

const encode = (value: WireValue) => (typeof value === 'string' ? encodeURIComponent(value) : value.bytes);

/** Lone surrogates cannot be percent-encoded; they stand for themselves as invalid UTF-8. */
function safeEncode(value: WireValue): string {
  try {
    return encode(value);
  } catch {
    return '%ED%A0%80';
  }
}

const formOf = (pairs: [string, WireValue][]) => pairs.map(([k, v]) => `${safeEncode(k)}=${safeEncode(v)}`).join('&');

const CALLERS: Caller[] = ['owner', 'owner', 'member', 'member', 'guest', 'guest', 'none', 'bad-key', 'malformed'];
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD'];

export class RequestGenerator {
  private readonly values: ValueGenerator;

  constructor(
    private readonly rng: Rng,
    known: Known,
  ) {
    this.values = new ValueGenerator(rng, known);
  }

  /** One request for `route`. */
  forRoute(route: Route): WireRequest {
    const r = this.rng;
    const params = route.endpoint.params;
    const path = route.path.replace(/([:*])(\w+)/g, (_match, sigil: string, name: string) => {
      const segment = this.values.pathSegment(params[name]?.kind ?? { type: 'string' });
      return sigil === '*' && r.chance(0.3) ? `${segment}/${segment}` : segment;
    });
    const method = r.chance(0.05) ? r.pick(METHODS) : route.method;
    const inQuery = method === 'GET' || method === 'HEAD' || r.chance(0.1);
    const pairs: [string, WireValue][] = [];
    for (const [name, param] of Object.entries(params)) {
      if (param.source !== 'request') continue;
      // Required parameters are sent most of the time, optional ones half of the time.
      if (!r.chance(param.required ? 0.85 : 0.5)) continue;
      const sentAs = param.aliases.length > 0 && r.chance(0.2) ? r.pick(param.aliases) : name;
      pairs.push([sentAs, this.values.forKind(param.kind, inQuery)]);
      if (r.chance(0.05)) pairs.push([sentAs, this.values.forKind(param.kind, inQuery)]);
    }
    if (r.chance(0.1)) pairs.push([this.values.strayName(), this.values.forKind({ type: 'raw' }, true)]);
    let url = path;
    let body: WireRequest['body'];
    if (inQuery) {
      if (pairs.length > 0) url += `?${formOf(pairs)}`;
    } else if (r.chance(0.1) && pairs.every(([, v]) => typeof v === 'string')) {
      body = { form: pairs as [string, string][] };
    } else {
      const roll = r.next();
      const contentType =
        roll < 0.04
          ? 'application/json'
          : roll < 0.06
            ? 'text/plain'
            : roll < 0.08
              ? 'multipart/form-data; boundary=broken'
              : 'application/x-www-form-urlencoded';
      body = { contentType, data: contentType === 'application/json' ? JSON.stringify(Object.fromEntries(pairs)) : formOf(pairs) };
    }
    return { method, url, caller: r.pick(CALLERS), body };
  }
}

/** A line that names a request well enough to replay it by hand (values cut short). */
export function describeRequest(request: WireRequest): string {
  const body =
    request.body === undefined ? '' : 'form' in request.body ? ` multipart ${formOf(request.body.form)}` : ` ${request.body.contentType} ${request.body.data}`;
  const line = `${request.caller} ${request.method} ${request.url}${body}`;
  return line.length > 400 ? `${line.slice(0, 400)}…` : line;
}
