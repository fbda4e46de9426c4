import { useEffect, useState } from 'react';
import { graphQLClient } from '../../api/instance';
import { BrowseChannelsQuery, SubscribeMutation, UnsubscribeMutation } from '../../api/operations/channels';
import { lookup } from '../../app/lookup';
import { narrowHash } from '../../narrow/hash';
import { useApp } from '../../state/store';
import '../../styles/channels.css';

interface Listed {
  id: number;
  name: string;
  renderedDescription: string;
  inviteOnly: boolean;
  subscriberCount: number | null;
}

/** Every channel one can see, to subscribe or unsubscribe; the sidebar follows through events. */
export function BrowseChannels() {
  const channels = useApp((s) => s.channels);
  const subscriptions = useApp((s) => s.subscriptions);
  const [fetched, setFetched] = useState<Map<number, Listed>>(new Map());
  const [filter, setFilter] = useState('');
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Subscriber counts come from the query; asked again when subscriptions change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of subscriptions changes the counts.
  useEffect(() => {
    void graphQLClient()
      .query(BrowseChannelsQuery, {}, { requestPolicy: 'network-only' })
      .toPromise()
      .then((result) => {
        if (!result.data) return;
        const next = new Map<number, Listed>();
        for (const c of result.data.channels) next.set(c.streamId, { ...c, id: c.streamId });
        setFetched(next);
      });
  }, [subscriptions]);
  const ids = new Set([...channels.keys(), ...fetched.keys()]);
  const text = filter.trim().toLowerCase();
  const list: Listed[] = [...ids]
    .map((id) => {
      const c = channels.get(id);
      const f = fetched.get(id);
      if (c?.is_archived) return null;
      return c
        ? { id, name: c.name, renderedDescription: c.rendered_description, inviteOnly: c.invite_only, subscriberCount: f?.subscriberCount ?? null }
        : (f ?? null);
    })
    .filter((c): c is Listed => c !== null && (!text || c.name.toLowerCase().includes(text)))
    .sort((a, b) => a.name.localeCompare(b.name));

  const toggle = async (c: Listed) => {
    setBusy(c.id);
    setError(null);
    const result = subscriptions.has(c.id)
      ? await graphQLClient()
          .mutation(UnsubscribeMutation, { channels: [c.name] })
          .toPromise()
      : await graphQLClient()
          .mutation(SubscribeMutation, { channels: [{ name: c.name }] })
          .toPromise();
    if (result.error) setError(result.error.graphQLErrors[0]?.message ?? result.error.message);
    setBusy(null);
  };

  return (
    <section className="browse-channels" aria-labelledby="browse-title">
      <div className="browse-top">
        <h2 id="browse-title">Channels</h2>
        <input type="search" aria-label="Filter channels" placeholder="Filter channels" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </div>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <ul className="browse-list">
        {list.map((c) => {
          const subscribed = subscriptions.has(c.id);
          return (
            <li key={c.id} className="browse-row" data-browse-channel-id={c.id}>
              <div className="browse-info">
                <a className="browse-name" href={narrowHash([{ operator: 'channel', operand: String(c.id) }], lookup)}>
                  {c.inviteOnly ? '🔒 ' : '#'}
                  {c.name}
                </a>
                {c.subscriberCount !== null ? (
                  <span className="soft">
                    {' '}
                    · {c.subscriberCount} {c.subscriberCount === 1 ? 'subscriber' : 'subscribers'}
                  </span>
                ) : null}
                {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server's sanitized HTML; the page's policy runs no inline script */}
                <div className="browse-description" dangerouslySetInnerHTML={{ __html: c.renderedDescription }} />
              </div>
              <button
                type="button"
                className={subscribed ? 'subscribe-button subscribed' : 'subscribe-button primary'}
                aria-label={`${subscribed ? 'Unsubscribe from' : 'Subscribe to'} ${c.name}`}
                disabled={busy === c.id}
                onClick={() => void toggle(c)}
              >
                {subscribed ? 'Unsubscribe' : 'Subscribe'}
              </button>
            </li>
          );
        })}
        {list.length === 0 ? <li className="empty">No channels match.</li> : null}
      </ul>
    </section>
  );
}
