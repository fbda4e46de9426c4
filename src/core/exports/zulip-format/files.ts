import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import mime from 'mime-types';
import { avatarKey } from '../../uploads/avatars';
import { squarePng } from '../../uploads/images';
import { RealmImage, realmImageKey } from '../../uploads/realm-images';
import type { FileStore } from '../../uploads/storage';
import { fromSeconds, insertedId, Row, Tables, toSeconds } from './layout';

/**
 * The files of an export, in Zulip's layout: uploads/<path_id>, avatars/<realm>/<hash>{.png,
 * -medium.png,.original}, emoji/<realm>/emoji/images/<file>, realm_icons/<realm>/realm/<image>.png;
 * each directory's records.json says whose each file is.
 */

async function readStored(store: FileStore, key: string): Promise<Buffer | null> {
  const file = await store.read(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.open()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function writeStored(store: FileStore, key: string, bytes: Buffer): Promise<void> {
  const staged = await store.stage(Readable.from([bytes]));
  try {
    await staged.commit(key);
  } catch (error) {
    await staged.discard();
    throw error;
  }
}

function writeFile(dir: string, relative: string, bytes: Buffer) {
  const file = path.join(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
}

const writeRecords = (dir: string, records: Row[]) => {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'records.json'), `${JSON.stringify(records, null, 2)}\n`);
};

/** A file of the export named by a record's path, or null when it is missing or escapes the directory. */
function readExported(dir: string, relative: unknown): Buffer | null {
  if (typeof relative !== 'string') return null;
  const file = path.resolve(dir, relative);
  if (!file.startsWith(path.resolve(dir) + path.sep) || !fs.existsSync(file)) return null;
  return fs.readFileSync(file);
}

const readRecords = (dir: string): Row[] => {
  const file = path.join(dir, 'records.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
};

const LOGO_IMAGES: { image: RealmImage; source: string; version: string }[] = [
  { image: 'icon', source: 'icon_source', version: 'icon_version' },
  { image: 'logo', source: 'logo_source', version: 'logo_version' },
  { image: 'night_logo', source: 'night_logo_source', version: 'night_logo_version' },
];

export interface FileCounts {
  attachments: number;
  avatars: number;
  emoji: number;
}

/** Writes attachment.json, the uploaded files, avatars, custom emoji and the organization's images. */
export async function exportFiles(
  knex: Knex,
  store: FileStore | null,
  realm: Row,
  users: Row[],
  dir: string,
  /** When the export leaves messages out: the ones it holds (only files they link go). */
  messages: Knex.QueryBuilder | null,
): Promise<{ tables: Tables; counts: FileCounts }> {
  const realmId = realm.id as number;
  const emailOf = new Map(users.map((u) => [u.id as number, u.delivery_email as string]));

  const attachmentQuery = knex('attachments').where('realm_id', realmId);
  if (messages) attachmentQuery.whereIn('id', knex('attachment_messages').select('attachment_id').whereIn('message_id', messages.clone()));
  const attachments: Row[] = await attachmentQuery.orderBy('id');
  const ids = attachments.map((a) => a.id as number);
  const linkQuery = knex('attachment_messages').whereIn('attachment_id', ids);
  if (messages) linkQuery.whereIn('message_id', messages.clone());
  const links: Row[] = ids.length ? await linkQuery.orderBy(['attachment_id', 'message_id']) : [];
  const images: Row[] = ids.length ? await knex('image_attachments').whereIn('attachment_id', ids).orderBy('attachment_id') : [];
  const uploadRecords: Row[] = [];
  for (const a of attachments) {
    const bytes = store ? await readStored(store, a.path_id as string) : null;
    if (bytes) {
      writeFile(path.join(dir, 'uploads'), a.path_id as string, bytes);
      uploadRecords.push({
        realm_id: realmId,
        user_profile_id: a.owner_id,
        user_profile_email: emailOf.get(a.owner_id as number),
        s3_path: a.path_id,
        path: a.path_id,
        size: bytes.length,
        last_modified: toSeconds(a.create_time as Date),
        content_type: a.content_type,
      });
    }
  }
  writeRecords(path.join(dir, 'uploads'), uploadRecords);
  const attachmentTables: Tables = {
    zerver_attachment: attachments.map((a) => ({
      id: a.id,
      realm: realmId,
      owner: a.owner_id,
      path_id: a.path_id,
      file_name: a.file_name,
      content_type: a.content_type,
      size: Number(a.size),
      create_time: toSeconds(a.create_time as Date),
      messages: links.filter((l) => l.attachment_id === a.id).map((l) => l.message_id),
      scheduled_messages: [],
    })),
    zerver_imageattachment: images.map((i) => ({
      id: i.attachment_id,
      realm: realmId,
      path_id: i.path_id,
      original_width_px: i.original_width_px,
      original_height_px: i.original_height_px,
      frames: i.frames,
      content_type: i.content_type,
      // Thumbnails are made again by the importing server, as Zulip's importer does.
      thumbnail_metadata: [],
    })),
  };

  const avatarRecords: Row[] = [];
  let avatars = 0;
  for (const u of users) {
    if (u.avatar_source !== 'U' || !store) continue;
    const small = await readStored(store, avatarKey(u.id as number, u.avatar_version as number, 'small'));
    const medium = await readStored(store, avatarKey(u.id as number, u.avatar_version as number, 'medium'));
    if (!small || !medium) continue;
    const base = `${realmId}/${crypto.createHash('sha1').update(`${u.id}:${u.avatar_version}`).digest('hex')}`;
    for (const [suffix, bytes] of [
      ['.original', medium],
      ['.png', small],
      ['-medium.png', medium],
    ] as const) {
      writeFile(path.join(dir, 'avatars'), base + suffix, bytes);
      avatarRecords.push({
        realm_id: realmId,
        user_profile_id: u.id,
        user_profile_email: u.delivery_email,
        s3_path: base + suffix,
        path: base + suffix,
        size: bytes.length,
        last_modified: toSeconds(new Date()),
        content_type: 'image/png',
      });
    }
    avatars += 1;
  }
  writeRecords(path.join(dir, 'avatars'), avatarRecords);

  const emoji: Row[] = await knex('realm_emoji').where('realm_id', realmId).orderBy('id');
  const emojiRecords: Row[] = [];
  for (const e of emoji) {
    const relative = `${realmId}/emoji/images/${e.file_name}`;
    writeFile(path.join(dir, 'emoji'), relative, e.image as Buffer);
    emojiRecords.push({
      realm_id: realmId,
      path: relative,
      s3_path: relative,
      file_name: e.file_name,
      name: e.name,
      user_profile_id: e.author_id,
      user_profile_email: e.author_id === null ? null : emailOf.get(e.author_id as number),
    });
  }
  writeRecords(path.join(dir, 'emoji'), emojiRecords);

  const iconRecords: Row[] = [];
  for (const { image, source, version } of LOGO_IMAGES) {
    if (realm[source] !== 'U' || !store) continue;
    const bytes = await readStored(store, realmImageKey(realmId, image, realm[version] as number));
    if (!bytes) continue;
    for (const suffix of ['.png', '.original']) {
      const relative = `${realmId}/realm/${image}${suffix}`;
      writeFile(path.join(dir, 'realm_icons'), relative, bytes);
      iconRecords.push({ realm_id: realmId, path: relative, s3_path: relative });
    }
  }
  writeRecords(path.join(dir, 'realm_icons'), iconRecords);

  const realmEmoji = emoji.map((e) => ({
    id: e.id,
    realm: realmId,
    name: e.name,
    file_name: e.file_name,
    author: e.author_id,
    deactivated: e.deactivated,
    is_animated: e.content_type === 'image/gif',
    content_type: e.content_type,
    date_created: toSeconds(e.date_created as Date),
  }));
  return { tables: { ...attachmentTables, zerver_realmemoji: realmEmoji }, counts: { attachments: uploadRecords.length, avatars, emoji: emoji.length } };
}

export interface FileImportContext {
  knex: Knex;
  store: FileStore;
  dir: string;
  realmId: number;
  exportRealmId: number;
  userIds: Map<number, number>;
  messageIds: Map<number, number>;
  zUsers: Row[];
}

/** The export's path_id under this organization's id. */
const localPathId = (pathId: string, realmId: number) => `${realmId}/${pathId.split('/').slice(1).join('/')}`;

/** Loads uploaded files (with the messages linking them), avatars, custom emoji and images. */
export async function importFiles(ctx: FileImportContext, attachmentTables: Tables, realmTables: Tables, zRealm: Row): Promise<FileCounts> {
  const { knex, store, dir, realmId, userIds, messageIds } = ctx;
  const counts: FileCounts = { attachments: 0, avatars: 0, emoji: 0 };
  const images = new Map(
    ([...(attachmentTables.zerver_imageattachment ?? []), ...(realmTables.zerver_imageattachment ?? [])] as Row[]).map((i) => [String(i.path_id), i]),
  );
  for (const a of (attachmentTables.zerver_attachment ?? []) as Row[]) {
    const owner = userIds.get(a.owner as number);
    const bytes = readExported(path.join(dir, 'uploads'), a.path_id);
    if (owner === undefined || !bytes) continue;
    const pathId = localPathId(String(a.path_id), realmId);
    await writeStored(store, pathId, bytes);
    const id = insertedId(
      await knex('attachments')
        .insert({
          realm_id: realmId,
          owner_id: owner,
          path_id: pathId,
          file_name: String(a.file_name),
          content_type: String(a.content_type ?? (mime.lookup(String(a.file_name)) || 'application/octet-stream')),
          size: bytes.length,
          create_time: fromSeconds(a.create_time) ?? new Date(),
        })
        .returning('id'),
    );
    const links = ((a.messages ?? []) as number[]).map((m) => messageIds.get(m)).filter((m): m is number => m !== undefined);
    if (links.length > 0) await knex('attachment_messages').insert(links.map((message_id) => ({ attachment_id: id, message_id })));
    const image = images.get(String(a.path_id));
    if (image) {
      await knex('image_attachments').insert({
        attachment_id: id,
        realm_id: realmId,
        path_id: pathId,
        original_width_px: image.original_width_px,
        original_height_px: image.original_height_px,
        frames: image.frames ?? 1,
        content_type: image.content_type ?? null,
        thumbnail_metadata: JSON.stringify([]),
      });
    }
    counts.attachments += 1;
  }

  // Avatars: the small and medium PNGs when present, else made from the original.
  const byUser = new Map<number, Row[]>();
  for (const r of readRecords(path.join(dir, 'avatars'))) byUser.set(r.user_profile_id as number, [...(byUser.get(r.user_profile_id as number) ?? []), r]);
  for (const zUser of ctx.zUsers) {
    const userId = userIds.get(zUser.id as number);
    const records = byUser.get(zUser.id as number);
    if (userId === undefined || !records || zUser.avatar_source !== 'U') continue;
    const find = (test: (p: string) => boolean) => {
      const record = records.find((r) => test(String(r.path)));
      return record ? readExported(path.join(dir, 'avatars'), record.path) : null;
    };
    const original = find((p) => p.endsWith('.original'));
    const small = find((p) => p.endsWith('.png') && !p.endsWith('-medium.png')) ?? (original && (await squarePng(original, 100).catch(() => null)));
    const medium = find((p) => p.endsWith('-medium.png')) ?? (original && (await squarePng(original, 500).catch(() => null)));
    if (!small || !medium) continue;
    const version = typeof zUser.avatar_version === 'number' && zUser.avatar_version > 0 ? zUser.avatar_version : 1;
    await writeStored(store, avatarKey(userId, version, 'small'), small);
    await writeStored(store, avatarKey(userId, version, 'medium'), medium);
    await knex('users').where({ id: userId }).update({ avatar_source: 'U', avatar_version: version });
    counts.avatars += 1;
  }

  const emojiFiles = new Map(readRecords(path.join(dir, 'emoji')).map((r) => [String(r.name), r]));
  for (const e of (realmTables.zerver_realmemoji ?? []) as Row[]) {
    const record = emojiFiles.get(String(e.name));
    const bytes = record ? readExported(path.join(dir, 'emoji'), record.path) : null;
    if (!bytes) continue;
    await knex('realm_emoji').insert({
      realm_id: realmId,
      name: String(e.name),
      file_name: String(e.file_name),
      content_type: String(e.content_type ?? (mime.lookup(String(e.file_name)) || 'image/png')),
      image: bytes,
      author_id: typeof e.author === 'number' ? (userIds.get(e.author) ?? null) : null,
      deactivated: e.deactivated === true,
      date_created: fromSeconds(e.date_created) ?? new Date(),
    });
    counts.emoji += 1;
  }

  const icons = readRecords(path.join(dir, 'realm_icons'));
  for (const { image, source, version } of LOGO_IMAGES) {
    if (zRealm[source] !== 'U') continue;
    const record = icons.find((r) => String(r.path).endsWith(`/${image}.png`)) ?? icons.find((r) => String(r.path).endsWith(`/${image}.original`));
    const bytes = record ? readExported(path.join(dir, 'realm_icons'), record.path) : null;
    if (!bytes) continue;
    const v = typeof zRealm[version] === 'number' && (zRealm[version] as number) > 0 ? (zRealm[version] as number) : 1;
    await writeStored(store, realmImageKey(realmId, image, v), bytes);
    await knex('realms')
      .where({ id: realmId })
      .update({ [source]: 'U', [version]: v });
  }
  return counts;
}
