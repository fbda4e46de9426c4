import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { REALM_DEFAULT_SETTINGS, SETTINGS } from '../core/settings/catalog';
import { updateOwnSettings, updateRealmDefaults } from '../core/settings/actions';
import { updateOtherUsersSettings } from '../core/settings/others';
import { realmDefaults, userSettings } from '../core/settings/store';
import { checkSettings } from '../core/settings/validate';
import { requireHuman } from '../core/presence/actions';
import { requireAdmin } from '../core/users/access';
import { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import {
  RealmUserSettingsDefaultsType,
  settingsFromInput,
  TargetUsersInput,
  UpdateOtherUsersSettingsInput,
  UpdateRealmUserSettingsDefaultsInput,
  UpdateSettingsInput,
  UserSettingsType,
} from '../schema/settings';

const me = (ctx: GraphQLContext) => ctx.user as User;

async function mySettings(ctx: GraphQLContext): Promise<UserSettingsType> {
  const fresh = await User.query(ctx.deps.knex).findById(me(ctx).id).throwIfNotFound();
  return UserSettingsType.from(await userSettings(ctx.deps.knex, fresh), fresh.timezone);
}

@Resolver()
export class SettingsResolver {
  @Authorized()
  @Query(() => UserSettingsType, { description: 'Your personal settings.' })
  async mySettings(@Ctx() ctx: GraphQLContext): Promise<UserSettingsType> {
    return mySettings(ctx);
  }

  @Authorized()
  @Mutation(() => UserSettingsType, { description: 'Changes your own settings (the same rules as PATCH /settings).' })
  async updateSettings(@Arg('input') input: UpdateSettingsInput, @Ctx() ctx: GraphQLContext): Promise<UserSettingsType> {
    requireHuman(me(ctx));
    await updateOwnSettings(
      ctx.deps,
      me(ctx),
      {
        settings: checkSettings(settingsFromInput(input, SETTINGS), () => true),
        fullName: input.fullName ?? undefined,
        timezone: input.timezone ?? undefined,
        oldPassword: input.oldPassword ?? undefined,
        newPassword: input.newPassword ?? undefined,
        email: input.email ?? undefined,
      },
      { sessionHash: ctx.sessionHash },
    );
    return mySettings(ctx);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: "Administrators: changes other users' settings (PATCH /settings with target_users); always true." })
  async updateOtherUsersSettings(
    @Arg('targetUsers') targetUsers: TargetUsersInput,
    @Arg('input') input: UpdateOtherUsersSettingsInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    const targets = { userIds: targetUsers.userIds ?? [], groupIds: targetUsers.groupIds ?? [], skipIfAlreadyEdited: targetUsers.skipIfAlreadyEdited };
    await updateOtherUsersSettings(
      ctx.deps,
      me(ctx),
      targets,
      checkSettings(settingsFromInput(input, SETTINGS), () => true),
    );
    return true;
  }

  @Authorized()
  @Query(() => RealmUserSettingsDefaultsType, { description: 'The settings new accounts start with.' })
  async realmUserSettingsDefaults(@Ctx() ctx: GraphQLContext): Promise<RealmUserSettingsDefaultsType> {
    return RealmUserSettingsDefaultsType.from(await realmDefaults(ctx.deps.knex, ctx.deps.realmId));
  }

  @Authorized()
  @Mutation(() => RealmUserSettingsDefaultsType, { description: 'Administrators only. Existing accounts keep their settings.' })
  async updateRealmUserSettingsDefaults(
    @Arg('input') input: UpdateRealmUserSettingsDefaultsInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<RealmUserSettingsDefaultsType> {
    requireAdmin(me(ctx));
    await updateRealmDefaults(
      ctx.deps,
      me(ctx),
      checkSettings(settingsFromInput(input, REALM_DEFAULT_SETTINGS), (s) => s.realmDefault),
    );
    return RealmUserSettingsDefaultsType.from(await realmDefaults(ctx.deps.knex, ctx.deps.realmId));
  }
}
