import { describeRoute } from '../../app/describe';
import { lookup } from '../../app/lookup';
import { useRoute } from '../../app/route';
import { narrowHash } from '../../narrow/hash';
import { getApp, useApp } from '../../state/store';

/** What is open: a channel with its description, a topic, the people of a DM, or the search. */
export function NarrowHeader() {
  const route = useRoute();
  // Names and descriptions change with events; re-render on those collections.
  useApp((s) => s.channels);
  useApp((s) => s.users);
  const d = describeRoute(route, getApp());
  const channel = d.channelId !== undefined ? getApp().channels.get(d.channelId) : undefined;
  return (
    <div className="narrow-header" aria-live="polite">
      {channel ? (
        <>
          <h1 className="narrow-title">
            <a href={narrowHash([{ operator: 'channel', operand: String(channel.stream_id) }], lookup)}>#{channel.name}</a>
            {d.topic !== undefined ? <span className="narrow-topic"> › {d.topic || '(no topic)'}</span> : null}
          </h1>
          {d.topic === undefined && channel.rendered_description ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's sanitized HTML; the page's policy runs no inline script
            <div className="narrow-description" dangerouslySetInnerHTML={{ __html: channel.rendered_description }} />
          ) : null}
        </>
      ) : d.dmNames ? (
        <h1 className="narrow-title">Direct messages with {d.dmNames.join(', ')}</h1>
      ) : d.search !== undefined ? (
        <h1 className="narrow-title">
          Search results for <q>{d.search}</q>
        </h1>
      ) : (
        <h1 className="narrow-title">{d.title}</h1>
      )}
    </div>
  );
}
