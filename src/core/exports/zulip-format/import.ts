import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import type { Knex } from 'knex';
import type { AppDeps } from '../../deps';
import { CHANNEL_PERMISSION_SETTING_NAMES, CHANNEL_PERMISSION_SETTINGS, TOPICS_POLICIES } from '../../channels/constants';
import { cachedSystemGroupIds } from '../../channels/group-settings';
import { channelRecipientId, directRecipientId, dmKey } from '../../messages/model';
import { ensureSystemBots, SYSTEM_REALM_STRING_ID } from '../../system-bots/notification-bot';
import { ensureSystemGroups } from '../../groups/system-groups';
import { createUser } from '../../users/actions';
import { API_KEY_RE, hashApiKey } from '../../users/credentials';
import { Role } from '../../users/roles';
import { fileStore } from '../../uploads/stores';
import type { StepProgress as Progress } from './layout';
import { importFiles } from './files';
import { GroupImport } from './groups';
import { EARLY_TABLES, IdMaps, importRecords } from './records';
import { importRealmSettings, importRealmUserDefaults, importUserSettings } from './settings';
import {
  ATTACHMENT_FILE,
  fromDjangoHash,
  fromSeconds,
  MESSAGE_FILE_RE,
  PARLEY_FILE,
  REALM_FILE,
  RECIPIENT_HUDDLE,
  RECIPIENT_PERSONAL,
  RECIPIENT_STREAM,
  relinkUploads,
  remapRenderedIds,
  Row,
  Tables,
} from './layout';

/** Why an import was refused (reported to the operator as it is). */
export class ImportError extends Error {}

export interface ImportSummary {
  users: number;
  channels: number;
  messages: number;
  keysCarried: number;
  groups: number;
  attachments: number;
  avatars: number;
  emoji: number;
}

/** The export's directory: `source` itself, or the one directory inside a .tar.gz. */
async function exportDirectory(source: string): Promise<{ dir: string; cleanup: () => void }> {
  if (!fs.existsSync(source)) throw new ImportError(`${source} does not exist`);
  if (fs.statSync(source).isDirectory()) return { dir: source, cleanup: () => undefined };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-import-'));
  await tar.x({ file: source, cwd: tmp });
  const cleanup = () => fs.rmSync(tmp, { recursive: true, force: true });
  const found = fs.existsSync(path.join(tmp, REALM_FILE))
    ? tmp
    : fs
        .readdirSync(tmp)
        .map((d) => path.join(tmp, d))
        .find((d) => fs.existsSync(path.join(d, REALM_FILE)));
  if (!found) {
    cleanup();
    throw new ImportError(`${source} holds no ${REALM_FILE}`);
  }
  return { dir: found, cleanup };
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const list = (tables: Tables, name: string): Row[] => (Array.isArray(tables[name]) ? tables[name] : []);

/** Whether the database holds an organization already (anything beyond the server's own bots). */
export async function holdsOrganization(knex: Knex): Promise<boolean> {
  const realm = await knex('realms').whereNot('string_id', SYSTEM_REALM_STRING_ID).first('id');
  return realm !== undefined;
}

/**
 * Loads an export in Zulip's layout into an empty database: the organization, its users (with
 * their Argon2 passwords and API keys), channels, subscriptions, messages with each user's flags,
 * and reactions. `makeDeps` prepares the actions once the organization's row exists.
 */
export async function importOrganization(knex: Knex, source: string, makeDeps: (realmId: number) => AppDeps, progress: Progress): Promise<ImportSummary> {
  if (await holdsOrganization(knex)) throw new ImportError('the database already holds an organization: import into an empty database');
  const { dir, cleanup } = await exportDirectory(source);
  try {
    const tables: Tables = readJson(path.join(dir, REALM_FILE));
    const [zRealm] = list(tables, 'zerver_realm');
    if (!zRealm) throw new ImportError(`${REALM_FILE} has no zerver_realm`);
    const extras = fs.existsSync(path.join(dir, PARLEY_FILE)) ? readJson(path.join(dir, PARLEY_FILE)) : {};
    const realmId = await createRealm(knex, zRealm);
    await ensureSystemGroups(knex, realmId);
    await importRealmUserDefaults(knex, realmId, tables.zerver_realmuserdefault);
    const deps = makeDeps(realmId);
    const relink = (text: string) => relinkUploads(text, Number(zRealm.id), realmId);

    // Users, through the action that creates accounts (settings, groups), then their imported state.
    const zUsers = list(tables, 'zerver_userprofile').filter((u) => u.realm === undefined || u.realm === zRealm.id);
    const userIds = new Map<number, number>();
    let keysCarried = 0;
    progress.start('Users', zUsers.length);
    for (const zUser of zUsers) {
      const email = String(zUser.delivery_email ?? zUser.email);
      const role = Object.values(Role).includes(zUser.role as never) ? (zUser.role as number) : Role.MEMBER;
      const { user } = await createUser(deps, null, { email, fullName: String(zUser.full_name), password: null, role: role as never });
      userIds.set(zUser.id as number, user.id);
      await knex('users')
        .where({ id: user.id })
        .update({
          password_hash: fromDjangoHash(zUser.password),
          is_active: zUser.is_active !== false,
          is_bot: zUser.is_bot === true,
          bot_type: zUser.bot_type ?? null,
          timezone: typeof zUser.timezone === 'string' ? zUser.timezone : '',
          date_joined: fromSeconds(zUser.date_joined) ?? new Date(),
          // Uploaded avatars are set once their files are in (see importFiles).
          avatar_source: zUser.avatar_source === 'U' ? 'G' : (zUser.avatar_source ?? 'G'),
          ...(typeof zUser.can_create_users === 'boolean' ? { can_create_users: zUser.can_create_users } : {}),
          ...(typeof zUser.default_all_public_streams === 'boolean' ? { default_all_public_streams: zUser.default_all_public_streams } : {}),
        });
      await importUserSettings(knex, realmId, user.id, zUser);
      // The account's keys: the hashes a Parley export carries, or the key a Zulip export holds.
      const hashes: string[] =
        extras.api_key_hashes?.[String(zUser.id)] ?? (typeof zUser.api_key === 'string' && API_KEY_RE.test(zUser.api_key) ? [hashApiKey(zUser.api_key)] : []);
      if (hashes.length > 0) {
        await knex('api_keys').where({ user_id: user.id }).delete();
        await knex('api_keys').insert(hashes.map((key_hash) => ({ realm_id: realmId, user_id: user.id, key_hash })));
        keysCarried += 1;
      }
      progress.advance();
    }
    progress.stop();
    for (const zUser of zUsers) {
      if (typeof zUser.bot_owner === 'number' && userIds.has(zUser.bot_owner)) {
        await knex('users')
          .where({ id: userIds.get(zUser.id as number) })
          .update({ bot_owner_id: userIds.get(zUser.bot_owner) });
      }
    }

    const importedUsers = userIds.size;
    // Messages from the server's own bots keep their sender.
    await ensureSystemBots(knex);
    for (const bot of list(tables, 'zerver_userprofile_crossrealm')) {
      const row = await knex('users')
        .where({ delivery_email: String(bot.email), is_system_bot: true })
        .first('id');
      if (row) userIds.set(bot.id as number, row.id);
    }
    const groups = new GroupImport(tables, userIds);
    const groupsCreated = await groups.load(knex, realmId);
    await importRealmSettings(knex, realmId, zRealm, groups);
    const ids: IdMaps = { user: userIds, stream: new Map(), field: new Map(), folder: new Map(), message: new Map() };
    await importRecords(knex, realmId, tables, ids, EARLY_TABLES);
    const streamIds = await importStreams(knex, realmId, list(tables, 'zerver_stream'), userIds, groups, ids.folder);
    ids.stream = streamIds;
    const rerender = (html: string) => remapRenderedIds(relink(html), { user: userIds, stream: streamIds, group: groups.ids });
    for (const zUser of zUsers) {
      const patch: Row = {};
      for (const [field, column] of [
        ['default_sending_stream', 'default_sending_stream_id'],
        ['default_events_register_stream', 'default_events_register_stream_id'],
      ]) {
        if (typeof zUser[field] === 'number' && streamIds.has(zUser[field] as number)) patch[column] = streamIds.get(zUser[field] as number);
      }
      if (Object.keys(patch).length > 0)
        await knex('users')
          .where({ id: userIds.get(zUser.id as number) })
          .update(patch);
    }
    const recipients = new Map(list(tables, 'zerver_recipient').map((r) => [r.id as number, r]));
    // Group conversations' members are the subscribers of their recipient.
    const huddleMembers = new Map<number, number[]>();
    const subscriptionRows: Row[] = [];
    for (const sub of list(tables, 'zerver_subscription')) {
      const recipient = recipients.get(sub.recipient as number);
      const userId = userIds.get(sub.user_profile as number);
      if (!recipient || userId === undefined) continue;
      if (recipient.type === RECIPIENT_HUDDLE) {
        const members = huddleMembers.get(recipient.id as number) ?? [];
        members.push(userId);
        huddleMembers.set(recipient.id as number, members);
      } else if (recipient.type === RECIPIENT_STREAM && streamIds.has(recipient.type_id as number)) {
        subscriptionRows.push({
          realm_id: realmId,
          user_id: userId,
          stream_id: streamIds.get(recipient.type_id as number),
          active: sub.active !== false,
          color: typeof sub.color === 'string' ? sub.color : '#c2c2c2',
          is_muted: sub.is_muted === true,
          pin_to_top: sub.pin_to_top === true,
          desktop_notifications: sub.desktop_notifications ?? null,
          audible_notifications: sub.audible_notifications ?? null,
          push_notifications: sub.push_notifications ?? null,
          email_notifications: sub.email_notifications ?? null,
          wildcard_mentions_notify: sub.wildcard_mentions_notify ?? null,
        });
      }
    }
    for (let i = 0; i < subscriptionRows.length; i += 500) {
      await knex('subscriptions')
        .insert(subscriptionRows.slice(i, i + 500))
        .onConflict(['user_id', 'stream_id'])
        .ignore();
    }

    const clients = new Map(list(tables, 'zerver_client').map((c) => [c.id as number, String(c.name)]));
    const messageIds = new Map<number, number>();
    const files = fs
      .readdirSync(dir)
      .filter((f) => MESSAGE_FILE_RE.test(f))
      .sort();
    const batches = files.map((f) => readJson(path.join(dir, f)) as Tables);
    const total = batches.reduce((n, b) => n + list(b, 'zerver_message').length, 0);
    progress.start('Messages', total);
    for (const batch of batches) {
      const messages = list(batch, 'zerver_message').sort((a, b) => (a.id as number) - (b.id as number));
      for (const m of messages) {
        const senderId = userIds.get(m.sender as number);
        const recipient = recipients.get(m.recipient as number);
        if (senderId === undefined || !recipient) continue;
        const row: Row = {
          realm_id: realmId,
          sender_id: senderId,
          topic: String(m.subject ?? m.topic ?? ''),
          content: relink(String(m.content)),
          rendered_content: rerender(String(m.rendered_content ?? '')),
          sending_client: (clients.get(m.sending_client as number) ?? 'Unspecified').slice(0, 30),
          date_sent: fromSeconds(m.date_sent) ?? new Date(),
          last_edit_time: fromSeconds(m.last_edit_time),
          has_link: m.has_link === true,
          has_image: m.has_image === true,
          has_attachment: m.has_attachment === true,
        };
        if (recipient.type === RECIPIENT_STREAM) {
          const streamId = streamIds.get(recipient.type_id as number);
          if (streamId === undefined) continue;
          Object.assign(row, { stream_id: streamId, dm_key: null, recipient_id: await channelRecipientId(knex, realmId, streamId) });
        } else {
          const participants =
            recipient.type === RECIPIENT_PERSONAL
              ? [senderId, userIds.get(recipient.type_id as number)].filter((id): id is number => id !== undefined)
              : [...(huddleMembers.get(recipient.id as number) ?? []), senderId];
          Object.assign(row, { stream_id: null, dm_key: dmKey(participants), recipient_id: await directRecipientId(knex, realmId, participants) });
        }
        const [inserted] = await knex('messages').insert(row).returning('id');
        const messageId = Number(typeof inserted === 'object' ? inserted.id : inserted);
        messageIds.set(m.id as number, messageId);
        const edits = editRows(m.edit_history, messageId, realmId, userIds, streamIds, relink, rerender);
        if (edits.length > 0) await knex('message_edits').insert(edits);
      }
      const userMessages = list(batch, 'zerver_usermessage')
        .map((um) => ({
          user_id: userIds.get(um.user_profile as number),
          message_id: messageIds.get(um.message as number),
          realm_id: realmId,
          flags: Number(um.flags_mask ?? 0),
        }))
        .filter((um) => um.user_id !== undefined && um.message_id !== undefined);
      for (let i = 0; i < userMessages.length; i += 1000) {
        await knex('user_messages')
          .insert(userMessages.slice(i, i + 1000))
          .onConflict(['user_id', 'message_id'])
          .ignore();
      }
      // Zulip's exports may carry a batch's submessages beside its messages.
      tables.zerver_submessage = [...list(tables, 'zerver_submessage'), ...list(batch, 'zerver_submessage')];
      progress.advance(messages.length);
    }
    progress.stop();

    const reactions = list(tables, 'zerver_reaction')
      .map((r) => ({
        realm_id: realmId,
        user_id: userIds.get(r.user_profile as number),
        message_id: messageIds.get(r.message as number),
        emoji_name: String(r.emoji_name),
        emoji_code: String(r.emoji_code),
        reaction_type: String(r.reaction_type),
      }))
      .filter((r) => r.user_id !== undefined && r.message_id !== undefined);
    if (reactions.length > 0) await knex('reactions').insert(reactions).onConflict(['message_id', 'user_id', 'emoji_code', 'reaction_type']).ignore();
    ids.message = messageIds;
    await importRecords(knex, realmId, tables, ids);
    const attachmentTables: Tables = fs.existsSync(path.join(dir, ATTACHMENT_FILE)) ? readJson(path.join(dir, ATTACHMENT_FILE)) : {};
    const fileCounts = await importFiles(
      { knex, store: fileStore(deps.config), dir, realmId, exportRealmId: Number(zRealm.id), userIds, messageIds, zUsers },
      attachmentTables,
      tables,
      zRealm,
    );
    // Each channel's first message, as sending would have recorded it.
    await knex.raw('UPDATE streams SET first_message_id = (SELECT min(id) FROM messages WHERE messages.stream_id = streams.id) WHERE realm_id = ?', [realmId]);
    return { users: importedUsers, channels: streamIds.size, messages: messageIds.size, keysCarried, groups: groupsCreated, ...fileCounts };
  } finally {
    cleanup();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function createRealm(knex: Knex, zRealm: Row): Promise<number> {
  const [row] = await knex('realms')
    .insert({
      string_id: String(zRealm.string_id || 'default').slice(0, 40),
      name: String(zRealm.name ?? 'Parley').slice(0, 40),
      description: String(zRealm.description ?? ''),
      date_created: fromSeconds(zRealm.date_created) ?? new Date(),
      // The organization keeps its identity, and so its generated profile pictures.
      ...(typeof zRealm.uuid === 'string' && UUID.test(zRealm.uuid) ? { uuid: zRealm.uuid } : {}),
    })
    .returning('id');
  return Number(typeof row === 'object' ? row.id : row);
}

/** Channels, with their permission settings where the export names known groups (else the defaults). */
async function importStreams(
  knex: Knex,
  realmId: number,
  zStreams: Row[],
  userIds: Map<number, number>,
  groups: GroupImport,
  folderIds: Map<number, number>,
): Promise<Map<number, number>> {
  const sys = await cachedSystemGroupIds(knex, knex, realmId);
  const ids = new Map<number, number>();
  for (const s of zStreams) {
    const creator = typeof s.creator === 'number' ? (userIds.get(s.creator) ?? null) : null;
    const row: Row = {
      realm_id: realmId,
      name: String(s.name),
      description: String(s.description ?? ''),
      rendered_description: String(s.rendered_description ?? ''),
      invite_only: s.invite_only === true,
      is_web_public: s.is_web_public === true,
      history_public_to_subscribers: s.history_public_to_subscribers !== false,
      message_retention_days: typeof s.message_retention_days === 'number' ? s.message_retention_days : null,
      creator_id: creator,
      date_created: fromSeconds(s.date_created) ?? new Date(),
      deactivated: s.deactivated === true,
      is_recently_active: s.is_recently_active !== false,
      folder_id: typeof s.folder === 'number' ? (folderIds.get(s.folder) ?? null) : null,
      ...(TOPICS_POLICIES.includes(s.topics_policy as never) ? { topics_policy: s.topics_policy } : {}),
    };
    for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
      const fallback = CHANNEL_PERMISSION_SETTINGS[setting].defaultGroup;
      row[setting] = JSON.stringify(
        groups.valueOf(s[setting]) ??
          (fallback === 'channel_creator' ? { direct_members: creator === null ? [] : [creator], direct_subgroups: [] } : sys[fallback]),
      );
    }
    const [inserted] = await knex('streams').insert(row).returning('id');
    ids.set(s.id as number, Number(typeof inserted === 'object' ? inserted.id : inserted));
  }
  return ids;
}

/** message_edits rows from Zulip's edit_history (a JSON list, newest first). */
function editRows(
  history: unknown,
  messageId: number,
  realmId: number,
  userIds: Map<number, number>,
  streamIds: Map<number, number>,
  relink: (text: string) => string,
  rerender: (html: string) => string,
): Row[] {
  let entries: Row[];
  try {
    entries = typeof history === 'string' ? JSON.parse(history) : Array.isArray(history) ? history : [];
  } catch {
    return [];
  }
  if (!Array.isArray(entries)) return [];
  const stream = (id: unknown) => (typeof id === 'number' ? (streamIds.get(id) ?? null) : null);
  return entries
    .slice()
    .reverse()
    .map((e) => ({
      realm_id: realmId,
      message_id: messageId,
      user_id: typeof e.user_id === 'number' ? (userIds.get(e.user_id) ?? null) : null,
      edit_time: fromSeconds(e.timestamp) ?? new Date(),
      prev_content: typeof e.prev_content === 'string' ? relink(e.prev_content) : null,
      prev_rendered_content: typeof e.prev_rendered_content === 'string' ? rerender(e.prev_rendered_content) : null,
      prev_topic: typeof e.prev_topic === 'string' ? e.prev_topic : null,
      topic: typeof e.prev_topic === 'string' ? String(e.topic ?? '') : null,
      prev_stream_id: stream(e.prev_stream),
      stream_id: stream(e.stream),
    }));
}
