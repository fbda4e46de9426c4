import type { Knex } from 'knex';
import type { Config } from '../../config';
import { errors } from '../../errors';
import { User } from '../users/model';
import { canSeeDeliveryEmail, placeholderEmail } from '../users/view';
import { apiEmail } from './people';
import { anyOf, listParam } from '../../db/lists';

/**
 * Who a message is addressed to, parsed the way Zulip reads the `to` parameter: a channel as an
 * id or a name (JSON-encoded or bare), or users as a list of ids or of emails (JSON, or a
 * comma-separated string).
 */
export type MessageType = 'stream' | 'private';
export const MESSAGE_TYPES = ['stream', 'channel', 'private', 'direct'] as const;

export type Addressee = { type: 'stream'; channel: number | string | null } | { type: 'private'; userIds: number[] | null; emails: string[] | null };

const notBoth = () => errors.badRequest('Recipient lists may contain emails or user IDs, but not both.');

function parseLoose(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** `to` is refused with NUL anywhere in it, JSON-escaped or not, as every string parameter is. */
function refuseNul(value: unknown): void {
  const strings = Array.isArray(value) ? value : [value];
  if (strings.some((s) => typeof s === 'string' && s.includes('\u0000'))) throw errors.badRequest('to contains NULL (0x00) characters.');
}

export function parseChannelIndicator(raw: string): number | string {
  let data = parseLoose(raw);
  refuseNul(data);
  if (Array.isArray(data)) {
    if (data.length !== 1) throw errors.badRequest('Expected exactly one channel');
    data = data[0];
  }
  if (typeof data === 'string') return data;
  if (typeof data === 'number' && Number.isSafeInteger(data)) return data;
  throw errors.badRequest('Invalid data type for channel');
}

export function parseUserList(raw: string): { userIds: number[] | null; emails: string[] | null } {
  let data = parseLoose(raw);
  refuseNul(data);
  if (typeof data === 'string') data = data.split(',');
  if (typeof data === 'number') data = [data];
  if (!Array.isArray(data)) throw errors.badRequest('Invalid data type for recipients');
  if (data.length === 0) return { userIds: [], emails: null };
  if (typeof data[0] === 'string') {
    if (!data.every((e) => typeof e === 'string')) throw notBoth();
    return { userIds: null, emails: [...new Set((data as string[]).map((e) => e.trim()).filter(Boolean))] };
  }
  if (typeof data[0] !== 'number') throw errors.badRequest('Invalid data type for recipients');
  if (!data.every((id) => typeof id === 'number' && Number.isSafeInteger(id))) throw notBoth();
  return { userIds: [...new Set(data as number[])], emails: null };
}

export function parseAddressee(type: (typeof MESSAGE_TYPES)[number], to: string | undefined): Addressee {
  if (type === 'stream' || type === 'channel') return { type: 'stream', channel: to === undefined ? null : parseChannelIndicator(to) };
  if (to === undefined) return { type: 'private', userIds: [], emails: null };
  return { type: 'private', ...parseUserList(to) };
}

/**
 * Who may be addressed: the organization's users, and the server's own bots (which belong to an
 * internal organization, as Zulip's cross-realm bots do: a user may answer the notification bot).
 */
function addressable(db: Knex, realmId: number) {
  return User.query(db).where((q) => q.where('realm_id', realmId).orWhere('is_system_bot', true));
}

/** Users by id; "Invalid user ID n" for any unknown id. */
export async function usersByIds(db: Knex, realmId: number, ids: number[]): Promise<User[]> {
  const rows = await addressable(db, realmId).whereRaw(...anyOf('id', ids));
  const byId = new Map(rows.map((u) => [u.id, u]));
  return ids.map((id) => {
    const user = byId.get(id);
    if (!user) throw errors.badRequest(`Invalid user ID ${id}`);
    return user;
  });
}

/**
 * Users by API email as `viewer` knows them: the placeholder address, or the real one where the
 * viewer may see it. Returns null for the first email that matches nobody.
 */
export async function usersByEmails(
  db: Knex,
  config: Config,
  realmId: number,
  viewer: Pick<User, 'id' | 'role'>,
  emails: string[],
): Promise<{ users: User[]; unknown: string | null }> {
  const lowered = emails.map((e) => e.toLowerCase());
  const placeholderIds = lowered
    .map((e) => /^user(\d+)@/.exec(e))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .filter(Number.isSafeInteger);
  const candidates = await addressable(db, realmId).where((q) => {
    q.whereRaw('lower(delivery_email) = ANY(?::text[])', [listParam(lowered, 'text')]);
    if (placeholderIds.length > 0) q.orWhereRaw(...anyOf('id', placeholderIds));
  });
  const byEmail = new Map<string, User>();
  for (const user of candidates) {
    byEmail.set(placeholderEmail(config, user.id).toLowerCase(), user);
    if (canSeeDeliveryEmail(viewer, user) || apiEmail(config, user) === user.delivery_email) byEmail.set(user.delivery_email.toLowerCase(), user);
  }
  const users: User[] = [];
  for (const [i, email] of lowered.entries()) {
    const user = byEmail.get(email);
    if (!user) return { users, unknown: emails[i] };
    if (!users.includes(user)) users.push(user);
  }
  return { users, unknown: null };
}
