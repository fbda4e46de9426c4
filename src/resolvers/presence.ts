import { Arg, Authorized, Ctx, Float, Int, Mutation, Query, Resolver } from 'type-graphql';
import { parseStatus, reportPresence, requireHuman } from '../core/presence/actions';
import type { ModernPresence } from '../core/presence/format';
import { realmPresence, userPresence } from '../core/presence/queries';
import type { User } from '../core/users/model';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import { PresenceEntryType, PresenceSnapshotType, UpdatePresenceInput } from '../schema/presence';

const me = (ctx: GraphQLContext) => ctx.user as User;

function checkUpdateId(value: number | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isSafeInteger(value)) throw errors.badRequest('last_update_id is not an integer');
  return value;
}

/** Presence over GraphQL, always in the modern format (timestamps keyed by user id). */
@Resolver()
export class PresenceResolver {
  @Authorized()
  @Mutation(() => PresenceSnapshotType, { description: "Reports your presence and, unless pingOnly, returns everyone's." })
  async updatePresence(@Arg('input') input: UpdatePresenceInput, @Ctx() ctx: GraphQLContext): Promise<PresenceSnapshotType> {
    requireHuman(me(ctx));
    const status = parseStatus(input.status);
    const lastUpdateId = checkUpdateId(input.lastUpdateId);
    await reportPresence(ctx.deps, me(ctx), status);
    if (input.pingOnly) return PresenceSnapshotType.from({}, lastUpdateId ?? -1, null);
    const serverTimestamp = Date.now() / 1000;
    const snapshot = await realmPresence(ctx.deps, me(ctx), {
      slim: true,
      lastUpdateId,
      historyLimitDays: input.historyLimitDays ?? null,
    });
    return PresenceSnapshotType.from(snapshot.presences as Record<string, ModernPresence>, snapshot.presence_last_update_id, serverTimestamp);
  }

  @Authorized()
  @Query(() => PresenceSnapshotType, { description: 'Presence of the organization, or what changed after lastUpdateId.' })
  async presences(
    @Ctx() ctx: GraphQLContext,
    @Arg('lastUpdateId', () => Float, { nullable: true }) lastUpdateId?: number,
    @Arg('historyLimitDays', () => Int, { nullable: true }) historyLimitDays?: number,
  ): Promise<PresenceSnapshotType> {
    const serverTimestamp = Date.now() / 1000;
    const snapshot = await realmPresence(ctx.deps, me(ctx), {
      slim: true,
      lastUpdateId: checkUpdateId(lastUpdateId),
      historyLimitDays: historyLimitDays ?? null,
    });
    return PresenceSnapshotType.from(snapshot.presences as Record<string, ModernPresence>, snapshot.presence_last_update_id, serverTimestamp);
  }

  @Authorized()
  @Query(() => PresenceEntryType, { description: "One user's presence." })
  async userPresence(@Arg('userId', () => Int) userId: number, @Ctx() ctx: GraphQLContext): Promise<PresenceEntryType> {
    const entry = (await userPresence(ctx.deps, me(ctx), String(userId), true)) as ModernPresence;
    return PresenceEntryType.from(userId, entry);
  }
}
