import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import * as tar from 'tar';
import { SYSTEM_REALM_STRING_ID } from '../../system-bots/notification-bot';
import { generateApiKey } from '../../users/credentials';
import { CHANNEL_PERMISSION_SETTING_NAMES } from '../../channels/constants';
import type { GroupSettingValue } from '../../groups/setting-values';
import type { FileStore } from '../../uploads/storage';
import type { StepProgress as Progress } from './layout';
import { exportFiles } from './files';
import { GroupExport } from './groups';
import { exportRecords } from './records';
import { exportRealmSettings, exportRealmUserDefaults, exportUserSettings } from './settings';
import {
  ATTACHMENT_FILE,
  messageFileName,
  MESSAGES_PER_FILE,
  PARLEY_FILE,
  REALM_FILE,
  RECIPIENT_HUDDLE,
  RECIPIENT_PERSONAL,
  RECIPIENT_STREAM,
  Row,
  Tables,
  toDjangoHash,
  toSeconds,
} from './layout';

export interface ExportSummary {
  users: number;
  channels: number;
  messages: number;
  files: number;
  attachments: number;
  avatars: number;
  emoji: number;
}

const writeJson = (file: string, data: unknown) => fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);

/**
 * What a data export holds of private data. A full export holds everything. Otherwise only
 * messages in public channels and those a consenting user received, and of the users' own data
 * (message flags, muted topics and users, alert words, status, snippets, views) only the
 * consenting users' (Zulip's public export consents nobody).
 */
export interface ExportScope {
  consentingUserIds: number[] | null;
  /**
   * Whether password hashes and API key hashes go along (the operator's exports, for moving a
   * server); exports made through the API leave them out, as Zulip's do.
   */
  credentials: boolean;
}
export const FULL_EXPORT: ExportScope = { consentingUserIds: null, credentials: true };

const parseJson = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

/**
 * Writes the organization in Zulip's export layout: a directory, or a .tar.gz of one when `target`
 * ends so. Messages are read and written a file at a time. `store` holds the uploaded files (none
 * are written without it).
 */
export async function exportOrganization(
  knex: Knex,
  target: string,
  progress: Progress,
  store: FileStore | null = null,
  scope: ExportScope = FULL_EXPORT,
): Promise<ExportSummary> {
  const realm = await knex('realms').whereNot('string_id', SYSTEM_REALM_STRING_ID).orderBy('id').first();
  if (!realm) throw new Error('the database holds no organization');
  const archive = target.endsWith('.tar.gz') || target.endsWith('.tgz');
  const dir = archive ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-export-')), path.basename(target).replace(/\.(tar\.gz|tgz)$/, '')) : target;
  if (!archive && fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new Error(`${dir} exists and is not empty`);
  fs.mkdirSync(dir, { recursive: true });

  const users: Row[] = await knex('users').where('realm_id', realm.id).orderBy('id');
  const streams: Row[] = await knex('streams').where('realm_id', realm.id).orderBy('id');
  const dmRecipientQuery = knex('message_recipients').where('realm_id', realm.id).whereNotNull('dm_key');
  // A limited export names only the conversations it holds messages of.
  if (scope.consentingUserIds !== null)
    dmRecipientQuery.whereIn(
      'id',
      knex('user_messages as um').join('messages as m', 'm.id', 'um.message_id').whereIn('um.user_id', scope.consentingUserIds).select('m.recipient_id'),
    );
  const dmRecipients: Row[] = await dmRecipientQuery.orderBy('id');
  const clients: string[] = (await knex('messages').where('realm_id', realm.id).distinct('sending_client')).map(
    (r: { sending_client: string }) => r.sending_client,
  );
  const clientIds = new Map(clients.map((name, i) => [name, i + 1]));

  // Recipient ids: one per user (their direct messages), channel and group conversation.
  let nextRecipient = 1;
  const personalRecipient = new Map<number, number>();
  const streamRecipient = new Map<number, number>();
  const dmRecipient = new Map<string, { recipient: number; participants: number[] }>();
  const recipients: Row[] = [];
  const huddles: Row[] = [];
  for (const user of users) {
    personalRecipient.set(user.id as number, nextRecipient);
    recipients.push({ id: nextRecipient++, type: RECIPIENT_PERSONAL, type_id: user.id });
  }
  for (const stream of streams) {
    streamRecipient.set(stream.id as number, nextRecipient);
    recipients.push({ id: nextRecipient++, type: RECIPIENT_STREAM, type_id: stream.id });
  }
  const subscriptions: Row[] = [];
  let nextSubscription = 1;
  for (const row of dmRecipients) {
    const participants = String(row.dm_key).split(',').map(Number);
    if (participants.length <= 2) {
      // One-to-one (or to oneself): Zulip addresses it to the other user's personal recipient.
      dmRecipient.set(String(row.dm_key), { recipient: 0, participants });
      continue;
    }
    const id = huddles.length + 1;
    dmRecipient.set(String(row.dm_key), { recipient: nextRecipient, participants });
    huddles.push({
      id,
      huddle_hash: crypto.createHash('sha1').update(String(row.dm_key)).digest('hex'),
      group_size: participants.length,
      recipient: nextRecipient,
    });
    recipients.push({ id: nextRecipient, type: RECIPIENT_HUDDLE, type_id: id });
    for (const userId of participants)
      subscriptions.push({ id: nextSubscription++, user_profile: userId, recipient: nextRecipient, active: true, is_user_active: true });
    nextRecipient += 1;
  }
  for (const user of users) {
    subscriptions.push({
      id: nextSubscription++,
      user_profile: user.id,
      recipient: personalRecipient.get(user.id as number),
      active: true,
      is_user_active: user.is_active,
    });
  }
  for (const sub of await knex('subscriptions').where('realm_id', realm.id).orderBy('id')) {
    subscriptions.push({
      id: nextSubscription++,
      user_profile: sub.user_id,
      recipient: streamRecipient.get(sub.stream_id),
      active: sub.active,
      is_muted: sub.is_muted,
      color: sub.color,
      pin_to_top: sub.pin_to_top,
      desktop_notifications: sub.desktop_notifications,
      audible_notifications: sub.audible_notifications,
      push_notifications: sub.push_notifications,
      email_notifications: sub.email_notifications,
      wildcard_mentions_notify: sub.wildcard_mentions_notify,
      is_user_active: users.find((u) => u.id === sub.user_id)?.is_active ?? true,
    });
  }

  const consenting = scope.consentingUserIds;
  const publicStreamIds = streams.filter((s) => !s.invite_only).map((s) => s.id as number);
  const exported = (query: Knex.QueryBuilder) =>
    consenting === null
      ? query
      : query.where((q) => q.whereIn('stream_id', publicStreamIds).orWhereIn('id', knex('user_messages').select('message_id').whereIn('user_id', consenting)));
  const messageCount = Number((await exported(knex('messages').where('realm_id', realm.id)).count({ n: '*' }))[0].n);
  progress.start('Messages', messageCount);
  let files = 0;
  let lastId = 0;
  let nextUserMessage = 0;
  for (;;) {
    const messages: Row[] = await exported(knex('messages').where('realm_id', realm.id).where('id', '>', lastId))
      .orderBy('id')
      .limit(MESSAGES_PER_FILE);
    if (messages.length === 0) break;
    lastId = messages[messages.length - 1].id as number;
    const ids = messages.map((m) => m.id as number);
    const userMessageQuery = knex('user_messages').whereIn('message_id', ids);
    if (consenting !== null) userMessageQuery.whereIn('user_id', consenting);
    const userMessages: Row[] = await userMessageQuery.orderBy(['message_id', 'user_id']);
    const edits = new Map<number, Row[]>();
    for (const e of await knex('message_edits').whereIn('message_id', ids).orderBy('id', 'desc')) {
      edits.set(e.message_id, [...(edits.get(e.message_id) ?? []), editHistoryEntry(e)]);
    }
    files += 1;
    writeJson(path.join(dir, messageFileName(files)), {
      zerver_message: messages.map((m) => {
        let recipient: number | undefined;
        if (m.stream_id !== null) recipient = streamRecipient.get(m.stream_id as number);
        else {
          const dm = dmRecipient.get(String(m.dm_key))!;
          const other = dm.participants.find((id) => id !== m.sender_id) ?? (m.sender_id as number);
          recipient = dm.participants.length <= 2 ? personalRecipient.get(other) : dm.recipient;
        }
        return {
          id: m.id,
          sender: m.sender_id,
          recipient,
          realm: realm.id,
          subject: m.topic,
          content: m.content,
          rendered_content: m.rendered_content,
          rendered_content_version: 1,
          date_sent: toSeconds(m.date_sent as Date),
          last_edit_time: toSeconds(m.last_edit_time as Date | null),
          sending_client: clientIds.get(m.sending_client as string),
          has_link: m.has_link,
          has_image: m.has_image,
          has_attachment: m.has_attachment,
          is_channel_message: m.stream_id !== null,
          type: 1,
          edit_history: edits.has(m.id as number) ? JSON.stringify(edits.get(m.id as number)) : null,
        };
      }),
      zerver_usermessage: userMessages.map((um) => ({ id: ++nextUserMessage, user_profile: um.user_id, message: um.message_id, flags_mask: um.flags })),
    });
    progress.advance(messages.length);
  }
  progress.stop();

  const exportedMessages = exported(knex('messages').select('id').where('realm_id', realm.id));
  const reactions: Row[] = await knex('reactions').where('realm_id', realm.id).whereIn('message_id', exportedMessages.clone()).orderBy('id');
  const keyHashes: Record<string, string[]> = {};
  for (const row of await knex('api_keys').where('realm_id', realm.id).orderBy('id')) (keyHashes[row.user_id] ??= []).push(row.key_hash);
  const groups = await GroupExport.load(knex, realm.id);
  const userSettings = new Map<number, Row>();
  for (const u of users) userSettings.set(u.id as number, await exportUserSettings(knex, u));
  const { tables: fileTables, counts } = await exportFiles(knex, store, realm, users, dir, consenting === null ? null : exportedMessages.clone());
  const { zerver_attachment, zerver_imageattachment, ...realmFileTables } = fileTables;
  const tables: Tables = {
    zerver_realm: [
      {
        ...(await exportRealmSettings(knex, realm.id, groups)),
        id: realm.id,
        string_id: realm.string_id,
        uuid: realm.uuid,
        name: realm.name,
        description: realm.description,
        deactivated: realm.deactivated,
        date_created: toSeconds(realm.date_created),
        icon_source: realm.icon_source,
        icon_version: realm.icon_version,
        logo_source: realm.logo_source,
        logo_version: realm.logo_version,
        night_logo_source: realm.night_logo_source,
        night_logo_version: realm.night_logo_version,
      },
    ],
    zerver_realmuserdefault: await exportRealmUserDefaults(knex, realm.id),
    zerver_client: clients.map((name) => ({ id: clientIds.get(name), name })),
    zerver_userprofile: users.map((u) => ({
      ...userSettings.get(u.id as number),
      id: u.id,
      realm: realm.id,
      email: u.delivery_email,
      delivery_email: u.delivery_email,
      full_name: u.full_name,
      role: u.role,
      is_active: u.is_active,
      is_bot: u.is_bot,
      bot_type: u.bot_type,
      bot_owner: u.bot_owner_id,
      is_mirror_dummy: false,
      password: scope.credentials ? toDjangoHash(u.password_hash as string | null) : null,
      // Parley keeps only hashes of keys: Zulip gets a fresh one (parley.json carries the hashes).
      api_key: generateApiKey(),
      date_joined: toSeconds(u.date_joined as Date),
      timezone: u.timezone,
      avatar_source: u.avatar_source,
      avatar_version: u.avatar_version,
      email_address_visibility: u.email_address_visibility,
      can_create_users: u.can_create_users,
      default_sending_stream: u.default_sending_stream_id,
      default_events_register_stream: u.default_events_register_stream_id,
      default_all_public_streams: u.default_all_public_streams,
      recipient: personalRecipient.get(u.id as number),
    })),
    zerver_stream: streams.map((s) => ({
      id: s.id,
      realm: realm.id,
      name: s.name,
      description: s.description,
      rendered_description: s.rendered_description,
      invite_only: s.invite_only,
      is_web_public: s.is_web_public,
      history_public_to_subscribers: s.history_public_to_subscribers,
      message_retention_days: s.message_retention_days,
      date_created: toSeconds(s.date_created as Date),
      deactivated: s.deactivated,
      creator: s.creator_id,
      first_message_id: s.first_message_id,
      is_recently_active: s.is_recently_active,
      folder: s.folder_id,
      topics_policy: s.topics_policy,
      ...Object.fromEntries(CHANNEL_PERMISSION_SETTING_NAMES.map((name) => [name, groups.idOf(parseJson(s[name]) as GroupSettingValue)])),
      recipient: streamRecipient.get(s.id as number),
    })),
    // The server's own bots, who send notices in every organization: named by email, as Zulip does.
    zerver_userprofile_crossrealm: (await knex('users').whereNot('realm_id', realm.id).where('is_system_bot', true).orderBy('id')).map((u: Row) => ({
      id: u.id,
      email: u.delivery_email,
      realm: u.realm_id,
    })),
    zerver_recipient: recipients,
    zerver_huddle: huddles,
    zerver_subscription: subscriptions,
    zerver_reaction: reactions.map((r) => ({
      id: r.id,
      user_profile: r.user_id,
      message: r.message_id,
      emoji_name: r.emoji_name,
      emoji_code: r.emoji_code,
      reaction_type: r.reaction_type,
    })),
    ...realmFileTables,
    ...(await exportRecords(knex, realm.id, consenting, exportedMessages.clone())),
    ...groups.tables(),
  };
  writeJson(path.join(dir, REALM_FILE), tables);
  writeJson(path.join(dir, ATTACHMENT_FILE), { zerver_attachment, zerver_imageattachment });
  if (scope.credentials) writeJson(path.join(dir, PARLEY_FILE), { api_key_hashes: keyHashes });

  if (archive) {
    await tar.c({ gzip: true, file: target, cwd: path.dirname(dir) }, [path.basename(dir)]);
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
  return { users: users.length, channels: streams.length, messages: messageCount, files, ...counts };
}

/** One entry of Zulip's edit_history (newest first), from a message_edits row. */
function editHistoryEntry(e: Row): Row {
  const entry: Row = { user_id: e.user_id, timestamp: Math.floor(toSeconds(e.edit_time as Date)!) };
  if (e.prev_content !== null)
    Object.assign(entry, { prev_content: e.prev_content, prev_rendered_content: e.prev_rendered_content, prev_rendered_content_version: 1 });
  if (e.prev_topic !== null) Object.assign(entry, { prev_topic: e.prev_topic, topic: e.topic });
  if (e.prev_stream_id !== null) Object.assign(entry, { prev_stream: e.prev_stream_id, stream: e.stream_id });
  return entry;
}
