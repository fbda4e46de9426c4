import path from 'node:path';
import { isValidEmail } from './core/users/validation';

/** Runtime configuration, read from the environment once at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A postgres:// URL; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl: string | null;
  realmName: string;
  /** Public base URL of the server, as clients reach it. */
  externalUrl: string;
  ownerEmail: string;
  ownerPassword: string | null;
  redisUrl: string | null;
  heartbeatSeconds: number;
  queueTimeoutSeconds: number;
  logRequests: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function urlVar(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} is not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}, got "${raw}"`);
  }
  return raw.trim();
}

export function loadConfig(env: Env = process.env): Config {
  const port = intVar(env, 'PORT', 9991, 0, 65535);
  const host = (env.HOST ?? '').trim() || '127.0.0.1';
  const dataDir = path.resolve((env.DATA_DIR ?? '').trim() || './data');
  const databaseUrl = urlVar(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = urlVar(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const ownerEmail = (env.PARLEY_OWNER_EMAIL ?? '').trim() || 'owner@example.com';
  // Checked as account creation will check it, so a bad address stops the start-up here.
  if (!isValidEmail(ownerEmail)) throw new ConfigError(`PARLEY_OWNER_EMAIL is not an email address: "${ownerEmail}"`);
  const ownerPassword = env.PARLEY_OWNER_PASSWORD ? env.PARLEY_OWNER_PASSWORD : null;
  if (ownerPassword !== null && ownerPassword.length < 8) {
    throw new ConfigError('PARLEY_OWNER_PASSWORD must be at least 8 characters long');
  }
  const realmName = (env.PARLEY_REALM_NAME ?? '').trim() || 'Parley';
  if (realmName.length > 40) throw new ConfigError('PARLEY_REALM_NAME must be at most 40 characters long');
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const externalUrl = (urlVar(env, 'PARLEY_EXTERNAL_URL', ['http:', 'https:']) ?? `http://${displayHost}:${port}`).replace(/\/+$/, '');
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    realmName,
    externalUrl,
    ownerEmail,
    ownerPassword,
    redisUrl,
    heartbeatSeconds: intVar(env, 'PARLEY_HEARTBEAT_SECONDS', 60, 1, 3600),
    queueTimeoutSeconds: intVar(env, 'PARLEY_QUEUE_TIMEOUT_SECONDS', 600, 1, 7 * 24 * 3600),
    logRequests: env.PARLEY_LOG_REQUESTS === '1',
  };
}

/** Where the embedded database keeps its files (server and operator commands alike); null with PostgreSQL. */
export function embeddedDatabaseDir(config: Config): string | null {
  return config.databaseUrl ? null : path.join(config.dataDir, 'pgdata');
}
