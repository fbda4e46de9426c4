import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { BotDetails } from '../core/bots/view';

@ObjectType({ description: 'The service an outgoing-webhook bot calls.' })
export class BotService {
  @Field() baseUrl!: string;
  @Field(() => Int, { description: "1: Zulip's format; 2: Slack's outgoing webhooks." }) interface!: number;
  @Field({ description: 'Sent with every request, so the service can tell it comes from this server.' }) token!: string;
}

@ObjectType({ description: 'A bot, as those who administer it (its owner, administrators) see it.' })
export class Bot {
  @Field(() => ID) id!: string;
  @Field(() => Int) userId!: number;
  @Field() email!: string;
  @Field() fullName!: string;
  @Field(() => Int, { nullable: true, description: '1 generic, 2 incoming webhook, 3 outgoing webhook.' }) botType!: number | null;
  @Field() isActive!: boolean;
  @Field(() => String, { nullable: true }) defaultSendingStream!: string | null;
  @Field(() => String, { nullable: true }) defaultEventsRegisterStream!: string | null;
  @Field() defaultAllPublicStreams!: boolean;
  @Field() avatarUrl!: string;
  @Field(() => Int, { nullable: true }) ownerId!: number | null;
  @Field(() => [BotService]) services!: BotService[];

  static from(dict: BotDetails): Bot {
    return Object.assign(new Bot(), {
      id: String(dict.user_id),
      userId: dict.user_id,
      email: dict.email,
      fullName: dict.full_name,
      botType: dict.bot_type,
      isActive: dict.is_active,
      defaultSendingStream: dict.default_sending_stream,
      defaultEventsRegisterStream: dict.default_events_register_stream,
      defaultAllPublicStreams: dict.default_all_public_streams,
      avatarUrl: dict.avatar_url,
      ownerId: dict.owner_id,
      services: dict.services.map((s) => Object.assign(new BotService(), { baseUrl: s.base_url, interface: s.interface, token: s.token })),
    });
  }
}

@ObjectType({ description: 'A new bot and its API key (shown only here: keys are stored hashed).' })
export class CreateBotPayload {
  @Field(() => Bot) bot!: Bot;
  @Field() apiKey!: string;
}

@ObjectType()
export class UpdateBotPayload {
  @Field(() => Bot) bot!: Bot;
}

@ObjectType()
export class DeactivateBotPayload {
  @Field(() => Bot) bot!: Bot;
}

@ObjectType({ description: "The bot's one new key; its earlier keys no longer work." })
export class RegenerateBotApiKeyPayload {
  @Field(() => Bot) bot!: Bot;
  @Field() apiKey!: string;
}

@InputType()
export class CreateBotInput {
  @Field() fullName!: string;
  @Field({ description: "The bot's address is <shortName>-bot@<organization domain>." }) shortName!: string;
  @Field(() => Int, { defaultValue: 1 }) botType!: number;
  @Field({ defaultValue: '', description: 'Outgoing-webhook bots: the URL messages are posted to.' }) payloadUrl!: string;
  @Field(() => Int, { defaultValue: 1 }) interfaceType!: number;
  @Field(() => String, { nullable: true }) serviceName?: string | null;
  @Field(() => String, { nullable: true }) defaultSendingStream?: string | null;
  @Field(() => String, { nullable: true }) defaultEventsRegisterStream?: string | null;
  @Field(() => Boolean, { nullable: true }) defaultAllPublicStreams?: boolean | null;
}

@InputType()
export class UpdateBotInput {
  @Field(() => String, { nullable: true }) fullName?: string | null;
  @Field(() => String, { nullable: true, description: "Changes the bot's address to <shortName>-bot@<organization domain>." }) shortName?: string | null;
  @Field(() => Int, { nullable: true }) role?: number | null;
  @Field(() => Int, { nullable: true }) botOwnerId?: number | null;
  @Field(() => String, { nullable: true }) servicePayloadUrl?: string | null;
  @Field(() => Int, { nullable: true, defaultValue: 1 }) serviceInterface?: number | null;
  @Field(() => String, { nullable: true, description: 'A channel name; "" for none.' }) defaultSendingStream?: string | null;
  @Field(() => String, { nullable: true, description: 'A channel name; "" for none.' }) defaultEventsRegisterStream?: string | null;
  @Field(() => Boolean, { nullable: true }) defaultAllPublicStreams?: boolean | null;
}
