import { graphql } from '../graphql';

/** Every channel the user can see, for browsing and subscribing. */
export const BrowseChannelsQuery = graphql(`
  query BrowseChannels {
    channels(includeAll: true, includePublic: true, includeSubscribed: true, includeWebPublic: true) {
      id
      streamId
      name
      description
      renderedDescription
      inviteOnly
      isWebPublic
      subscriberCount
    }
  }
`);

export const SubscribeMutation = graphql(`
  mutation Subscribe($channels: [NewChannelInput!]!) {
    subscribe(input: { channels: $channels }) { unauthorized }
  }
`);

export const UnsubscribeMutation = graphql(`
  mutation Unsubscribe($channels: [String!]!) {
    unsubscribe(channels: $channels) { notRemoved }
  }
`);
