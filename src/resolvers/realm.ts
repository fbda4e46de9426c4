import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { currentRealmSettings } from '../core/realm/values';
import type { GraphQLContext } from '../schema/context';
import { RealmSettingsType } from '../schema/realm';

@Resolver()
export class RealmResolver {
  @Authorized()
  @Query(() => RealmSettingsType, { description: "The organization's settings (everyone in it may read them)." })
  async realmSettings(@Ctx() ctx: GraphQLContext): Promise<RealmSettingsType> {
    return RealmSettingsType.from((await currentRealmSettings(ctx.deps)).values);
  }
}
