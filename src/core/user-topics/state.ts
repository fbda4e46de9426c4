import type { RegisterState, StateSlice } from '../register/slice';
import { canonicalTopic, displayTopic } from '../messages/topics';
import { mutedTopicsList } from './store';
import { byChannelAndTopic, userTopics, UserTopicDict } from './queries';

/**
 * POST /register slices: `user_topic` → user_topics (every non-default policy); `muted_topics`
 * → muted_topics, the legacy [channel, topic, timestamp] list, replaced by each muted_topics
 * event.
 */
export const userTopicsSlice: StateSlice = {
  fetchTypes: ['user_topic'],
  async fetch(deps, user, options) {
    return { user_topics: await userTopics(deps.knex, user.id, options.capabilities.empty_topic_name) };
  },
  apply(state: RegisterState, event, _user, options) {
    if (event.type !== 'user_topic') return;
    const topic = displayTopic(canonicalTopic(event.topic_name as string), options.capabilities.empty_topic_name);
    const key = topic.toLowerCase();
    const list = (state.user_topics as UserTopicDict[]).filter((t) => !(t.stream_id === event.stream_id && t.topic_name.toLowerCase() === key));
    if (event.visibility_policy !== 0) {
      list.push({
        stream_id: event.stream_id as number,
        topic_name: topic,
        last_updated: event.last_updated as number,
        visibility_policy: event.visibility_policy as number,
      });
    }
    state.user_topics = list.sort(byChannelAndTopic);
  },
};

export const mutedTopicsSlice: StateSlice = {
  fetchTypes: ['muted_topics'],
  async fetch(deps, user, options) {
    const list = await mutedTopicsList(deps.knex, user.id);
    return { muted_topics: list.map(([s, t, ts]) => [s, displayTopic(t, options.capabilities.empty_topic_name), ts]) };
  },
  apply(state, event, _user, options) {
    if (event.type !== 'muted_topics') return;
    state.muted_topics = (event.muted_topics as [string, string, number][]).map(([s, t, ts]) => [
      s,
      displayTopic(canonicalTopic(t), options.capabilities.empty_topic_name),
      ts,
    ]);
  },
};
