import type { PubSub } from 'type-graphql';

/**
 * type-graphql wants a PubSub as soon as the schema has subscriptions, but Parley's subscriptions
 * read the event bus directly (each declares its own `subscribe`); topic-based ones are not used.
 */
export const busOnlyPubSub: PubSub = {
  publish() {
    throw new Error('publish events on the event bus (deps.bus), not on a GraphQL topic');
  },
  subscribe() {
    throw new Error('subscriptions declare their own subscribe function reading the event bus');
  },
};
