import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../core/deps';
import { errors, RETRY_AFTER_SECONDS } from '../errors';
import { sendError, sendJson } from '../rest/router';

export type CheckResult = 'ok' | 'failed';

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

/** Bound on each readiness check, so a hung database answers 503 instead of hanging the probe. */
const CHECK_TIMEOUT_MS = 2000;

async function check(run: () => Promise<unknown>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([run(), timeout]);
    return 'ok';
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/** The database (one trivial query) and, when REDIS_URL is set, Redis (one PING). */
export async function readiness(deps: AppDeps): Promise<Readiness> {
  const checks: Record<string, CheckResult> = {};
  const connections = deps.realtime?.redis;
  const [database, redis] = await Promise.all([check(() => deps.knex.raw('select 1')), connections ? check(() => connections.command.ping()) : null]);
  checks.database = database;
  if (redis) checks.redis = redis;
  return { ready: Object.values(checks).every((result) => result === 'ok'), checks };
}

/**
 * The answer to every request that arrives after the port is bound but before start-up has finished
 * (the owner, its zuliprc, the workers): liveness says ok, readiness says starting, anything else
 * is 503 with Retry-After. Answered at once rather than held, so probes and clients never wait on
 * a start-up of unknown length, and nothing is served before the state it needs exists.
 */
export function answerWhileStarting(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0];
  // The body is never read: close the connection after answering rather than read it.
  res.setHeader('Connection', 'close');
  if (path === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
    sendJson(res, 200, { status: 'ok' });
  } else if (path === '/health/ready' && (req.method === 'GET' || req.method === 'HEAD')) {
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    sendJson(res, 503, { status: 'unavailable', ready: false, starting: true, checks: {} });
  } else {
    sendError(res, errors.serverNotReady());
  }
}
