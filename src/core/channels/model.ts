import { Model } from 'objection';
import type { GroupSettingValue } from './group-settings';
import type { TopicsPolicy } from './constants';

export class Stream extends Model {
  static tableName = 'streams';
  // Group-setting columns are jsonb: objection serializes them on write.
  static get jsonAttributes() {
    return [
      'can_add_subscribers_group',
      'can_administer_channel_group',
      'can_create_topic_group',
      'can_delete_any_message_group',
      'can_delete_own_message_group',
      'can_move_messages_out_of_channel_group',
      'can_move_messages_within_channel_group',
      'can_remove_subscribers_group',
      'can_send_message_group',
      'can_subscribe_group',
      'can_resolve_topics_group',
    ];
  }

  id!: number;
  realm_id!: number;
  name!: string;
  description!: string;
  rendered_description!: string;
  invite_only!: boolean;
  is_web_public!: boolean;
  history_public_to_subscribers!: boolean;
  folder_id!: number | null;
  topics_policy!: TopicsPolicy;
  message_retention_days!: number | null;
  creator_id!: number | null;
  date_created!: Date;
  deactivated!: boolean;
  first_message_id!: number | null;
  is_recently_active!: boolean;
  can_add_subscribers_group!: GroupSettingValue;
  can_administer_channel_group!: GroupSettingValue;
  can_create_topic_group!: GroupSettingValue;
  can_delete_any_message_group!: GroupSettingValue;
  can_delete_own_message_group!: GroupSettingValue;
  can_move_messages_out_of_channel_group!: GroupSettingValue;
  can_move_messages_within_channel_group!: GroupSettingValue;
  can_remove_subscribers_group!: GroupSettingValue;
  can_send_message_group!: GroupSettingValue;
  can_subscribe_group!: GroupSettingValue;
  can_resolve_topics_group!: GroupSettingValue;

  /** Public channels are visible to every non-guest member. */
  isPublic(): boolean {
    return !this.invite_only;
  }
}

export class Subscription extends Model {
  static tableName = 'subscriptions';

  id!: number;
  realm_id!: number;
  user_id!: number;
  stream_id!: number;
  active!: boolean;
  color!: string;
  is_muted!: boolean;
  pin_to_top!: boolean;
  desktop_notifications!: boolean | null;
  audible_notifications!: boolean | null;
  push_notifications!: boolean | null;
  email_notifications!: boolean | null;
  wildcard_mentions_notify!: boolean | null;
}
