import type { Knex } from 'knex';
import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config';
import type { AppDeps } from '../core/deps';
import { exportOrganization } from '../core/exports/zulip-format/export';
import { importOrganization } from '../core/exports/zulip-format/import';
import { fileStore } from '../core/uploads/stores';
import { organizationDeps } from './organization';
import { sweepOrphanedFiles } from '../core/uploads/orphan-sweep';
import { progressFor } from './progress';
import { connectFeatures } from '../core/connect';
import { isRowId } from '../db/ids';
import { migrateLatest, migrateRollback } from '../db/migrate';
import { createUser, deactivateUser, issueApiKey, reactivateUser, regenerateApiKey, setCanCreateUsers, setPassword, updateUser } from '../core/users/actions';
import { generatePassword } from '../core/users/credentials';
import { reactivateRealm } from '../core/realm/activation';
import { User } from '../core/users/model';
import { ensureSystemBots } from '../core/system-bots/notification-bot';
import { Role, RoleValue } from '../core/users/roles';
import type { Database } from '../db/connect';
import { restoreBackup, writeBackup } from './backup';
import type { Progress } from './progress';
import { CommandError, Out, UsageError } from './types';
import { parseOutboxArgs, runOutbox } from './outbox';

/**
 * Operator commands. Each parses its arguments first (a mistake there is a usage error, before the
 * database is touched), then runs through the same actions as the API with actor null (the operator).
 */
export { CommandError, UsageError };
export type { Out };

/**
 * What a parsed command does: with the organization ready, with the bare database (migrations),
 * with the open database's files (backup), or with no server and no open database (restore).
 */
export type Runner =
  | { needs: 'organization'; run(deps: AppDeps, out: Out): Promise<void> }
  | { needs: 'database'; run(knex: Knex, out: Out, config: Config): Promise<void> }
  | { needs: 'snapshot'; run(db: Database, config: Config, out: Out, progress: Progress): Promise<void> }
  | { needs: 'stopped server'; run(config: Config, out: Out, progress: Progress): Promise<void> };

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export interface Command {
  name: string;
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  positionals: string[];
  /** Prefix for errors the actions raise, saying what could not be done. */
  failure: string;
  parse(args: Parsed): Runner;
}

export const ROLE_NAMES: Record<string, RoleValue> = {
  owner: Role.OWNER,
  admin: Role.ADMINISTRATOR,
  moderator: Role.MODERATOR,
  member: Role.MEMBER,
  guest: Role.GUEST,
};

const roleName = (role: number) => Object.entries(ROLE_NAMES).find(([, value]) => value === role)?.[0] ?? String(role);

function parseRole(raw: string): RoleValue {
  const role = ROLE_NAMES[raw.trim().toLowerCase()];
  if (role === undefined) throw new UsageError(`unknown role "${raw}" (use one of ${Object.keys(ROLE_NAMES).join(', ')})`);
  return role;
}

function required(values: Parsed['values'], name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

const describe = (user: User) => `${user.full_name} <${user.delivery_email}> (user ${user.id})`;

/** A user named by id or by email address. */
async function findUser(deps: AppDeps, ref: string): Promise<User> {
  const key = ref.trim();
  const query = User.query(deps.knex).where('realm_id', deps.realmId);
  if (/^\d+$/.test(key)) {
    const user = isRowId(Number(key)) ? await query.where('id', Number(key)).first() : undefined;
    if (!user) throw new CommandError(`No user with id ${key}`);
    return user;
  }
  const user = await query.whereRaw('lower(delivery_email) = lower(?)', [key]).first();
  if (!user) throw new CommandError(`No user with email "${key}"`);
  return user;
}

export const COMMANDS: Command[] = [
  {
    name: 'create-user',
    usage: 'create-user --email EMAIL --name NAME [--role ROLE] [--password PASSWORD]',
    summary: 'Create an account (role member unless given) and print its API key. Without --password one is generated and printed.',
    options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, password: { type: 'string' } },
    positionals: [],
    failure: 'could not create the user',
    parse({ values }) {
      const email = required(values, 'email');
      const fullName = required(values, 'name');
      const role = typeof values.role === 'string' ? parseRole(values.role) : Role.MEMBER;
      const given = typeof values.password === 'string' ? values.password : null;
      return {
        needs: 'organization',
        async run(deps, out) {
          const password = given ?? generatePassword();
          const { user, apiKey } = await createUser(deps, null, { email, fullName, password, role });
          out(`Created ${describe(user)} with the role ${roleName(user.role)}.`);
          if (given === null) out(`Password: ${password}`);
          out(`API key: ${apiKey}`);
        },
      };
    },
  },
  {
    name: 'set-role',
    usage: 'set-role USER ROLE',
    summary: "Change a user's role.",
    options: {},
    positionals: ['USER', 'ROLE'],
    failure: 'could not change the role',
    parse({ positionals: [ref, rawRole] }) {
      const role = parseRole(rawRole);
      return {
        needs: 'organization',
        async run(deps, out) {
          const user = await findUser(deps, ref);
          if (user.role === role) {
            out(`${describe(user)} already has the role ${roleName(role)}.`);
            return;
          }
          await updateUser(deps, null, user.id, { role });
          out(`Changed the role of ${describe(user)} from ${roleName(user.role)} to ${roleName(role)}.`);
        },
      };
    },
  },
  {
    name: 'grant-create-users',
    usage: 'grant-create-users USER [--revoke]',
    summary: 'Allow an administrator to create users through the API (POST /users); --revoke takes it back.',
    options: { revoke: { type: 'boolean' } },
    positionals: ['USER'],
    failure: 'could not change the permission',
    parse({ values, positionals: [ref] }) {
      const allow = values.revoke !== true;
      return {
        needs: 'organization',
        async run(deps, out) {
          const user = await findUser(deps, ref);
          await setCanCreateUsers(deps, user.id, allow);
          out(`${describe(user)} ${allow ? 'may now' : 'may no longer'} create users.`);
          if (allow && user.role > Role.ADMINISTRATOR) {
            out(`Note: the permission takes effect only while the user is an administrator or owner (now ${roleName(user.role)}).`);
          }
        },
      };
    },
  },
  {
    name: 'api-key',
    usage: 'api-key USER [--regenerate]',
    summary: "Print a newly issued API key for a user (their other keys keep working); --regenerate replaces all of the user's keys with it.",
    options: { regenerate: { type: 'boolean' } },
    positionals: ['USER'],
    failure: 'could not issue an API key',
    parse({ values, positionals: [ref] }) {
      const replace = values.regenerate === true;
      return {
        needs: 'organization',
        async run(deps, out) {
          const user = await findUser(deps, ref);
          if (!user.is_active) throw new CommandError(`${describe(user)} is deactivated; reactivate the account first.`);
          const apiKey = replace ? await regenerateApiKey(deps, user.id) : await issueApiKey(deps, user.id);
          out(replace ? `Replaced every API key of ${describe(user)}.` : `Issued an API key for ${describe(user)}.`);
          out(`API key: ${apiKey}`);
        },
      };
    },
  },
  {
    name: 'deactivate',
    usage: 'deactivate USER',
    summary: 'Deactivate an account: it can no longer log in or use its API keys.',
    options: {},
    positionals: ['USER'],
    failure: 'could not deactivate the user',
    parse({ positionals: [ref] }) {
      return {
        needs: 'organization',
        async run(deps, out) {
          const user = await findUser(deps, ref);
          if (!user.is_active) throw new CommandError(`${describe(user)} is already deactivated.`);
          await deactivateUser(deps, null, user.id);
          out(`Deactivated ${describe(user)}.`);
        },
      };
    },
  },
  {
    name: 'reactivate',
    usage: 'reactivate USER',
    summary: 'Reactivate a deactivated account; its earlier API keys work again.',
    options: {},
    positionals: ['USER'],
    failure: 'could not reactivate the user',
    parse({ positionals: [ref] }) {
      return {
        needs: 'organization',
        async run(deps, out) {
          const user = await findUser(deps, ref);
          if (user.is_active) {
            out(`${describe(user)} is already active.`);
            return;
          }
          await reactivateUser(deps, null, user.id);
          out(`Reactivated ${describe(user)}.`);
        },
      };
    },
  },
  {
    name: 'list-users',
    usage: 'list-users [--all]',
    summary: 'List the active accounts (with --all also deactivated ones and bots): id, role, email, name.',
    options: { all: { type: 'boolean' } },
    positionals: [],
    failure: 'could not list the users',
    parse({ values }) {
      const all = values.all === true;
      return {
        needs: 'organization',
        async run(deps, out) {
          const query = User.query(deps.knex).where('realm_id', deps.realmId).orderBy('id');
          if (!all) query.where('is_active', true).where('is_bot', false);
          const users = await query;
          out(['id', 'role', 'active', 'email', 'name'].join('\t'));
          for (const user of users) out([user.id, roleName(user.role), user.is_active ? 'yes' : 'no', user.delivery_email, user.full_name].join('\t'));
        },
      };
    },
  },
  {
    name: 'reset-password',
    usage: 'reset-password USER [--password PASSWORD]',
    summary: "Set a user's password: the one given, or a new one that is printed. API keys keep working.",
    options: { password: { type: 'string' } },
    positionals: ['USER'],
    failure: 'could not set the password',
    parse({ values, positionals: [ref] }) {
      const given = typeof values.password === 'string' ? values.password : null;
      return {
        needs: 'organization',
        async run(deps, out) {
          const user = await findUser(deps, ref);
          const password = given ?? generatePassword();
          await setPassword(deps, user.id, password);
          out(`Set the password of ${describe(user)}.`);
          if (given === null) out(`Password: ${password}`);
        },
      };
    },
  },
  {
    name: 'backup',
    usage: 'backup FILE',
    summary: 'Write a consistent snapshot of the database (and DATA_DIR/uploads) to FILE, while the server runs or not.',
    options: {},
    positionals: ['FILE'],
    failure: 'backup failed',
    parse({ positionals: [file] }) {
      return { needs: 'snapshot', run: (db, config, out, progress) => writeBackup(db, config, file, out, progress) };
    },
  },
  {
    name: 'restore',
    usage: 'restore FILE',
    summary: 'Restore a backup into an empty DATA_DIR (embedded database) or an empty PostgreSQL database; the server must be stopped.',
    options: {},
    positionals: ['FILE'],
    failure: 'restore failed',
    parse({ positionals: [file] }) {
      return { needs: 'stopped server', run: (config, out, progress) => restoreBackup(config, file, out, progress) };
    },
  },
  {
    name: 'reactivate-organization',
    usage: 'reactivate-organization',
    summary: 'Reactivate the organization after an owner deactivated it; its API keys work again.',
    options: {},
    positionals: [],
    failure: 'could not reactivate the organization',
    parse() {
      return {
        needs: 'organization',
        async run(deps, out) {
          out((await reactivateRealm(deps)) ? 'Reactivated the organization.' : 'The organization is already active.');
        },
      };
    },
  },
  {
    name: 'migrate',
    usage: 'migrate [--rollback]',
    summary: 'Apply pending database migrations; --rollback undoes the most recent batch.',
    options: { rollback: { type: 'boolean' } },
    positionals: [],
    failure: 'migration failed',
    parse({ values }) {
      const rollback = values.rollback === true;
      return {
        needs: 'database',
        async run(knex, out) {
          if (rollback) {
            const undone = await migrateRollback(knex);
            out(undone.length === 0 ? 'No migrations to roll back.' : `Rolled back ${undone.length} migration(s): ${undone.join(', ')}`);
            return;
          }
          const applied = await migrateLatest(knex);
          out(applied.length === 0 ? 'The database schema is up to date.' : `Applied ${applied.length} migration(s): ${applied.join(', ')}`);
        },
      };
    },
  },
  {
    name: 'export',
    usage: 'export FILE',
    summary:
      "Write the organization in Zulip's export format (as manage.py export writes it): a directory, or a .tar.gz when FILE ends so. " +
      'Passwords (Argon2) carry over; API keys are kept only as hashes, so they carry over to Parley but not to Zulip.',
    options: {},
    positionals: ['FILE'],
    failure: 'could not export the organization',
    parse({ positionals: [file] }) {
      return {
        needs: 'database',
        async run(knex, out, config) {
          await migrateLatest(knex);
          const summary = await exportOrganization(knex, file, progressFor(process.stderr), fileStore(config));
          out(
            `Exported ${summary.users} users, ${summary.channels} channels and ${summary.messages} messages (${summary.files} message files), ` +
              `${summary.attachments} uploaded files, ${summary.avatars} avatars and ${summary.emoji} custom emoji to ${file}.`,
          );
        },
      };
    },
  },
  {
    name: 'import',
    usage: 'import FILE',
    summary: "Load an export in Zulip's format (a directory or .tar.gz, from Zulip or Parley) into an empty database.",
    options: {},
    positionals: ['FILE'],
    failure: 'could not import the organization',
    parse({ positionals: [file] }) {
      return {
        needs: 'database',
        async run(knex, out, config) {
          connectFeatures();
          await migrateLatest(knex);
          const summary = await importOrganization(knex, file, (realmId) => organizationDeps(knex, config, realmId), progressFor(process.stderr));
          await ensureSystemBots(knex);
          out(
            `Imported ${summary.users} users, ${summary.channels} channels and ${summary.messages} messages; ${summary.keysCarried} users kept their API keys.`,
          );
          out(`Also ${summary.groups} user groups, ${summary.attachments} uploaded files, ${summary.avatars} avatars and ${summary.emoji} custom emoji.`);
        },
      };
    },
  },
  {
    name: 'sweep-uploads',
    usage: 'sweep-uploads [--grace-seconds N]',
    summary:
      'Remove stored files (uploads, thumbnails, avatars, organization images) that no row names, older than the grace period (default PARLEY_UPLOAD_SWEEP_GRACE_SECONDS; a shorter one may take the file of an upload in progress); prints each one removed.',
    options: { 'grace-seconds': { type: 'string' } },
    positionals: [],
    failure: 'could not sweep the stored files',
    parse({ values }) {
      const raw = values['grace-seconds'];
      const grace = typeof raw === 'string' ? Number(raw) : null;
      if (grace !== null && !(Number.isSafeInteger(grace) && grace >= 0)) throw new UsageError('--grace-seconds must be a whole number of seconds');
      return {
        needs: 'organization',
        async run(deps, out) {
          const graceSeconds = grace ?? deps.config.uploadSweepGraceSeconds;
          const { examined, removed } = await sweepOrphanedFiles(deps, { graceSeconds });
          for (const key of removed) out(`removed ${key}`);
          out(`Removed ${removed.length} orphaned file(s) of ${examined} stored more than ${graceSeconds} seconds ago.`);
        },
      };
    },
  },
  {
    name: 'outbox',
    usage: 'outbox [--retry ID | --retry-all-dead]',
    summary: 'Outgoing webhooks, emails and pushes waiting, sent and dead (given up), and the dead ones with their last error; --retry sends dead ones again.',
    options: { retry: { type: 'string' }, 'retry-all-dead': { type: 'boolean' } },
    positionals: [],
    failure: 'could not read or change the outbox',
    parse({ values }) {
      const action = parseOutboxArgs(values);
      return { needs: 'organization', run: (deps, out) => runOutbox(deps, action, out) };
    },
  },
];
