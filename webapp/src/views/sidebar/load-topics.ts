import { graphQLClient } from '../../api/instance';
import { TopicsQuery } from '../../api/operations/navigation';
import { setApp, type TopicInfo } from '../../state/store';

const asked = new Map<number, Promise<void>>();

/** Fetches a channel's topics once per page load and merges them into the store's topics. */
export function loadTopics(streamId: number): Promise<void> {
  let pending = asked.get(streamId);
  if (!pending) {
    pending = fetchTopics(streamId).catch(() => {
      asked.delete(streamId);
    });
    asked.set(streamId, pending);
  }
  return pending;
}

async function fetchTopics(streamId: number): Promise<void> {
  const result = await graphQLClient().query(TopicsQuery, { streamId }, { requestPolicy: 'network-only' }).toPromise();
  if (result.error || !result.data) throw result.error ?? new Error('no topics');
  const fetched = result.data.topics;
  setApp((state) => {
    const topics = new Map(state.topics);
    const own = new Map<string, TopicInfo>(topics.get(streamId) ?? []);
    for (const t of fetched) {
      const key = t.name.toLowerCase();
      const known = own.get(key);
      if (!known || known.maxId < t.maxId) own.set(key, { name: t.name, maxId: t.maxId });
    }
    topics.set(streamId, own);
    return { topics };
  });
}
