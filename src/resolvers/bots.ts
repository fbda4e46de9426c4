import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { createBot, deactivateBot, getBotApiKey, regenerateBotApiKey, updateBot } from '../core/bots/actions';
import { BotType } from '../core/bots/constants';
import { botDetailsById, botDetailsFor } from '../core/bots/queries';
import { checkServiceUrl } from '../core/bots/validation';
import type { User } from '../core/users/model';
import { Bot, CreateBotInput, CreateBotPayload, DeactivateBotPayload, RegenerateBotApiKeyPayload, UpdateBotInput, UpdateBotPayload } from '../schema/bots';
import type { GraphQLContext } from '../schema/context';

const me = (ctx: GraphQLContext) => ctx.user as User;
const orUndefined = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

@Resolver(() => Bot)
export class BotResolver {
  @Authorized()
  @Query(() => [Bot], { description: 'The bots you administer: every bot for administrators, your own for others.' })
  async bots(@Ctx() ctx: GraphQLContext): Promise<Bot[]> {
    return (await botDetailsFor(ctx.deps, me(ctx))).map(Bot.from);
  }

  @Authorized()
  @Query(() => String, { description: "A bot's API key, for its owner and administrators (GET /bots/{bot_id}/api_key)." })
  async botApiKey(@Arg('botId', () => Int) botId: number, @Ctx() ctx: GraphQLContext): Promise<string> {
    return getBotApiKey(ctx.deps, me(ctx), botId);
  }

  @Authorized()
  @Mutation(() => CreateBotPayload, { description: 'Creates a bot you own (POST /bots).' })
  async createBot(@Arg('input', () => CreateBotInput) input: CreateBotInput, @Ctx() ctx: GraphQLContext): Promise<CreateBotPayload> {
    const result = await createBot(ctx.deps, me(ctx), {
      fullName: input.fullName,
      shortName: input.shortName,
      botType: input.botType ?? BotType.GENERIC,
      payloadUrl: checkServiceUrl(input.payloadUrl ?? '', 'payload_url'),
      serviceName: orUndefined(input.serviceName),
      interfaceType: input.interfaceType ?? 1,
      defaultSendingStream: orUndefined(input.defaultSendingStream),
      defaultEventsRegisterStream: orUndefined(input.defaultEventsRegisterStream),
      defaultAllPublicStreams: orUndefined(input.defaultAllPublicStreams),
    });
    return Object.assign(new CreateBotPayload(), { bot: Bot.from(await botDetailsById(ctx.deps, result.user_id)), apiKey: result.api_key });
  }

  @Authorized()
  @Mutation(() => UpdateBotPayload, { description: 'Changes a bot you administer (PATCH /bots/{bot_id}).' })
  async updateBot(
    @Arg('botId', () => Int) botId: number,
    @Arg('input', () => UpdateBotInput) input: UpdateBotInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<UpdateBotPayload> {
    const url = orUndefined(input.servicePayloadUrl);
    await updateBot(ctx.deps, me(ctx), botId, {
      fullName: orUndefined(input.fullName),
      shortName: orUndefined(input.shortName),
      role: orUndefined(input.role),
      botOwnerId: orUndefined(input.botOwnerId),
      servicePayloadUrl: url === undefined ? undefined : checkServiceUrl(url, 'service_payload_url'),
      serviceInterface: input.serviceInterface ?? 1,
      defaultSendingStream: orUndefined(input.defaultSendingStream),
      defaultEventsRegisterStream: orUndefined(input.defaultEventsRegisterStream),
      defaultAllPublicStreams: orUndefined(input.defaultAllPublicStreams),
    });
    return Object.assign(new UpdateBotPayload(), { bot: Bot.from(await botDetailsById(ctx.deps, botId)) });
  }

  @Authorized()
  @Mutation(() => DeactivateBotPayload, { description: 'Deactivates a bot you administer (DELETE /bots/{bot_id}).' })
  async deactivateBot(@Arg('botId', () => Int) botId: number, @Ctx() ctx: GraphQLContext): Promise<DeactivateBotPayload> {
    await deactivateBot(ctx.deps, me(ctx), botId);
    return Object.assign(new DeactivateBotPayload(), { bot: Bot.from(await botDetailsById(ctx.deps, botId)) });
  }

  @Authorized()
  @Mutation(() => RegenerateBotApiKeyPayload, { description: "Replaces a bot's API keys with one new key." })
  async regenerateBotApiKey(@Arg('botId', () => Int) botId: number, @Ctx() ctx: GraphQLContext): Promise<RegenerateBotApiKeyPayload> {
    const apiKey = await regenerateBotApiKey(ctx.deps, me(ctx), botId);
    return Object.assign(new RegenerateBotApiKeyPayload(), { bot: Bot.from(await botDetailsById(ctx.deps, botId)), apiKey });
  }
}
