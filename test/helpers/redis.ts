import { spawnSync } from 'node:child_process';
import Redis from 'ioredis';

/** The Redis tests use: REDIS_URL, or the local default. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function redisReachable(): boolean {
  const { hostname, port } = new URL(REDIS_URL);
  const probe = `require('net').connect(${Number(port) || 6379}, ${JSON.stringify(hostname)}).on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 5000 }).status === 0;
}

/** `describe` when Redis is reachable, else `describe.skip` with a warning. */
export function describeWithRedis(): jest.Describe {
  const reachable = redisReachable();
  if (!reachable) console.warn(`Redis tests skipped: no Redis at ${REDIS_URL} (set REDIS_URL to run them).`);
  return reachable ? describe : describe.skip;
}

/** Deletes the keys a test's servers left under their namespace. */
export async function removeKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
