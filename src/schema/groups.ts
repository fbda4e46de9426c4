import { Field, InputType, Int, ObjectType, ID } from 'type-graphql';
import type { GroupSettingValue } from '../core/groups/setting-values';
import type { UserGroupDict } from '../core/groups/view';

@ObjectType('GroupSettingValue', { description: 'Who holds a permission: one named group, or a collection of users and groups.' })
export class GroupSettingValueType {
  @Field(() => Int, { nullable: true, description: 'The named group; null for a collection.' }) groupId!: number | null;
  @Field(() => [Int], { nullable: true, description: 'Users of a collection; null for a named group.' }) directMembers!: number[] | null;
  @Field(() => [Int], { nullable: true, description: 'Groups of a collection; null for a named group.' }) directSubgroups!: number[] | null;

  static from(value: GroupSettingValue): GroupSettingValueType {
    return typeof value === 'number'
      ? Object.assign(new GroupSettingValueType(), { groupId: value, directMembers: null, directSubgroups: null })
      : Object.assign(new GroupSettingValueType(), {
          groupId: null,
          directMembers: value.direct_members,
          directSubgroups: value.direct_subgroups,
        });
  }
}

@InputType({ description: 'Either groupId, or directMembers and/or directSubgroups.' })
export class GroupSettingValueInput {
  @Field(() => Int, { nullable: true }) groupId?: number | null;
  @Field(() => [Int], { nullable: true }) directMembers?: number[] | null;
  @Field(() => [Int], { nullable: true }) directSubgroups?: number[] | null;
}

export function toGroupSettingValue(input: GroupSettingValueInput): GroupSettingValue {
  if (input.groupId !== undefined && input.groupId !== null) return input.groupId;
  return { direct_members: input.directMembers ?? [], direct_subgroups: input.directSubgroups ?? [] };
}

@InputType({ description: 'A new value, optionally with the value the client believes is current.' })
export class GroupSettingChangeInput {
  @Field(() => GroupSettingValueInput) newValue!: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) oldValue?: GroupSettingValueInput | null;
}

@ObjectType('UserGroup', { description: 'A named user group.' })
export class UserGroupType {
  @Field(() => ID) id!: number;
  @Field() name!: string;
  @Field() description!: string;
  @Field(() => [Int], { description: 'Active direct members (see members for the accounts).' }) memberIds!: number[];
  @Field(() => [Int]) directSubgroupIds!: number[];
  @Field(() => Int, { nullable: true }) creatorId!: number | null;
  @Field(() => Int, { nullable: true, description: 'UNIX time of creation; null for system groups.' }) dateCreated!: number | null;
  @Field() isSystemGroup!: boolean;
  @Field() deactivated!: boolean;
  @Field(() => GroupSettingValueType) canAddMembersGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canJoinGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canLeaveGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canManageGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canMentionGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canRemoveMembersGroup!: GroupSettingValueType;

  static from(dict: UserGroupDict): UserGroupType {
    return Object.assign(new UserGroupType(), {
      id: dict.id,
      name: dict.name,
      description: dict.description,
      memberIds: dict.members,
      directSubgroupIds: dict.direct_subgroup_ids,
      creatorId: dict.creator_id,
      dateCreated: dict.date_created,
      isSystemGroup: dict.is_system_group,
      deactivated: dict.deactivated,
      canAddMembersGroup: GroupSettingValueType.from(dict.can_add_members_group),
      canJoinGroup: GroupSettingValueType.from(dict.can_join_group),
      canLeaveGroup: GroupSettingValueType.from(dict.can_leave_group),
      canManageGroup: GroupSettingValueType.from(dict.can_manage_group),
      canMentionGroup: GroupSettingValueType.from(dict.can_mention_group),
      canRemoveMembersGroup: GroupSettingValueType.from(dict.can_remove_members_group),
    });
  }
}

@InputType()
export class CreateUserGroupInput {
  @Field() name!: string;
  @Field() description!: string;
  @Field(() => [Int]) members!: number[];
  @Field(() => [Int], { nullable: true }) subgroups?: number[] | null;
  @Field(() => GroupSettingValueInput, { nullable: true }) canAddMembersGroup?: GroupSettingValueInput | null;
  @Field(() => GroupSettingValueInput, { nullable: true }) canJoinGroup?: GroupSettingValueInput | null;
  @Field(() => GroupSettingValueInput, { nullable: true }) canLeaveGroup?: GroupSettingValueInput | null;
  @Field(() => GroupSettingValueInput, { nullable: true }) canManageGroup?: GroupSettingValueInput | null;
  @Field(() => GroupSettingValueInput, { nullable: true }) canMentionGroup?: GroupSettingValueInput | null;
  @Field(() => GroupSettingValueInput, { nullable: true }) canRemoveMembersGroup?: GroupSettingValueInput | null;
}

@InputType()
export class UpdateUserGroupInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true, description: 'false reactivates a deactivated group.' }) deactivated?: boolean;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canAddMembersGroup?: GroupSettingChangeInput | null;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canJoinGroup?: GroupSettingChangeInput | null;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canLeaveGroup?: GroupSettingChangeInput | null;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canManageGroup?: GroupSettingChangeInput | null;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canMentionGroup?: GroupSettingChangeInput | null;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canRemoveMembersGroup?: GroupSettingChangeInput | null;
}

/** GraphQL names of the permission settings, keyed by their API names. */
export const SETTING_FIELDS = {
  can_add_members_group: 'canAddMembersGroup',
  can_join_group: 'canJoinGroup',
  can_leave_group: 'canLeaveGroup',
  can_manage_group: 'canManageGroup',
  can_mention_group: 'canMentionGroup',
  can_remove_members_group: 'canRemoveMembersGroup',
} as const;
