import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { createGroup, deactivateGroup, updateGroup, updateMembers, updateSubgroups } from '../core/groups/actions';
import { getGroup, groupMemberIds, groupSubgroupIds, isGroupMember, listGroups } from '../core/groups/queries';
import type { GroupPermissionSetting, GroupSettingChange, GroupSettingValue } from '../core/groups/setting-values';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { CreateUserGroupInput, SETTING_FIELDS, toGroupSettingValue, UpdateUserGroupInput, UserGroupType } from '../schema/groups';

const me = (ctx: GraphQLContext) => ctx.user as User;
const settingNames = Object.keys(SETTING_FIELDS) as GroupPermissionSetting[];

@Resolver(() => UserGroupType)
export class UserGroupResolver {
  @Authorized()
  @Query(() => [UserGroupType], { description: 'Named groups; members and administrators only.' })
  async userGroups(@Arg('includeDeactivated', { defaultValue: false }) includeDeactivated: boolean, @Ctx() ctx: GraphQLContext): Promise<UserGroupType[]> {
    return (await listGroups(ctx.deps, me(ctx), includeDeactivated)).map(UserGroupType.from);
  }

  @Authorized()
  @Query(() => UserGroupType)
  async userGroup(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<UserGroupType> {
    return UserGroupType.from(await getGroup(ctx.deps, me(ctx), id));
  }

  @Authorized()
  @Query(() => [Int], { description: 'Active members, through subgroups unless directMemberOnly.' })
  async userGroupMembers(
    @Arg('id', () => Int) id: number,
    @Arg('directMemberOnly', { defaultValue: false }) directMemberOnly: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<number[]> {
    return groupMemberIds(ctx.deps, me(ctx), id, directMemberOnly);
  }

  @Authorized()
  @Query(() => [Int])
  async userGroupSubgroups(
    @Arg('id', () => Int) id: number,
    @Arg('directSubgroupOnly', { defaultValue: false }) directSubgroupOnly: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<number[]> {
    return groupSubgroupIds(ctx.deps, me(ctx), id, directSubgroupOnly);
  }

  @Authorized()
  @Query(() => Boolean)
  async isUserGroupMember(
    @Arg('groupId', () => Int) groupId: number,
    @Arg('userId', () => Int) userId: number,
    @Arg('directMemberOnly', { defaultValue: false }) directMemberOnly: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    return isGroupMember(ctx.deps, me(ctx), groupId, userId, directMemberOnly);
  }

  @Authorized()
  @Mutation(() => UserGroupType)
  async createUserGroup(@Arg('input') input: CreateUserGroupInput, @Ctx() ctx: GraphQLContext): Promise<UserGroupType> {
    const settings: Partial<Record<GroupPermissionSetting, GroupSettingValue>> = {};
    for (const name of settingNames) {
      const value = input[SETTING_FIELDS[name]];
      if (value) settings[name] = toGroupSettingValue(value);
    }
    const id = await createGroup(ctx.deps, me(ctx), {
      name: input.name,
      description: input.description,
      members: input.members,
      subgroups: input.subgroups ?? undefined,
      settings,
    });
    return UserGroupType.from(await getGroup(ctx.deps, me(ctx), id));
  }

  @Authorized()
  @Mutation(() => UserGroupType)
  async updateUserGroup(@Arg('id', () => Int) id: number, @Arg('input') input: UpdateUserGroupInput, @Ctx() ctx: GraphQLContext): Promise<UserGroupType> {
    const settings: Partial<Record<GroupPermissionSetting, GroupSettingChange>> = {};
    for (const name of settingNames) {
      const change = input[SETTING_FIELDS[name]];
      if (!change) continue;
      settings[name] = { new: toGroupSettingValue(change.newValue) };
      if (change.oldValue) settings[name]!.old = toGroupSettingValue(change.oldValue);
    }
    await updateGroup(ctx.deps, me(ctx), id, {
      name: input.name ?? undefined,
      description: input.description ?? undefined,
      deactivated: input.deactivated ?? undefined,
      settings,
    });
    return UserGroupType.from(await getGroup(ctx.deps, me(ctx), id));
  }

  @Authorized()
  @Mutation(() => UserGroupType)
  async deactivateUserGroup(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<UserGroupType> {
    await deactivateGroup(ctx.deps, me(ctx), id);
    return UserGroupType.from(await getGroup(ctx.deps, me(ctx), id));
  }

  @Authorized()
  @Mutation(() => UserGroupType, { description: 'Adds and removes members and subgroups.' })
  async updateUserGroupMembers(
    @Arg('id', () => Int) id: number,
    @Arg('add', () => [Int], { nullable: true }) add: number[] | null,
    @Arg('delete', () => [Int], { nullable: true }) remove: number[] | null,
    @Arg('addSubgroups', () => [Int], { nullable: true }) addSubgroups: number[] | null,
    @Arg('deleteSubgroups', () => [Int], { nullable: true }) deleteSubgroups: number[] | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<UserGroupType> {
    await updateMembers(ctx.deps, me(ctx), id, {
      add: add ?? undefined,
      delete: remove ?? undefined,
      addSubgroups: addSubgroups ?? undefined,
      deleteSubgroups: deleteSubgroups ?? undefined,
    });
    return UserGroupType.from(await getGroup(ctx.deps, me(ctx), id));
  }

  @Authorized()
  @Mutation(() => UserGroupType)
  async updateUserGroupSubgroups(
    @Arg('id', () => Int) id: number,
    @Arg('add', () => [Int], { nullable: true }) add: number[] | null,
    @Arg('delete', () => [Int], { nullable: true }) remove: number[] | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<UserGroupType> {
    await updateSubgroups(ctx.deps, me(ctx), id, { add: add ?? undefined, delete: remove ?? undefined });
    return UserGroupType.from(await getGroup(ctx.deps, me(ctx), id));
  }
}
