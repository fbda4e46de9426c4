import { loadConfig } from '../../src/config';
import { Database, OpenPGlite, openDatabase } from '../../src/db/connect';
import { createUser } from '../../src/core/users/actions';
import { RoleValue } from '../../src/core/users/roles';
import { RunningServer, startServer } from '../../src/server';
import { pgliteTemplate } from './pglite-template';
import { freshPostgresDatabase } from './postgres';

/**
 * Starts the real server on an ephemeral port against a fresh database: in-memory PGlite, or a new
 * PostgreSQL database per server when TEST_DATABASE_URL is set (dropped again on close).
 */
export interface TestUser {
  id: number;
  email: string;
  apiKey: string;
  password: string;
  fullName: string;
  role: number;
}

export interface TestServer {
  url: string;
  server: RunningServer;
  owner: TestUser;
  close(): Promise<void>;
}

/**
 * As Zulip's test settings do, test servers start with rate limiting off: a test makes far more
 * requests than a client would. Tests of the limits pass PARLEY_RATE_LIMITING=true.
 */
export const TEST_ENV = { PARLEY_RATE_LIMITING: 'false' };

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const pg = adminUrl ? await freshPostgresDatabase(adminUrl, { migrated: true }) : null;
  const password = 'owner-password-123';
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PARLEY_OWNER_PASSWORD: password,
    PARLEY_REALM_NAME: 'Test Org',
    ...TEST_ENV,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
    ...env,
  });
  // On PGlite, the worker's shared instance put back to the migrated template, or (while another
  // server of this file holds it) a new instance from the template. The server leaves a database it
  // was given open.
  const database = pg ? undefined : await templateDatabase();
  const server = await startServer(config, { pgliteDir: null, zuliprcDir: null, database }).catch(async (error) => {
    await database?.close();
    await pg?.drop();
    throw error;
  });
  const owner = server.owner!;
  return {
    url: server.url,
    server,
    owner: { id: owner.userId, email: owner.email, apiKey: owner.apiKey, password, fullName: 'Organization Owner', role: 100 },
    close: async () => {
      await server.close();
      await database?.close();
      await pg?.drop();
    },
  };
}

interface SharedPglite {
  borrow(template: Blob): Promise<OpenPGlite | null>;
}

async function templateDatabase(): Promise<Database> {
  const template = await pgliteTemplate();
  // PARLEY_TEST_SHARED_PGLITE=false gives every server its own instance, as a check on the sharing.
  const shared = process.env.PARLEY_TEST_SHARED_PGLITE === 'false' ? undefined : (globalThis as { parleySharedPglite?: SharedPglite }).parleySharedPglite;
  const pglite = (await shared?.borrow(template)) ?? undefined;
  return openDatabase({ url: null, pgliteDir: null, ...(pglite ? { pglite } : { loadDataDir: template }) });
}

/** For beforeAll/afterAll hooks that start or stop a server: on a busy machine that takes a while. */
export const SERVER_HOOK_TIMEOUT = 120_000;

let counter = 0;

/** Creates an account directly through the action (as the operator would), with a known password. */
export async function makeUser(
  ts: TestServer,
  role: RoleValue = 400,
  overrides: { email?: string; fullName?: string; canCreateUsers?: boolean } = {},
): Promise<TestUser> {
  counter += 1;
  const label = { 100: 'owner', 200: 'admin', 300: 'moderator', 400: 'member', 600: 'guest' }[role];
  const email = overrides.email ?? `${label}${counter}@example.com`;
  const fullName = overrides.fullName ?? `Test ${label} ${counter}`;
  const password = `password-${counter}-xyz`;
  const { user, apiKey } = await createUser(ts.server.deps, null, {
    email,
    fullName,
    password,
    role,
    canCreateUsers: overrides.canCreateUsers,
  });
  return { id: user.id, email, apiKey, password, fullName, role };
}
