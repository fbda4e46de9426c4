import type { Knex } from 'knex';
import type { SystemGroupIds, GroupSettingValue } from '../channels/group-settings';
import type { SystemGroupName } from '../groups/system-groups';

/**
 * The organization's message settings (Zulip's realm settings of the same names). They live in
 * `realm_message_settings`; without a row, or with a null group value, Zulip's defaults apply.
 */
export const REALM_MESSAGE_GROUP_DEFAULTS = {
  can_delete_any_message_group: 'role:administrators',
  can_delete_own_message_group: 'role:everyone',
  can_move_messages_between_channels_group: 'role:members',
  can_move_messages_between_topics_group: 'role:everyone',
  can_resolve_topics_group: 'role:everyone',
  can_mention_many_users_group: 'role:administrators',
} as const satisfies Record<string, SystemGroupName>;

export type RealmMessagePermission = keyof typeof REALM_MESSAGE_GROUP_DEFAULTS;

export const EDIT_HISTORY_VISIBILITY = { all: 1, moves: 2, none: 3 } as const;

export interface RealmMessageSettings {
  allowMessageEditing: boolean;
  /** null: no limit. */
  messageContentEditLimitSeconds: number | null;
  messageContentDeleteLimitSeconds: number | null;
  moveMessagesWithinStreamLimitSeconds: number | null;
  moveMessagesBetweenStreamsLimitSeconds: number | null;
  editHistoryVisibility: number;
  groups: Record<RealmMessagePermission, GroupSettingValue>;
}

export const REALM_MESSAGE_SETTING_DEFAULTS = {
  allowMessageEditing: true,
  messageContentEditLimitSeconds: 600,
  messageContentDeleteLimitSeconds: 600,
  moveMessagesWithinStreamLimitSeconds: 7 * 24 * 3600,
  moveMessagesBetweenStreamsLimitSeconds: 7 * 24 * 3600,
  editHistoryVisibility: EDIT_HISTORY_VISIBILITY.all,
};

/** Channels with more subscribers than this need can_mention_many_users_group for @**all**. */
export const WILDCARD_MENTION_THRESHOLD = 15;

export async function loadRealmMessageSettings(db: Knex, realmId: number, systemGroups: SystemGroupIds): Promise<RealmMessageSettings> {
  const row = await db('realm_message_settings').where({ realm_id: realmId }).first();
  const groups = {} as Record<RealmMessagePermission, GroupSettingValue>;
  for (const [setting, fallback] of Object.entries(REALM_MESSAGE_GROUP_DEFAULTS) as [RealmMessagePermission, SystemGroupName][]) {
    const stored = row?.[setting];
    groups[setting] = stored === null || stored === undefined ? systemGroups[fallback] : (stored as GroupSettingValue);
  }
  if (!row) return { ...REALM_MESSAGE_SETTING_DEFAULTS, groups };
  return {
    allowMessageEditing: row.allow_message_editing,
    messageContentEditLimitSeconds: row.message_content_edit_limit_seconds,
    messageContentDeleteLimitSeconds: row.message_content_delete_limit_seconds,
    moveMessagesWithinStreamLimitSeconds: row.move_messages_within_stream_limit_seconds,
    moveMessagesBetweenStreamsLimitSeconds: row.move_messages_between_streams_limit_seconds,
    editHistoryVisibility: row.message_edit_history_visibility_policy,
    groups,
  };
}

/** Where the edit-history policy is all that is needed (fetching messages), one column is read. */
export async function loadEditHistoryVisibility(db: Knex, realmId: number): Promise<number> {
  const row = await db('realm_message_settings').where({ realm_id: realmId }).first('message_edit_history_visibility_policy');
  return row?.message_edit_history_visibility_policy ?? EDIT_HISTORY_VISIBILITY.all;
}
