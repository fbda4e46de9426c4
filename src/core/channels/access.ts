import type { Knex } from 'knex';
import { isRowId } from '../../db/ids';
import { inParallel } from '../../db/in-parallel';
import { ApiError, errors } from '../../errors';
import type { User } from '../users/model';
import { isAdminRole, isGuestRole } from '../users/roles';
import { CHANNEL_PERMISSION_SETTINGS, METADATA_ACCESS_SETTINGS } from './constants';
import { holdsGroupSetting, loadSystemGroupIds, recursiveGroupIdsOf, SystemGroupIds } from './group-settings';
import { Stream, Subscription } from './model';
import { holdsRealmPolicy } from './realm-policy';

/**
 * Who may see and do what with a channel. Two levels of access, as in Zulip:
 * - metadata access: knowing the channel exists (name, description, settings);
 * - content access: reading its messages and subscribing oneself.
 * A channel the user may not see answers exactly like a channel that does not exist.
 */
export interface ChannelViewer {
  user: Pick<User, 'id' | 'role' | 'realm_id' | 'is_bot' | 'bot_owner_id'>;
  /** Every user group the user belongs to, directly or through subgroups. */
  groupIds: Set<number>;
  /** Channels the user is actively subscribed to. */
  subscribed: Set<number>;
  systemGroups: SystemGroupIds;
}

export async function loadViewer(db: Knex, user: ChannelViewer['user']): Promise<ChannelViewer> {
  const [groupIds, subs, systemGroups] = await inParallel(db, [
    () => recursiveGroupIdsOf(db, user.id),
    async () => Subscription.query(db).where({ user_id: user.id, active: true }).select('stream_id'),
    () => loadSystemGroupIds(db, user.realm_id),
  ] as const);
  return { user, groupIds, subscribed: new Set(subs.map((s) => s.stream_id)), systemGroups };
}

export const invalidChannelId = () => errors.badRequest('Invalid channel ID');
export const invalidChannelName = (name: string) => errors.badRequest(`Invalid channel name '${name}'`);
/** For callers naming a channel that must exist, e.g. a message's recipient (not for access checks). */
export const channelDoesNotExist = (name: string) => new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, 400, { stream: name });
export const channelWithIdDoesNotExist = (streamId: number) =>
  new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${streamId}' does not exist`, 400, { stream_id: streamId });
export const cannotAdministerChannel = () => errors.badRequest('You do not have permission to administer this channel.');
export const channelContentAccessRequired = () => errors.badRequest('Channel content access is required.');

const isGuest = (viewer: ChannelViewer) => isGuestRole(viewer.user.role);
const isAdmin = (viewer: ChannelViewer) => isAdminRole(viewer.user.role);

export function isSubscribed(viewer: ChannelViewer, stream: Pick<Stream, 'id'>): boolean {
  return viewer.subscribed.has(stream.id);
}

function holds(viewer: ChannelViewer, stream: Stream, setting: keyof typeof CHANNEL_PERMISSION_SETTINGS): boolean {
  return holdsGroupSetting(viewer.user, viewer.groupIds, stream[setting], setting);
}

/** May read the channel's messages and subscribe oneself. */
export function hasContentAccess(viewer: ChannelViewer, stream: Stream): boolean {
  if (stream.is_web_public || isSubscribed(viewer, stream)) return true;
  if (isGuest(viewer)) return false;
  if (stream.isPublic()) return true;
  return holds(viewer, stream, 'can_subscribe_group') || holds(viewer, stream, 'can_add_subscribers_group');
}

/** Holds one of the channel permissions that reveal a private channel's existence. */
export function hasMetadataAccessViaGroups(viewer: ChannelViewer, stream: Stream): boolean {
  if (isGuest(viewer)) return false;
  return METADATA_ACCESS_SETTINGS.some((setting) => holds(viewer, stream, setting));
}

/** May know the channel exists: see its name, description and settings. */
export function hasMetadataAccess(viewer: ChannelViewer, stream: Stream): boolean {
  if (stream.is_web_public || isSubscribed(viewer, stream)) return true;
  if (isGuest(viewer)) return false;
  if (stream.isPublic() || isAdmin(viewer)) return true;
  return hasMetadataAccessViaGroups(viewer, stream);
}

/** Organization administrators administer every channel; others through can_administer_channel_group. */
export function canAdministerChannel(viewer: ChannelViewer, stream: Stream): boolean {
  return isAdmin(viewer) || holds(viewer, stream, 'can_administer_channel_group');
}

/** May see who is subscribed; throws Zulip's error otherwise. */
export function checkCanSeeSubscribers(viewer: ChannelViewer, stream: Stream): void {
  if (stream.is_web_public) return;
  if (isGuest(viewer) && isSubscribed(viewer, stream)) return;
  if (isGuest(viewer) && stream.isPublic()) throw errors.badRequest('Subscriber data is not available for this channel');
  if (isAdmin(viewer)) return;
  if (stream.invite_only && !isSubscribed(viewer, stream) && !hasMetadataAccessViaGroups(viewer, stream)) {
    throw errors.badRequest('Unable to retrieve subscribers for private channel');
  }
}

export function canSeeSubscribers(viewer: ChannelViewer, stream: Stream): boolean {
  try {
    checkCanSeeSubscribers(viewer, stream);
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

export async function findChannel(db: Knex, realmId: number, streamId: number): Promise<Stream | undefined> {
  if (!isRowId(streamId)) return undefined;
  return Stream.query(db).findOne({ realm_id: realmId, id: streamId });
}

export async function findChannelByName(db: Knex, realmId: number, name: string): Promise<Stream | undefined> {
  return Stream.query(db).where('realm_id', realmId).whereRaw('lower(name) = lower(?)', [name.trim()]).first();
}

export interface AccessOptions {
  /** Refuse archived channels (the default). */
  requireActive?: boolean;
  /** Content access (the default) or only metadata access. */
  requireContentAccess?: boolean;
}

function checkAccess(viewer: ChannelViewer, stream: Stream, options: AccessOptions): boolean {
  if ((options.requireActive ?? true) && stream.deactivated) return false;
  if (hasContentAccess(viewer, stream)) return true;
  if (options.requireContentAccess ?? true) return false;
  return isAdmin(viewer) || hasMetadataAccessViaGroups(viewer, stream);
}

/** The channel with this id if the viewer may access it, else "Invalid channel ID". */
export async function accessChannelById(db: Knex, viewer: ChannelViewer, streamId: number, options: AccessOptions = {}): Promise<Stream> {
  const stream = await findChannel(db, viewer.user.realm_id, streamId);
  if (!stream || !checkAccess(viewer, stream, options)) throw invalidChannelId();
  return stream;
}

/** The channel with this name (any letter case) if the viewer may access it, else "Invalid channel name 'x'". */
export async function accessChannelByName(db: Knex, viewer: ChannelViewer, name: string, options: AccessOptions = {}): Promise<Stream> {
  const stream = await findChannelByName(db, viewer.user.realm_id, name);
  if (!stream || !checkAccess(viewer, stream, options)) throw invalidChannelName(name);
  return stream;
}

/** Reading a channel's messages: an active channel the viewer has content access to. */
export async function accessChannelForRead(db: Knex, viewer: ChannelViewer, streamId: number): Promise<Stream> {
  return accessChannelById(db, viewer, streamId);
}

/**
 * Sending to a channel: the sender must hold can_send_message_group (a bot may use its owner's), the
 * channel must be active, and a private channel needs a subscription (the bot owner's counts) or
 * content access through the channel's groups.
 */
export async function accessChannelForPost(db: Knex, viewer: ChannelViewer, stream: Stream): Promise<void> {
  const { user } = viewer;
  let ownerViewer: ChannelViewer | null = null;
  const owner = async () => {
    if (!user.is_bot || user.bot_owner_id === null) return null;
    if (!ownerViewer) {
      const row = await db('users').where({ id: user.bot_owner_id }).first('id', 'role', 'realm_id', 'is_bot', 'bot_owner_id');
      ownerViewer = row ? await loadViewer(db, row) : null;
    }
    return ownerViewer;
  };
  const everyone = viewer.systemGroups['role:everyone'];
  if (stream.can_send_message_group !== everyone && !holdsGroupSetting(user, viewer.groupIds, stream.can_send_message_group)) {
    const botOwner = await owner();
    if (!botOwner || !holdsGroupSetting(botOwner.user, botOwner.groupIds, stream.can_send_message_group)) {
      throw errors.badRequest('You do not have permission to post in this channel.');
    }
  }
  const notAuthorized = () => errors.badRequest(`Not authorized to send to channel '${stream.name}'`);
  if (stream.deactivated) throw notAuthorized();
  if (stream.is_web_public) return;
  if (!stream.invite_only && !isGuestRole(user.role)) return;
  if (isSubscribed(viewer, stream)) return;
  const botOwner = await owner();
  if (botOwner && isSubscribed(botOwner, stream)) return;
  if (stream.history_public_to_subscribers && !isGuestRole(user.role)) {
    if (holds(viewer, stream, 'can_subscribe_group') || holds(viewer, stream, 'can_add_subscribers_group')) return;
  }
  throw notAuthorized();
}

/**
 * Changing or archiving a channel: organization administrators and the channel's administrators.
 * Someone who can see the channel but not administer it is told so; anyone else gets
 * "Invalid channel ID".
 */
export async function accessChannelForUpdate(db: Knex, viewer: ChannelViewer, streamId: number): Promise<Stream> {
  const stream = await findChannel(db, viewer.user.realm_id, streamId);
  if (!stream) throw invalidChannelId();
  if (canAdministerChannel(viewer, stream)) return stream;
  if (hasContentAccess(viewer, stream)) throw cannotAdministerChannel();
  throw invalidChannelId();
}

/** Whether the viewer may subscribe other users to this channel (which they can access). */
export function canAddSubscribers(viewer: ChannelViewer, stream: Stream, realmAllows: boolean): boolean {
  if (isGuest(viewer)) return false;
  if (realmAllows || isAdmin(viewer)) return true;
  return holds(viewer, stream, 'can_administer_channel_group') || holds(viewer, stream, 'can_add_subscribers_group');
}

/** Whether the viewer may subscribe others to every one of these channels (which they can access). */
export async function canAddSubscribersToAll(db: Knex, viewer: ChannelViewer, streams: Stream[]): Promise<boolean> {
  const realmAllows = await holdsRealmPolicy(db, viewer.user, viewer.groupIds, viewer.systemGroups, 'can_add_subscribers_group');
  return streams.every((stream) => canAddSubscribers(viewer, stream, realmAllows));
}

/** Whether the viewer may unsubscribe others from all these channels. */
export function canRemoveSubscribers(viewer: ChannelViewer, streams: Stream[]): boolean {
  if (isAdmin(viewer)) return true;
  if (isGuest(viewer)) return false;
  if (streams.every((s) => holds(viewer, s, 'can_administer_channel_group'))) return true;
  for (const stream of streams) {
    if (!checkAccess(viewer, stream, { requireActive: false, requireContentAccess: false })) return false;
  }
  return streams.every((s) => holds(viewer, s, 'can_remove_subscribers_group'));
}
