import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Authorized, Resolver, Root, Subscription } from 'type-graphql';
import type { User } from '../core/users/model';
import { isGuestRole } from '../core/users/roles';
import { errors } from '../errors';
import type { ZulipEvent } from '../realtime/bus';
import type { NarrowTerm } from '../realtime/narrow';
import { eventStream, streamDescriptor, StreamOptions } from '../realtime/stream';
import type { GraphQLContext } from '../schema/context';
import { MessageEventType, ReactionEventType } from '../schema/events';
import { EventBase, EventKindEnum, typedEvent } from '../schema/event-types';
import type { EventKind } from '../realtime/event-kinds';

interface SubscribeData {
  args: { eventTypes?: string[] | null; narrow?: string[][] | null; allPublicStreams?: boolean | null };
  context: GraphQLContext;
}

function subscribeWith(fixedTypes: string[] | null) {
  return ({ args, context }: SubscribeData) => {
    const options: StreamOptions = {
      eventTypes: fixedTypes ?? args.eventTypes ?? null,
      narrow: (args.narrow ?? []) as NarrowTerm[],
      allPublicStreams: args.allPublicStreams ?? false,
    };
    const user = context.user as User;
    if (options.allPublicStreams && isGuestRole(user.role)) throw errors.badRequest('User not authorized for this query');
    return eventStream(context.deps, streamDescriptor(context.deps, user, options), context.gate);
  };
}

const narrowDoc = 'Message filter as in POST /register: [operator, operand] pairs, e.g. [["is", "dm"]].';

/**
 * Live subscriptions (over graphql-ws on /graphql), fed by the same bus as the REST event queues.
 */
@Resolver()
export class EventsResolver {
  @Authorized()
  @Subscription(() => EventBase, {
    subscribe: subscribeWith(null),
    description: 'Every event an event queue registered with the same options would receive, typed by kind (each with an eventId from 0).',
  })
  events(
    @Root() event: ZulipEvent,
    @Arg('eventTypes', () => [EventKindEnum], { nullable: true, description: 'Event kinds to receive; all when absent.' }) _eventTypes: EventKind[] | null,
    @Arg('narrow', () => [[String]], { nullable: true, description: narrowDoc }) _narrow: string[][] | null,
    @Arg('allPublicStreams', () => Boolean, { nullable: true, description: 'Also receive messages of public channels one is not subscribed to.' })
    _allPublicStreams: boolean | null,
  ): EventBase {
    return typedEvent(event);
  }

  @Authorized()
  @Subscription(() => GraphQLJSONObject, {
    subscribe: subscribeWith(null),
    description: "The same events as `events`, in Zulip's REST shape (snake_case JSON, each with an id from 0).",
  })
  zulipEvents(
    @Root() event: ZulipEvent,
    @Arg('eventTypes', () => [String], { nullable: true, description: 'Event types to receive; all when absent.' }) _eventTypes: string[] | null,
    @Arg('narrow', () => [[String]], { nullable: true, description: narrowDoc }) _narrow: string[][] | null,
    @Arg('allPublicStreams', () => Boolean, { nullable: true, description: 'Also receive messages of public channels one is not subscribed to.' })
    _allPublicStreams: boolean | null,
  ): ZulipEvent {
    return event;
  }

  @Authorized()
  @Subscription(() => MessageEventType, { subscribe: subscribeWith(['message']), description: 'New messages the subscriber receives.' })
  messages(
    @Root() event: ZulipEvent,
    @Arg('narrow', () => [[String]], { nullable: true, description: narrowDoc }) _narrow: string[][] | null,
    @Arg('allPublicStreams', () => Boolean, { nullable: true }) _allPublicStreams: boolean | null,
  ): MessageEventType {
    return MessageEventType.from(event);
  }

  @Authorized()
  @Subscription(() => ReactionEventType, { subscribe: subscribeWith(['reaction']), description: 'Reactions on messages the subscriber can see.' })
  reactions(@Root() event: ZulipEvent): ReactionEventType {
    return ReactionEventType.from(event);
  }
}
