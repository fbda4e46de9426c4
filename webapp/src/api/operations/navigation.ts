import { graphql } from '../graphql';

/** A channel's topics, most recent first, for the sidebar's topic list. */
export const TopicsQuery = graphql(`
  query Topics($streamId: Int!) {
    topics(streamId: $streamId) { name maxId }
  }
`);

export const MarkAllAsReadMutation = graphql(`
  mutation MarkAllAsRead {
    markAllAsRead { complete }
  }
`);

export const MarkChannelAsReadMutation = graphql(`
  mutation MarkChannelAsRead($streamId: Int!) {
    markChannelAsRead(streamId: $streamId) { complete }
  }
`);

export const MarkTopicAsReadMutation = graphql(`
  mutation MarkTopicAsRead($streamId: Int!, $topicName: String!) {
    markTopicAsRead(streamId: $streamId, topicName: $topicName) { complete }
  }
`);
