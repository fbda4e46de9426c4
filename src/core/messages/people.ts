import type { Knex } from 'knex';
import type { Config } from '../../config';
import { EmailVisibility } from '../users/roles';
import { gravatarUrl, placeholderEmail } from '../users/view';
import { anyOf } from '../../db/lists';

/**
 * The user data messages carry (senders, direct-message participants, reacting users). Message
 * payloads are shared by every recipient, so they use each user's API email: the real address
 * only when the user lets everyone see it, otherwise the placeholder, as Zulip does.
 */
export interface PersonRow {
  id: number;
  full_name: string;
  delivery_email: string;
  email_address_visibility: number;
  avatar_source: string;
  avatar_version: number;
  is_bot: boolean;
  is_active: boolean;
  role: number;
  bot_owner_id: number | null;
}

export const PERSON_COLUMNS = [
  'id',
  'full_name',
  'delivery_email',
  'email_address_visibility',
  'avatar_source',
  'avatar_version',
  'is_bot',
  'is_active',
  'role',
  'bot_owner_id',
] as const;

export function apiEmail(config: Config, person: Pick<PersonRow, 'id' | 'delivery_email' | 'email_address_visibility' | 'is_bot'>): string {
  return person.is_bot || person.email_address_visibility === EmailVisibility.EVERYONE ? person.delivery_email : placeholderEmail(config, person.id);
}

export function avatarUrl(person: Pick<PersonRow, 'id' | 'delivery_email' | 'avatar_source' | 'avatar_version'>): string {
  if (person.avatar_source === 'G') return gravatarUrl(person.delivery_email, person.avatar_version);
  return `/user_avatars/${person.id}?version=${person.avatar_version}`;
}

/** True when a client computing gravatars itself (client_gravatar) can work this avatar out. */
export function hasPublicGravatar(person: Pick<PersonRow, 'avatar_source' | 'email_address_visibility' | 'is_bot'>): boolean {
  return person.avatar_source === 'G' && (person.is_bot || person.email_address_visibility === EmailVisibility.EVERYONE);
}

export async function loadPeople(db: Knex, realmId: number, ids: Iterable<number>): Promise<Map<number, PersonRow>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  // The server's own bots write messages in the organization too.
  const rows: PersonRow[] = await db('users')
    .where((q) => q.where('realm_id', realmId).orWhere('is_system_bot', true))
    .whereRaw(...anyOf('id', wanted))
    .select(PERSON_COLUMNS);
  return new Map(rows.map((r) => [r.id, r]));
}

/** `{id, email, full_name, is_mirror_dummy}`, as in a direct message's display_recipient. */
export function displayRecipientEntry(config: Config, person: PersonRow) {
  return { id: person.id, email: apiEmail(config, person), full_name: person.full_name, is_mirror_dummy: false };
}
