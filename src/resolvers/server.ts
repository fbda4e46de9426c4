import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { serverSettings } from '../core/realm/server-settings';
import type { User } from '../core/users/model';
import { narrowValidator } from '../realtime/narrow';
import { initialState } from '../core/register/register';
import { CAPABILITY_NAMES, ClientCapabilities } from '../realtime/capabilities';
import type { GraphQLContext } from '../schema/context';

const ALL_CAPABILITIES = Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, true])) as unknown as ClientCapabilities;

/** Server settings and the initial state (REST: GET /server_settings, POST /register). */
@Resolver()
export class ServerResolver {
  @Query(() => GraphQLJSONObject, {
    description: "What a client may learn before signing in, in REST's shape (REST: GET /server_settings); needs no authentication.",
  })
  async serverSettings(@Ctx() ctx: GraphQLContext): Promise<Record<string, unknown>> {
    return serverSettings(ctx.deps);
  }

  @Authorized()
  @Query(() => GraphQLJSONObject, {
    description:
      'The state POST /register returns, in its shape, for a client that follows changes with the `events` subscription: subscribe first, then ask. ' +
      'Every client capability is declared, as for the subscription; no event queue is created.',
  })
  async initialState(
    @Ctx() ctx: GraphQLContext,
    @Arg('fetchEventTypes', () => [String], { nullable: true, description: 'State sections to return; all when absent.' }) fetchEventTypes: string[] | null,
    @Arg('applyMarkdown', { defaultValue: true }) applyMarkdown: boolean,
    @Arg('includeSubscribers', { defaultValue: false }) includeSubscribers: boolean,
    @Arg('allPublicStreams', { defaultValue: false }) allPublicStreams: boolean,
    @Arg('narrow', () => [[String]], { nullable: true }) narrow: string[][] | null,
  ): Promise<Record<string, unknown>> {
    return initialState(ctx.deps, ctx.user as User, {
      applyMarkdown,
      clientGravatar: false,
      includeSubscribers,
      slimPresence: true,
      fetchEventTypes: fetchEventTypes ?? undefined,
      allPublicStreams,
      narrow: narrowValidator(narrow ?? [], 'narrow'),
      capabilities: ALL_CAPABILITIES,
      queueLifespanSecs: 0,
    });
  }
}
