import type { ServerResponse } from 'node:http';
import type { AppDeps } from '../core/deps';
import type { AuthedUser } from '../core/users/model';
import { errors } from '../errors';
import type { ApiRequest } from './body';
import { parseJsonParam, v, Validator } from '../validation/validate';

/**
 * Each REST endpoint is declared once: its parameters (where they come from, their type, whether
 * they are required, their default, whether they are JSON-encoded) and a handler. The declaration
 * drives decoding and every parameter error, so all endpoints answer bad input the same way.
 */
type Source = 'request' | 'path';

/**
 * What a parameter holds, as far as a generator of requests needs to know (the fuzz test reads it
 * from the route table): `values` lists an enumeration's members. Parameters declared with their
 * own decoder are `raw`.
 */
export interface ParamKind {
  type: 'string' | 'enum' | 'int' | 'bool' | 'json' | 'intList' | 'raw';
  values?: readonly (string | number)[];
}

export class Param<T> {
  constructor(
    readonly decodeRaw: (raw: string, name: string) => T,
    readonly required: boolean = true,
    readonly fallback: (() => T) | undefined = undefined,
    readonly source: Source = 'request',
    readonly aliases: string[] = [],
    readonly kind: ParamKind = { type: 'raw' },
  ) {}

  optional(): Param<T | undefined> {
    return new Param<T | undefined>(this.decodeRaw, false, undefined, this.source, this.aliases, this.kind);
  }

  default(value: T): Param<T> {
    return new Param<T>(this.decodeRaw, false, () => value, this.source, this.aliases, this.kind);
  }

  /** Older names a client may still send for this parameter. */
  alias(...names: string[]): Param<T> {
    return new Param<T>(this.decodeRaw, this.required, this.fallback, this.source, [...this.aliases, ...names], this.kind);
  }
}

const kinded = <T>(decode: (raw: string, name: string) => T, kind: ParamKind) => new Param<T>(decode, true, undefined, 'request', [], kind);

const json =
  <T>(validator: Validator<T>) =>
  (raw: string, name: string) =>
    validator(parseJsonParam(raw, name), name);

export const p = {
  /** A plain string, used as sent. */
  string: (rules?: Parameters<typeof v.string>[0]) => kinded<string>((raw, name) => v.string(rules)(raw, name), { type: 'string' }),
  /** A string restricted to some values ("Invalid x" otherwise). */
  enum: <T extends string>(values: readonly T[]) => kinded<T>((raw, name) => v.oneOf(values)(raw, name), { type: 'enum', values }),
  /** JSON-encoded scalars and structures. */
  int: (rules?: Parameters<typeof v.int>[0]) => kinded<number>(json(v.int(rules)), { type: 'int' }),
  bool: () => kinded<boolean>(json(v.bool()), { type: 'bool' }),
  /** A JSON integer from a fixed set ("Invalid x" otherwise). */
  intIn: <T extends number>(values: readonly T[]) =>
    kinded<T>(
      json((value, name) => v.oneOf(values)(v.int()(value, name), name)),
      { type: 'enum', values },
    ),
  json: <T>(validator: Validator<T>) => kinded<T>(json(validator), { type: 'json' }),
  intList: () => kinded<number[]>(json(v.list(v.int())), { type: 'intList' }),
  /** Path segments; a segment of the wrong shape means the route does not exist. */
  path: {
    int: () =>
      new Param<number>(
        (raw) => {
          if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw errors.notFound();
          return Number(raw);
        },
        true,
        undefined,
        'path',
        [],
        { type: 'int' },
      ),
    /** NUL names nothing (and cannot be sent to the database). */
    string: () =>
      new Param<string>(
        (raw) => {
          if (raw.includes('\u0000')) throw errors.notFound();
          return raw;
        },
        true,
        undefined,
        'path',
        [],
        { type: 'string' },
      ),
  },
};

type ParamMap = Record<string, Param<unknown>>;
export type Decoded<P extends ParamMap> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };

export interface HandlerContext<P extends ParamMap, U> {
  deps: AppDeps;
  user: U;
  params: Decoded<P>;
  /** node:http's request, with the parsed body (and uploaded files) attached. */
  req: ApiRequest;
  res: ServerResponse;
  /**
   * For a handler that answers after it has returned (a long poll): gives the function that will
   * send the answer, and makes the handler's own return value (ANSWERED_LATER) send nothing. Call it
   * only once the answer is certain to come later, so nothing of the request's call chain stays in
   * memory while it waits.
   */
  later(): Answer;
}

/** Sends a deferred answer: the payload, or the error that ended the request. */
export type Answer = (error: unknown, payload?: Record<string, unknown>) => void;

/** What a handler returns when it has called `later()`. */
export const ANSWERED_LATER = Symbol('answered later');

/** `optional`: credentials are checked when sent; without them the handler gets a null user (spectators). */
export type AuthMode = 'required' | 'optional' | 'none';

export interface Endpoint {
  auth: AuthMode;
  /** Whether incoming-webhook bots may call it (Zulip lets them only send messages). */
  allowIncomingWebhooks: boolean;
  /** The body is a document (req.rawBody), not parameters. */
  rawBody: boolean;
  /** The handler reads the body itself, as a stream (file uploads); the router leaves it unread. */
  streamsBody?: boolean;
  params: ParamMap;
  run(ctx: { deps: AppDeps; user: AuthedUser | null; raw: RawParams; req: ApiRequest; res: ServerResponse; later(): Answer }): Promise<unknown>;
}

export type RawParams = { request: Record<string, string>; path: Record<string, string> };

/** The body a handler returns, merged into the success envelope. */
export type Payload = Record<string, unknown> | void | typeof ANSWERED_LATER;

export function endpoint<P extends ParamMap>(spec: {
  auth: 'none' | 'optional';
  rawBody?: boolean;
  params: P;
  handler: (ctx: HandlerContext<P, AuthedUser | null>) => Promise<Payload>;
}): Endpoint;
export function endpoint<P extends ParamMap>(spec: {
  auth?: 'required';
  allowIncomingWebhooks?: boolean;
  /** Permission check that runs before parameters are decoded, as Zulip's view decorators do. */
  guard?: (ctx: { deps: AppDeps; user: AuthedUser }) => void | Promise<void>;
  streamsBody?: boolean;
  params: P;
  handler: (ctx: HandlerContext<P, AuthedUser>) => Promise<Payload>;
}): Endpoint;
export function endpoint<P extends ParamMap>(spec: {
  auth?: AuthMode;
  allowIncomingWebhooks?: boolean;
  rawBody?: boolean;
  guard?: (ctx: { deps: AppDeps; user: never }) => void | Promise<void>;
  streamsBody?: boolean;
  params: P;
  handler: (ctx: HandlerContext<P, never>) => Promise<Payload>;
}): Endpoint {
  const auth = spec.auth ?? 'required';
  // Worked out once per endpoint rather than per request.
  const decoders = Object.entries(spec.params).map(([name, param]) => ({ name, param, names: [name, ...param.aliases] }));
  const known = new Set(decoders.filter((d) => d.param.source === 'request').flatMap((d) => d.names));
  return {
    auth,
    allowIncomingWebhooks: spec.allowIncomingWebhooks ?? false,
    rawBody: spec.rawBody ?? false,
    streamsBody: spec.streamsBody,
    params: spec.params,
    async run({ deps, user, raw, req, res, later }) {
      if (spec.guard) await spec.guard({ deps, user: user as never });
      const params = decodeParams(decoders, raw);
      const laterWithIgnored = (): Answer => {
        const answer = later();
        const ignored = unknownParams(known, raw.request);
        if (ignored.length === 0) return answer;
        return (error, payload) => answer(error, payload && { ...payload, ignored_parameters_unsupported: ignored });
      };
      const payload = (await spec.handler({ deps, user: user as never, params: params as Decoded<P>, req, res, later: laterWithIgnored })) ?? {};
      if (payload === ANSWERED_LATER) return payload;
      const ignored = unknownParams(known, raw.request);
      return ignored.length > 0 ? { ...payload, ignored_parameters_unsupported: ignored } : payload;
    },
  };
}

type Decoder = { name: string; param: Param<unknown>; names: string[] };

function decodeParams(decoders: Decoder[], raw: RawParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, param, names } of decoders) {
    const bag = raw[param.source];
    let sentAs: string | undefined;
    for (const candidate of names) {
      if (bag[candidate] !== undefined) {
        sentAs = candidate;
        break;
      }
    }
    if (sentAs === undefined) {
      if (param.required) throw errors.missing(name);
      out[name] = param.fallback ? param.fallback() : undefined;
      continue;
    }
    out[name] = param.decodeRaw(bag[sentAs], sentAs);
  }
  return out;
}

function unknownParams(known: Set<string>, request: Record<string, string>): string[] {
  const unknown: string[] = [];
  for (const key of Object.keys(request)) if (!known.has(key)) unknown.push(key);
  // Sorted, as Zulip lists them.
  return unknown.sort();
}
