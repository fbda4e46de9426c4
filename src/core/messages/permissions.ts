import { ChannelViewer } from '../channels/access';
import type { ChannelPermissionSetting } from '../channels/constants';
import { holdsGroupSetting } from '../channels/group-settings';
import type { Stream } from '../channels/model';
import { isModeratorOrAbove } from '../users/roles';
import type { RealmMessagePermission, RealmMessageSettings } from './realm-settings';

/**
 * Who may edit, move and delete messages: an organization-wide group setting, or the matching
 * setting of the channel involved, as in Zulip. Moderators and above are exempt from the time
 * limits on moving messages.
 */
export const holdsRealm = (viewer: ChannelViewer, settings: RealmMessageSettings, permission: RealmMessagePermission) =>
  holdsGroupSetting(viewer.user, viewer.groupIds, settings.groups[permission]);

const holdsChannel = (viewer: ChannelViewer, stream: Stream, setting: ChannelPermissionSetting) =>
  holdsGroupSetting(viewer.user, viewer.groupIds, stream[setting], setting);

export function canEditTopic(viewer: ChannelViewer, settings: RealmMessageSettings, orig: Stream, target: Stream): boolean {
  return (
    holdsRealm(viewer, settings, 'can_move_messages_between_topics_group') ||
    holdsChannel(viewer, orig, 'can_move_messages_within_channel_group') ||
    (orig.id !== target.id && holdsChannel(viewer, target, 'can_move_messages_within_channel_group'))
  );
}

export function canResolveTopics(viewer: ChannelViewer, settings: RealmMessageSettings, orig: Stream, target: Stream): boolean {
  return (
    holdsRealm(viewer, settings, 'can_resolve_topics_group') ||
    holdsChannel(viewer, orig, 'can_resolve_topics_group') ||
    (orig.id !== target.id && holdsChannel(viewer, target, 'can_resolve_topics_group'))
  );
}

export function canMoveOutOfChannel(viewer: ChannelViewer, settings: RealmMessageSettings, orig: Stream): boolean {
  return holdsRealm(viewer, settings, 'can_move_messages_between_channels_group') || holdsChannel(viewer, orig, 'can_move_messages_out_of_channel_group');
}

export function canDeleteAnyMessage(viewer: ChannelViewer, settings: RealmMessageSettings, stream: Stream | undefined): boolean {
  return holdsRealm(viewer, settings, 'can_delete_any_message_group') || (stream !== undefined && holdsChannel(viewer, stream, 'can_delete_any_message_group'));
}

export function canDeleteOwnMessage(viewer: ChannelViewer, settings: RealmMessageSettings, stream: Stream | undefined): boolean {
  return holdsRealm(viewer, settings, 'can_delete_own_message_group') || (stream !== undefined && holdsChannel(viewer, stream, 'can_delete_own_message_group'));
}

export const isModerator = (viewer: ChannelViewer) => isModeratorOrAbove(viewer.user.role);
