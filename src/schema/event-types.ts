import { GraphQLJSON } from 'graphql-scalars';
import { Field, Float, InterfaceType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { ZulipEvent } from '../realtime/bus';
import { EVENT_KINDS, EventFieldType, EventKind, eventKinds } from '../realtime/event-kinds';

/**
 * The typed event stream: one GraphQL object type per event kind, generated from the table in
 * src/realtime/event-kinds.ts that REST event queues are checked against. Field names are the
 * camelCase of Zulip's; nested objects keep Zulip's shape (JSON).
 */

@InterfaceType('Event', {
  description: 'An event of the live stream; __typename (or type) tells its kind.',
  resolveType: (value: { type?: string }) => (value.type ? typeNameOf(value.type as EventKind) : undefined),
})
export abstract class EventBase {
  @Field(() => Int, { description: 'Position of the event in this subscription, from 0.' }) eventId!: number;
  @Field({ description: "Zulip's event type, e.g. message or realm_user." }) type!: string;
}

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const pascal = (snake: string) => camel(snake).replace(/^./, (c) => c.toUpperCase());

export const typeNameOf = (kind: EventKind): string => `${pascal(kind)}Event`;

const scalarOf: Record<EventFieldType, () => unknown> = {
  Int: () => Int,
  Float: () => Float,
  String: () => String,
  Boolean: () => Boolean,
  JSON: () => GraphQLJSON,
  '[Int]': () => [Int],
  '[String]': () => [String],
};

type EventClass = new () => EventBase;

function eventClass(kind: EventKind): EventClass {
  const name = typeNameOf(kind);
  const cls = { [name]: class extends EventBase {} }[name] as EventClass;
  const fields: Record<string, EventFieldType> = EVENT_KINDS[kind].fields;
  for (const [field, type] of Object.entries(fields)) {
    Field(scalarOf[type] as () => never, { nullable: true, description: `Zulip's \`${field}\`.` })(cls.prototype, camel(field));
  }
  ObjectType(name, { implements: EventBase, description: EVENT_KINDS[kind].description })(cls);
  return cls;
}

export const eventClasses = new Map<EventKind, EventClass>(eventKinds.map((kind) => [kind, eventClass(kind)]));

/** The kind names, for the `eventTypes` filter. */
export const EventKindEnum = Object.fromEntries(eventKinds.map((kind) => [kind, kind])) as Record<EventKind, EventKind>;
registerEnumType(EventKindEnum, { name: 'EventKind', description: 'The kinds of events the live stream carries.' });

/** A Zulip-shaped event as its GraphQL type; fields the kind does not declare are not carried. */
export function typedEvent(event: ZulipEvent): EventBase {
  const cls = eventClasses.get(event.type as EventKind);
  if (!cls) throw new Error(`event kind ${event.type} is not listed in src/realtime/event-kinds.ts`);
  const typed = Object.assign(new cls(), { eventId: event.id as number, type: event.type });
  const fields: Record<string, EventFieldType> = EVENT_KINDS[event.type as EventKind].fields;
  for (const field of Object.keys(fields)) (typed as unknown as Record<string, unknown>)[camel(field)] = event[field] ?? null;
  return typed;
}
