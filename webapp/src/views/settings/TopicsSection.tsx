import { UpdateUserTopicMutation } from '../../api/operations/settings';
import { encodeHashComponent } from '../../narrow/hash';
import { setApp, topicKey, useApp } from '../../state/store';
import { SaveStatus, useSaving } from './controls';
import { run } from './save';

const POLICIES = [
  { value: 0, label: 'Default' },
  { value: 1, label: 'Muted' },
  { value: 2, label: 'Unmuted' },
  { value: 3, label: 'Followed' },
];

/** The topic's name as the store keeps it lower-cased; the sidebar's topics know its real spelling. */
function TopicRow({ streamId, lowered, policy }: { streamId: number; lowered: string; policy: number }) {
  const channel = useApp((s) => s.channels.get(streamId));
  const name = useApp((s) => s.topics.get(streamId)?.get(lowered)?.name ?? lowered);
  const [state, save] = useSaving();
  const change = (visibilityPolicy: number) =>
    void save(async () => {
      const outcome = await run(UpdateUserTopicMutation, { streamId, topic: name, visibilityPolicy });
      if (outcome.error !== null) return outcome.error;
      setApp((s) => {
        const userTopics = new Map(s.userTopics);
        if (visibilityPolicy === 0) userTopics.delete(topicKey(streamId, name));
        else userTopics.set(topicKey(streamId, name), visibilityPolicy);
        return { userTopics };
      });
      return null;
    });
  const href = `#narrow/channel/${streamId}-${encodeHashComponent((channel?.name ?? '').replace(/ /g, '-'))}/topic/${encodeHashComponent(name)}`;
  return (
    <tr>
      <td>{channel?.name ?? `Channel ${streamId}`}</td>
      <td>
        <a href={href}>{name}</a>
      </td>
      <td>
        <select aria-label={`${name}: visibility`} value={policy} onChange={(e) => change(Number(e.target.value))}>
          {POLICIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
        <SaveStatus state={state} />
      </td>
    </tr>
  );
}

/** #settings/topics: topics the user muted, unmuted or follows. */
export function TopicsSection() {
  const userTopics = useApp((s) => s.userTopics);
  const rows = [...userTopics].map(([key, policy]) => {
    const at = key.indexOf(':');
    return { streamId: Number(key.slice(0, at)), lowered: key.slice(at + 1), policy, key };
  });
  if (rows.length === 0) return <p className="empty">You have not muted or followed any topics.</p>;
  return (
    <div className="table-scroll">
      <table className="settings-table" aria-label="Topics">
        <thead>
          <tr>
            <th scope="col">Channel</th>
            <th scope="col">Topic</th>
            <th scope="col">Visibility</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <TopicRow key={r.key} streamId={r.streamId} lowered={r.lowered} policy={r.policy} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
