import type { AppDeps } from '../core/deps';

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
