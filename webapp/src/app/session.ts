import { pipe, subscribe } from 'wonka';
import { createGraphQLClient } from '../api/client';
import { graphQLClient, setGraphQLClient } from '../api/instance';
import { createConnection, onConnection } from '../api/connection';
import { InitialStateQuery, EventsSubscription } from '../api/operations/session';
import { type AppEvent, applyEvent } from '../state/apply-event';
import { stateFromRegister } from '../state/from-register';
import { getApp, setApp } from '../state/store';
import { openList, refreshOpenLists } from '../state/message-lists';
import { parseHash } from '../narrow/hash';

/**
 * The app's connection to the server: subscribe to events first, then ask for the state (so nothing
 * falls between the two), and do both again after every reconnection, catching up on what was missed.
 * Events that arrive while the state is being asked for wait and are applied after it.
 */

export async function startSession(): Promise<void> {
  // Asked for once the socket is up, so that the events subscription is (all but) in place first.
  const connected = new Promise<void>((resolve) => {
    const stop = onConnection((status) => {
      if (status !== 'live') return;
      stop();
      resolve();
    });
  });
  const socket = createConnection();
  setGraphQLClient(createGraphQLClient(socket));
  // A link to messages starts fetching them now, alongside the state, rather than after it.
  const hash = window.location.hash;
  const linked = hash.length > 1 ? parseHash(hash) : null;
  if (linked?.view === 'narrow') void openList(linked.narrow, linked.near);
  let pending: AppEvent[] | null = [];
  let loading: Promise<void> | null = null;

  const load = async (reconnected: boolean) => {
    pending ??= [];
    const result = await graphQLClient().query(InitialStateQuery, {}, { requestPolicy: 'network-only' }).toPromise();
    if (result.error || !result.data) throw result.error ?? new Error('no state');
    setApp((state) => ({ ...stateFromRegister(result.data!.initialState, state), ready: true }));
    const waiting = pending;
    pending = null;
    for (const e of waiting) applyEvent(e);
    if (reconnected) await refreshOpenLists();
  };

  pipe(
    graphQLClient().subscription(EventsSubscription, {}),
    subscribe((result) => {
      const e = result.data?.events;
      if (!e) return;
      if (pending) pending.push(e);
      else applyEvent(e);
    }),
  );

  onConnection((status, reconnected) => {
    setApp({ connection: status });
    if (status === 'live' && reconnected) {
      loading = load(true).catch(() => setApp({ connection: 'reconnecting' }));
    } else if (status !== 'live') pending ??= [];
  });
  await connected;
  loading = load(false);
  await loading;
}

export const me = () => getApp().me;
