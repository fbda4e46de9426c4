import { createClient, type Client } from 'graphql-ws';

/**
 * The live dashboard: signs in with an email and API key (or password, exchanged through the
 * fetchApiKey mutation), reads the initial picture over GraphQL and follows the typed `events`
 * subscription. It asks only for what the signed-in user may see.
 */

interface Credentials {
  email: string;
  apiKey: string;
}
interface Shown {
  id: number;
  channelId: number;
  channel: string;
  topic: string;
  sender: string;
  text: string;
  timestamp: number;
}
interface Typist {
  userId: number;
  where: string;
  until: number;
}

const CHART_MINUTES = 10;
const MESSAGES_PER_CHANNEL = 5;
/** Zulip shows a user as active for this long after their last report. */
const ACTIVE_SECONDS = 140;
const TYPING_SECONDS = 15;
const COLORS = ['#3867d6', '#20bf6b', '#fa8231', '#8854d0', '#eb3b5a', '#0fb9b1', '#f7b731', '#4b6584'];

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const state = {
  me: 0,
  names: new Map<number, string>(),
  channels: new Map<number, string>(),
  messages: [] as Shown[],
  /** Message counts by channel id, then by minute (UNIX seconds / 60). */
  perMinute: new Map<number, Map<number, number>>(),
  active: new Map<number, number>(),
  typing: new Map<string, Typist>(),
};

let credentials: Credentials | null = null;
let socket: Client | null = null;

const basic = (c: Credentials) => `Basic ${btoa(`${c.email}:${c.apiKey}`)}`;

async function gql<T>(query: string, variables: Record<string, unknown> = {}, auth: Credentials | null = credentials): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth) headers.authorization = basic(auth);
  // Basic credentials only: a web app session's cookie, sent along, would need its CSRF token.
  const res = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }), credentials: 'omit' });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors[0].message);
  return body.data as T;
}

/** Rendered message HTML as plain text: the page never inserts message markup. */
function plainText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
}

function el(tag: string, attrs: Record<string, string> = {}, text = ''): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag: string, attrs: Record<string, string | number>, text = ''): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text) node.textContent = text;
  return node;
}

function count(channelId: number, timestamp: number) {
  let byMinute = state.perMinute.get(channelId);
  if (!byMinute) state.perMinute.set(channelId, (byMinute = new Map()));
  const minute = Math.floor(timestamp / 60);
  byMinute.set(minute, (byMinute.get(minute) ?? 0) + 1);
}

function addMessage(message: Shown) {
  if (state.messages.some((m) => m.id === message.id)) return;
  state.messages.push(message);
  state.messages.sort((a, b) => a.id - b.id);
  count(message.channelId, message.timestamp);
}

function renderChart() {
  const box = $('chart');
  box.replaceChildren();
  const now = Math.floor(Date.now() / 60_000);
  const minutes = Array.from({ length: CHART_MINUTES }, (_, i) => now - CHART_MINUTES + 1 + i);
  const channelIds = [...state.channels.keys()].sort((a, b) => a - b);
  const max = Math.max(1, ...channelIds.flatMap((id) => minutes.map((m) => state.perMinute.get(id)?.get(m) ?? 0)));
  const width = 640;
  const height = 180;
  const plot = { left: 28, bottom: 20, top: 8 };
  const slot = (width - plot.left) / minutes.length;
  const bar = Math.max(2, (slot - 6) / Math.max(1, channelIds.length));
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img', 'aria-label': 'Messages per channel per minute' });
  const usable = height - plot.bottom - plot.top;
  chart.append(svg('text', { x: 0, y: plot.top + 8 }, String(max)), svg('text', { x: 0, y: height - plot.bottom }, '0'));
  minutes.forEach((minute, i) => {
    const x0 = plot.left + i * slot;
    const label = new Date(minute * 60_000).toTimeString().slice(0, 5);
    if (i % 2 === 1 || minutes.length <= 6) chart.append(svg('text', { x: x0, y: height - 4 }, label));
    channelIds.forEach((id, j) => {
      const n = state.perMinute.get(id)?.get(minute) ?? 0;
      const h = (n / max) * usable;
      chart.append(
        svg('rect', {
          x: x0 + j * bar,
          y: height - plot.bottom - h,
          width: bar - 1,
          height: h,
          fill: COLORS[j % COLORS.length],
          'data-channel': state.channels.get(id) ?? '',
          'data-minute': label,
          'data-count': n,
        }),
      );
    });
  });
  const legend = el('div', { class: 'legend' });
  channelIds.forEach((id, j) => {
    const item = el('span', {}, `#${state.channels.get(id)}`);
    const swatch = el('i');
    swatch.style.background = COLORS[j % COLORS.length];
    item.prepend(swatch);
    legend.append(item);
  });
  box.append(chart, legend);
}

function renderPresence() {
  const list = $('presence');
  const now = Date.now() / 1000;
  const active = [...state.active].filter(([, at]) => now - at < ACTIVE_SECONDS).map(([id]) => id);
  active.sort((a, b) => (state.names.get(a) ?? '').localeCompare(state.names.get(b) ?? ''));
  list.replaceChildren(...active.map((id) => el('li', { 'data-user-id': String(id) }, state.names.get(id) ?? `user ${id}`)));
  if (active.length === 0) list.append(el('li', { class: 'hint' }, 'nobody right now'));
}

function renderTyping() {
  const list = $('typing');
  const now = Date.now();
  for (const [key, typist] of state.typing) if (typist.until < now) state.typing.delete(key);
  const items = [...state.typing.values()].map((t) =>
    el('li', { 'data-user-id': String(t.userId) }, `${state.names.get(t.userId) ?? `user ${t.userId}`} ${t.where}`),
  );
  list.replaceChildren(...items);
  if (items.length === 0) list.append(el('li', { class: 'hint' }, 'nobody is typing'));
}

function renderMessages() {
  const box = $('messages');
  const byChannel = new Map<number, Shown[]>();
  for (const m of state.messages) {
    if (!byChannel.has(m.channelId)) byChannel.set(m.channelId, []);
    byChannel.get(m.channelId)!.push(m);
  }
  const sections = [...byChannel].map(([channelId, list]) => {
    const section = el('section', { class: 'channel', 'data-channel-id': String(channelId) });
    section.append(el('h3', {}, `#${state.channels.get(channelId) ?? list[0].channel}`));
    for (const m of list.slice(-MESSAGES_PER_CHANNEL).reverse()) {
      const row = el('div', { class: 'message', 'data-message-id': String(m.id) });
      row.append(el('span', { class: 'sender' }, m.sender), el('span', { class: 'topic' }, m.topic), el('span', { class: 'text' }, m.text));
      section.append(row);
    }
    return section;
  });
  box.replaceChildren(...sections);
  if (sections.length === 0) box.append(el('p', { class: 'hint' }, 'no messages yet'));
}

function render() {
  renderChart();
  renderPresence();
  renderTyping();
  renderMessages();
}

interface Initial {
  me: { id: string; fullName: string };
  users: { id: string; fullName: string }[];
  subscriptions: { channel: { id: string; name: string } }[];
  presences: { presences: { userId: number; activeTimestamp: number }[] };
  messages: {
    edges: {
      node: { id: string; content: string; timestamp: number; topic: string; channel: { id: string; name: string } | null; sender: { fullName: string } };
    }[];
  };
}

async function loadInitial() {
  const data = await gql<Initial>(`{
    me { id fullName }
    users { id fullName }
    subscriptions { channel { id name } }
    presences { presences { userId activeTimestamp } }
    messages(last: 100) { edges { node { id content timestamp topic channel { id name } sender { fullName } } } }
  }`);
  state.me = Number(data.me.id);
  $('who').textContent = data.me.fullName;
  for (const u of data.users) state.names.set(Number(u.id), u.fullName);
  for (const s of data.subscriptions) state.channels.set(Number(s.channel.id), s.channel.name);
  for (const p of data.presences.presences) state.active.set(p.userId, p.activeTimestamp);
  for (const { node } of data.messages.edges) {
    if (!node.channel) continue;
    addMessage({
      id: Number(node.id),
      channelId: Number(node.channel.id),
      channel: node.channel.name,
      topic: node.topic,
      sender: node.sender.fullName,
      text: plainText(node.content),
      timestamp: node.timestamp,
    });
  }
}

const EVENTS = `subscription {
  events(eventTypes: [message, presence, typing, subscription, realm_user]) {
    __typename
    ... on MessageEvent { message }
    ... on PresenceEvent { userId presences }
    ... on TypingEvent { op sender messageType streamId topic }
    ... on SubscriptionEvent { op subscriptions streamIds }
    ... on RealmUserEvent { op person }
  }
}`;

type Json = Record<string, any>;

function onEvent(event: Json) {
  switch (event.__typename) {
    case 'MessageEvent': {
      const m = event.message as Json;
      if (m.type !== 'stream') return;
      if (!state.channels.has(m.stream_id)) state.channels.set(m.stream_id, String(m.display_recipient));
      addMessage({
        id: m.id,
        channelId: m.stream_id,
        channel: String(m.display_recipient),
        topic: m.subject ?? m.topic ?? '',
        sender: m.sender_full_name,
        text: plainText(m.content),
        timestamp: m.timestamp,
      });
      state.typing.delete(`${m.sender_id}`);
      break;
    }
    case 'PresenceEvent':
      for (const [id, entry] of Object.entries((event.presences ?? {}) as Record<string, Json>)) state.active.set(Number(id), entry.active_timestamp);
      break;
    case 'TypingEvent': {
      const sender = event.sender as Json;
      const key = `${sender.user_id}`;
      if (event.op === 'stop') state.typing.delete(key);
      else {
        const where = event.messageType === 'stream' ? `in #${state.channels.get(event.streamId) ?? event.streamId} > ${event.topic}` : 'in a direct message';
        state.typing.set(key, { userId: sender.user_id, where, until: Date.now() + TYPING_SECONDS * 1000 });
      }
      break;
    }
    case 'SubscriptionEvent':
      if (event.op === 'add') for (const s of event.subscriptions as Json[]) state.channels.set(s.stream_id, s.name);
      if (event.op === 'remove') for (const s of event.subscriptions as Json[]) state.channels.delete(s.stream_id);
      break;
    case 'RealmUserEvent':
      if (event.person?.full_name) state.names.set(event.person.user_id, event.person.full_name);
      break;
  }
  render();
}

function follow(auth: Credentials) {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  socket = createClient({
    url,
    connectionParams: { authorization: basic(auth) },
    retryAttempts: Infinity,
    on: {
      connected: () => ($('status').textContent = 'live'),
      closed: () => ($('status').textContent = 'reconnecting…'),
    },
  });
  socket.subscribe<Json>(
    { query: EVENTS },
    {
      next: (result) => {
        if (result.data?.events) onEvent(result.data.events as Json);
      },
      error: () => ($('status').textContent = 'disconnected'),
      complete: () => ($('status').textContent = 'ended'),
    },
  );
}

async function signIn(event: SubmitEvent) {
  event.preventDefault();
  const error = $('sign-in-error');
  error.textContent = '';
  const email = ($('email') as HTMLInputElement).value.trim();
  let apiKey = ($('api-key') as HTMLInputElement).value.trim();
  const password = ($('password') as HTMLInputElement).value;
  try {
    if (!apiKey) {
      if (!password) throw new Error('Give an API key or a password');
      const data = await gql<{ fetchApiKey: { apiKey: string; email: string } }>(
        'mutation($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { apiKey email } }',
        { u: email, p: password },
        null,
      );
      apiKey = data.fetchApiKey.apiKey;
    }
    await start({ email, apiKey });
    sessionStorage.setItem('parley-dashboard', JSON.stringify({ email, apiKey }));
  } catch (e) {
    error.textContent = e instanceof Error ? e.message : String(e);
  }
}

async function start(auth: Credentials) {
  credentials = auth;
  // Subscribe first, then read: nothing falls between the two.
  follow(auth);
  try {
    await loadInitial();
  } catch (e) {
    socket?.dispose();
    credentials = null;
    throw e;
  }
  $('sign-in').hidden = true;
  $('board').hidden = false;
  render();
  // Presence and typing age out, and the chart's minutes move on.
  setInterval(render, 5_000);
}

$('sign-in').addEventListener('submit', (event) => void signIn(event as SubmitEvent));
const saved = sessionStorage.getItem('parley-dashboard');
if (saved) void start(JSON.parse(saved) as Credentials).catch(() => sessionStorage.removeItem('parley-dashboard'));
