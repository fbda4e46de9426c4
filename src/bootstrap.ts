import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Config } from './config';
import type { AppDeps } from './core/deps';
import { Realm } from './core/realm/model';
import { SYSTEM_REALM_STRING_ID } from './core/system-bots/notification-bot';
import { createUser } from './core/users/actions';
import { generatePassword } from './core/users/credentials';
import { User } from './core/users/model';
import { Role } from './core/users/roles';
import { ensureSystemGroups } from './core/groups/system-groups';

/** The organization's row, created on the first start. */
export async function ensureRealm(knex: Knex, config: Config): Promise<number> {
  const existing = await Realm.query(knex).whereNot('string_id', SYSTEM_REALM_STRING_ID).orderBy('id').first();
  if (existing) {
    await ensureSystemGroups(knex, existing.id);
    return existing.id;
  }
  return knex.transaction(async (trx) => {
    const created = await Realm.query(trx).insertAndFetch({ string_id: 'default', name: config.realmName, description: '' });
    await ensureSystemGroups(trx, created.id);
    return created.id;
  });
}

export interface OwnerCredentials {
  email: string;
  password: string;
  apiKey: string;
  userId: number;
  zuliprcPath: string | null;
}

/**
 * On an empty database, creates the owner (who may create users), and writes a zuliprc that Zulip
 * clients read directly. Returns null when the organization already has accounts.
 */
export async function ensureOwner(deps: AppDeps, zuliprcDir: string | null): Promise<OwnerCredentials | null> {
  const anyone = await User.query(deps.knex).where('realm_id', deps.realmId).first();
  if (anyone) return null;
  const password = deps.config.ownerPassword ?? generatePassword();
  const { user, apiKey } = await createUser(deps, null, {
    email: deps.config.ownerEmail,
    fullName: 'Organization Owner',
    password,
    role: Role.OWNER,
    canCreateUsers: true,
  });
  let zuliprcPath: string | null = null;
  if (zuliprcDir) {
    fs.mkdirSync(zuliprcDir, { recursive: true });
    zuliprcPath = path.join(zuliprcDir, 'zuliprc');
    const body = `[api]\nemail=${user.delivery_email}\nkey=${apiKey}\nsite=${deps.config.externalUrl}\n`;
    fs.writeFileSync(zuliprcPath, body, { mode: 0o600 });
  }
  return { email: user.delivery_email, password, apiKey, userId: user.id, zuliprcPath };
}
