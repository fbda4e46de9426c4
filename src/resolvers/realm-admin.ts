import { GraphQLJSON } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { addDefaultChannel, removeDefaultChannel } from '../core/default-channels/actions';
import { defaultChannelIds } from '../core/default-channels/store';
import { addRealmDomain, changeRealmDomain, removeRealmDomain } from '../core/realm-domains/actions';
import { realmDomains } from '../core/realm-domains/store';
import { updateRealmSettings } from '../core/realm/actions';
import { deactivateRealm } from '../core/realm/activation';
import { decodeRealmSettingChanges } from '../core/realm/setting-input';
import { currentRealmSettings } from '../core/realm/values';
import type { User } from '../core/users/model';
import { isGuestRole } from '../core/users/roles';
import { sendTestWelcomeBotMessage } from '../core/system-bots/welcome-bot';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import { RealmSettingsType } from '../schema/realm';
import {
  DeactivateRealmPayload,
  DefaultChannelsPayload,
  RealmDomain,
  RealmDomainPayload,
  RemoveRealmDomainPayload,
  UpdateRealmSettingsPayload,
} from '../schema/realm-admin';

const me = (ctx: GraphQLContext) => ctx.user as User;

/** Settings may be named as Zulip names them or camelCased as the realmSettings fields are. */
const zulipName = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

@Resolver()
export class RealmAdminResolver {
  @Authorized()
  @Mutation(() => UpdateRealmSettingsPayload, {
    description: 'Changes organization settings (PATCH /realm): values as PATCH /realm takes them, group settings as {new, old}.',
  })
  async updateRealmSettings(@Arg('settings', () => GraphQLJSON) settings: unknown, @Ctx() ctx: GraphQLContext): Promise<UpdateRealmSettingsPayload> {
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) throw errors.badRequest('settings is not a dict');
    const input = Object.fromEntries(Object.entries(settings).map(([name, value]) => [zulipName(name), value]));
    const changed = await updateRealmSettings(ctx.deps, me(ctx), decodeRealmSettingChanges(input));
    return Object.assign(new UpdateRealmSettingsPayload(), {
      changed,
      settings: RealmSettingsType.from((await currentRealmSettings(ctx.deps)).values),
    });
  }

  @Authorized()
  @Mutation(() => DeactivateRealmPayload, { description: 'Deactivates the organization (owners only); the operator CLI reactivates it.' })
  async deactivateRealm(@Ctx() ctx: GraphQLContext): Promise<DeactivateRealmPayload> {
    await deactivateRealm(ctx.deps, me(ctx));
    return Object.assign(new DeactivateRealmPayload(), { deactivated: true });
  }

  @Authorized()
  @Mutation(() => Int, {
    description:
      'Has the Welcome Bot send you (an administrator) its message with this custom welcome text, as a preview; returns the message id (REST: POST /realm/test_welcome_bot_custom_message).',
  })
  async testWelcomeBotMessage(@Arg('welcomeMessageCustomText') text: string, @Ctx() ctx: GraphQLContext): Promise<number> {
    return sendTestWelcomeBotMessage(ctx.deps, me(ctx), text);
  }

  @Authorized()
  @Query(() => [Int], { description: "The default channels' ids (empty for guests)." })
  async defaultChannelIds(@Ctx() ctx: GraphQLContext): Promise<number[]> {
    return isGuestRole(me(ctx).role) ? [] : defaultChannelIds(ctx.deps.knex, ctx.deps.realmId);
  }

  @Authorized()
  @Mutation(() => DefaultChannelsPayload, { description: 'Makes a public channel a default channel (administrators).' })
  async addDefaultChannel(@Arg('channelId', () => Int) channelId: number, @Ctx() ctx: GraphQLContext): Promise<DefaultChannelsPayload> {
    await addDefaultChannel(ctx.deps, me(ctx), channelId);
    return Object.assign(new DefaultChannelsPayload(), { defaultChannelIds: await defaultChannelIds(ctx.deps.knex, ctx.deps.realmId) });
  }

  @Authorized()
  @Mutation(() => DefaultChannelsPayload, { description: 'Stops a channel being a default channel (administrators).' })
  async removeDefaultChannel(@Arg('channelId', () => Int) channelId: number, @Ctx() ctx: GraphQLContext): Promise<DefaultChannelsPayload> {
    await removeDefaultChannel(ctx.deps, me(ctx), channelId);
    return Object.assign(new DefaultChannelsPayload(), { defaultChannelIds: await defaultChannelIds(ctx.deps.knex, ctx.deps.realmId) });
  }

  @Authorized()
  @Query(() => [RealmDomain], { description: "The organization's email domains." })
  async realmDomains(@Ctx() ctx: GraphQLContext): Promise<RealmDomain[]> {
    return (await realmDomains(ctx.deps.knex, ctx.deps.realmId)).map(RealmDomain.from);
  }

  @Authorized()
  @Mutation(() => RealmDomainPayload, { description: 'Adds an email domain (owners).' })
  async addRealmDomain(
    @Arg('domain') domain: string,
    @Arg('allowSubdomains') allowSubdomains: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<RealmDomainPayload> {
    const created = await addRealmDomain(ctx.deps, me(ctx), domain, allowSubdomains);
    return Object.assign(new RealmDomainPayload(), { realmDomain: RealmDomain.from({ domain: created.domain, allow_subdomains: allowSubdomains }) });
  }

  @Authorized()
  @Mutation(() => RealmDomainPayload, { description: 'Changes whether an email domain allows its subdomains (owners).' })
  async changeRealmDomain(
    @Arg('domain') domain: string,
    @Arg('allowSubdomains') allowSubdomains: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<RealmDomainPayload> {
    await changeRealmDomain(ctx.deps, me(ctx), domain, allowSubdomains);
    return Object.assign(new RealmDomainPayload(), { realmDomain: RealmDomain.from({ domain, allow_subdomains: allowSubdomains }) });
  }

  @Authorized()
  @Mutation(() => RemoveRealmDomainPayload, { description: 'Removes an email domain (owners).' })
  async removeRealmDomain(@Arg('domain') domain: string, @Ctx() ctx: GraphQLContext): Promise<RemoveRealmDomainPayload> {
    await removeRealmDomain(ctx.deps, me(ctx), domain);
    return Object.assign(new RemoveRealmDomainPayload(), { domain });
  }
}
