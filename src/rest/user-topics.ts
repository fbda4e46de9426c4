import { MAX_TOPIC_LENGTH } from '../core/messages/topics';
import { updateMutedTopic, updateUserTopic } from '../core/user-topics/actions';
import { channelTopics } from '../core/user-topics/queries';
import { VISIBILITY_POLICIES } from '../core/user-topics/store';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const userTopicRoutes: Route[] = [
  {
    method: 'POST',
    path: '/user_topics',
    endpoint: endpoint({
      params: {
        stream_id: p.int(),
        topic: p.string({ maxLength: MAX_TOPIC_LENGTH }),
        visibility_policy: p.intIn(VISIBILITY_POLICIES),
      },
      handler: async ({ deps, user, params }) => {
        await updateUserTopic(deps, user, params.stream_id, params.topic, params.visibility_policy);
      },
    }),
  },
  {
    method: 'PATCH',
    path: '/users/me/subscriptions/muted_topics',
    endpoint: endpoint({
      params: {
        stream_id: p.int().optional(),
        stream: p.string().optional(),
        topic: p.string({ maxLength: MAX_TOPIC_LENGTH }),
        op: p.enum(['add', 'remove'] as const),
      },
      handler: async ({ deps, user, params }) => {
        await updateMutedTopic(deps, user, { streamId: params.stream_id, streamName: params.stream }, params.topic, params.op);
      },
    }),
  },
  {
    method: 'GET',
    path: '/users/me/:stream_id/topics',
    endpoint: endpoint({
      params: { stream_id: p.path.int(), allow_empty_topic_name: p.bool().default(false) },
      handler: async ({ deps, user, params }) => ({ topics: await channelTopics(deps, user, params.stream_id, params.allow_empty_topic_name) }),
    }),
  },
];
