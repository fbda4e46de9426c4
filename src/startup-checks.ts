import Redis from 'ioredis';
import { Client, InvalidCredentialsError, ResultCodeError } from 'ldapts';
import nodemailer from 'nodemailer';
import type { Config } from './config';
import { EXIT_LDAP_UNREACHABLE, EXIT_REDIS_UNREACHABLE, EXIT_SMTP_UNREACHABLE, type StartupFailure } from './startup-errors';

/**
 * Before the server starts, each configured service it depends on is tried once (Redis, the SMTP
 * server, the directory server), each bounded in time: a service that cannot be used stops the
 * start with one line naming it (never its password) and an exit code of its own, rather than
 * failing the first request, email or login that needs it.
 */
const CHECK_TIMEOUT_MS = 5000;

/** host:port of a service URL, without the credentials it may hold. */
function where(url: string, defaultPort: number): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || defaultPort}`;
}

/** The error's code (ECONNREFUSED, ETIMEDOUT, ...) or, failing that, its first line. */
function reason(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code) && code !== 'ESOCKET' && code !== 'ECONNECTION') return code;
  const text = typeof message === 'string' ? message : String(error);
  const errno = /\b(E[A-Z]{4,})\b/.exec(text);
  if (errno) return errno[1];
  return /time(d)? ?out/i.test(text) ? 'ETIMEDOUT' : text.split('\n')[0].slice(0, 200);
}

async function checkRedis(url: string): Promise<StartupFailure | null> {
  const at = where(url, 6379);
  // One attempt, no retries, nothing queued while disconnected: the first failure is the answer.
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CHECK_TIMEOUT_MS,
    commandTimeout: CHECK_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // connect() rejects with "Connection is closed."; the cause (ECONNREFUSED, ...) comes as an event.
  let cause: unknown = null;
  client.on('error', (error: unknown) => (cause ??= error));
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    const text = String((error as Error)?.message ?? error) + String((cause as Error | null)?.message ?? '');
    if (/WRONGPASS|NOAUTH|invalid password|invalid username/i.test(text)) {
      return { message: `Redis at ${at} refused the credentials. Check REDIS_URL.`, exitCode: EXIT_REDIS_UNREACHABLE };
    }
    return { message: `Cannot reach Redis at ${at} (${reason(cause ?? error)}). Check REDIS_URL and that Redis is running.`, exitCode: EXIT_REDIS_UNREACHABLE };
  } finally {
    client.disconnect();
  }
}

async function checkSmtp(url: string): Promise<StartupFailure | null> {
  const at = where(url, url.startsWith('smtps:') ? 465 : 587);
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: CHECK_TIMEOUT_MS,
    greetingTimeout: CHECK_TIMEOUT_MS,
    socketTimeout: CHECK_TIMEOUT_MS,
  });
  try {
    // Connects, greets and, with credentials in the URL, logs in.
    await transport.verify();
    return null;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EAUTH') {
      return { message: `The SMTP server at ${at} refused the credentials. Check SMTP_URL.`, exitCode: EXIT_SMTP_UNREACHABLE };
    }
    return {
      message: `Cannot reach the SMTP server at ${at} (${reason(error)}). Check SMTP_URL and that the mail server is running.`,
      exitCode: EXIT_SMTP_UNREACHABLE,
    };
  } finally {
    transport.close();
  }
}

async function checkLdap(ldap: NonNullable<Config['ldap']>): Promise<StartupFailure | null> {
  const at = where(ldap.url, ldap.url.startsWith('ldaps:') ? 636 : 389);
  const client = new Client({ url: ldap.url, timeout: CHECK_TIMEOUT_MS, connectTimeout: CHECK_TIMEOUT_MS });
  try {
    if (ldap.bindDn !== null) {
      await client.bind(ldap.bindDn, ldap.bindPassword ?? '');
      return null;
    }
    // Without a bind DN: read the root entry. Any answer, even a refusal, shows the server is there.
    await client.search('', { scope: 'base', attributes: ['namingContexts'] }).catch((error: unknown) => {
      if (!(error instanceof ResultCodeError)) throw error;
    });
    return null;
  } catch (error) {
    if (error instanceof InvalidCredentialsError) {
      return {
        message: `The directory server at ${at} refused the credentials of PARLEY_LDAP_BIND_DN. Check PARLEY_LDAP_BIND_DN and PARLEY_LDAP_BIND_PASSWORD.`,
        exitCode: EXIT_LDAP_UNREACHABLE,
      };
    }
    return {
      message: `Cannot reach the directory server at ${at} (${reason(error)}). Check PARLEY_LDAP_URL and that the directory server is running.`,
      exitCode: EXIT_LDAP_UNREACHABLE,
    };
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/** Tries the configured services at once; the first failure in the order Redis, SMTP, LDAP, or null. */
export async function checkServices(config: Config): Promise<StartupFailure | null> {
  const results = await Promise.all([
    config.redisUrl ? checkRedis(config.redisUrl) : null,
    config.smtpUrl ? checkSmtp(config.smtpUrl) : null,
    config.ldap ? checkLdap(config.ldap) : null,
  ]);
  return results.find((result) => result !== null) ?? null;
}
