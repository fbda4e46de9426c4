import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { createScheduledMessage, deleteScheduledMessage, editScheduledMessage } from '../core/scheduled-messages/actions';
import { listReminders, listScheduledMessages } from '../core/scheduled-messages/queries';
import { createReminder, deleteReminder } from '../core/scheduled-messages/reminders';
import type { User } from '../core/users/model';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import {
  CreateScheduledMessageInput,
  Reminder,
  ReminderPayload,
  ScheduledMessage,
  ScheduledMessagePayload,
  UpdateScheduledMessageInput,
} from '../schema/scheduled-messages';

const me = (ctx: GraphQLContext) => ctx.user as User;
const CLIENT = 'GraphQL';

/** The REST `to` for the addressee given as a channel id or recipient ids (exactly one of them). */
function restTo(channelId: number | null | undefined, recipientIds: number[] | null | undefined): string | undefined {
  const hasChannel = channelId !== null && channelId !== undefined;
  const hasRecipients = recipientIds !== null && recipientIds !== undefined;
  if (hasChannel && hasRecipients) throw errors.badRequest('Give channelId or recipientIds, not both');
  if (hasChannel) return String(channelId);
  if (hasRecipients) return JSON.stringify(recipientIds);
  return undefined;
}

@Resolver()
export class ScheduledMessageResolver {
  @Authorized()
  @Query(() => [ScheduledMessage], { description: 'Your scheduled messages not yet sent, earliest first.' })
  async scheduledMessages(@Ctx() ctx: GraphQLContext): Promise<ScheduledMessage[]> {
    return (await listScheduledMessages(ctx.deps.knex, ctx.deps.realmId, me(ctx).id)).map(ScheduledMessage.from);
  }

  @Authorized()
  @Query(() => [Reminder], { description: 'Your reminders not yet delivered, earliest first.' })
  async reminders(@Ctx() ctx: GraphQLContext): Promise<Reminder[]> {
    return (await listReminders(ctx.deps.knex, ctx.deps.realmId, me(ctx).id)).map(Reminder.from);
  }

  @Authorized()
  @Mutation(() => ScheduledMessagePayload, { description: 'Schedules a message, checked as sending it now would be.' })
  async createScheduledMessage(
    @Arg('input', () => CreateScheduledMessageInput) input: CreateScheduledMessageInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ScheduledMessagePayload> {
    const to = restTo(input.channelId, input.recipientIds);
    if (to === undefined) throw errors.missing('to');
    const id = await createScheduledMessage(ctx.deps, me(ctx), {
      type: input.type,
      to,
      topic: input.topic ?? null,
      content: input.content,
      scheduledDeliveryTimestamp: input.scheduledDeliveryTimestamp,
      readBySender: input.readBySender ?? undefined,
      client: CLIENT,
    });
    const created = (await listScheduledMessages(ctx.deps.knex, ctx.deps.realmId, me(ctx).id)).find((m) => m.scheduled_message_id === id)!;
    return { scheduledMessage: ScheduledMessage.from(created) };
  }

  @Authorized()
  @Mutation(() => ScheduledMessagePayload, { description: 'Changes a scheduled message; a failed one needs a new time.' })
  async updateScheduledMessage(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => UpdateScheduledMessageInput) input: UpdateScheduledMessageInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ScheduledMessagePayload> {
    const updated = await editScheduledMessage(ctx.deps, me(ctx), id, {
      type: input.type ?? undefined,
      to: restTo(input.channelId, input.recipientIds),
      topic: input.topic ?? undefined,
      content: input.content ?? undefined,
      scheduledDeliveryTimestamp: input.scheduledDeliveryTimestamp ?? undefined,
      client: CLIENT,
    });
    return { scheduledMessage: ScheduledMessage.from(updated) };
  }

  @Authorized()
  @Mutation(() => ScheduledMessagePayload, { description: 'Cancels a scheduled message; answers it as it was.' })
  async deleteScheduledMessage(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<ScheduledMessagePayload> {
    return { scheduledMessage: ScheduledMessage.from(await deleteScheduledMessage(ctx.deps, me(ctx), id)) };
  }

  @Authorized()
  @Mutation(() => ReminderPayload, { description: 'Asks the notification bot to remind you of a message at a time.' })
  async createReminder(
    @Arg('messageId', () => Int) messageId: number,
    @Arg('scheduledDeliveryTimestamp', () => Int) scheduledDeliveryTimestamp: number,
    @Arg('note', () => String, { nullable: true }) note: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ReminderPayload> {
    const id = await createReminder(ctx.deps, me(ctx), { messageId, scheduledDeliveryTimestamp, note: note ?? undefined, client: CLIENT });
    const created = (await listReminders(ctx.deps.knex, ctx.deps.realmId, me(ctx).id)).find((r) => r.reminder_id === id)!;
    return { reminder: Reminder.from(created) };
  }

  @Authorized()
  @Mutation(() => ReminderPayload, { description: 'Cancels a reminder; answers it as it was.' })
  async deleteReminder(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<ReminderPayload> {
    return { reminder: Reminder.from(await deleteReminder(ctx.deps, me(ctx), id)) };
  }
}
