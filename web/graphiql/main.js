// The GraphiQL page Parley serves at /graphql: bundled at build time (scripts/build-graphiql.js),
// so it needs nothing from the internet. Credentials typed here stay in this tab (sessionStorage).
import React from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { createClient } from 'graphql-ws';
import 'graphiql/graphiql.css';

const h = React.createElement;
const STORAGE = 'parley-graphiql-credentials';

function saved() {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE) || 'null') || { email: '', apiKey: '' };
  } catch {
    return { email: '', apiKey: '' };
  }
}

function authorization({ email, apiKey }) {
  if (!email || !apiKey) return null;
  const bytes = new TextEncoder().encode(`${email}:${apiKey}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

function makeFetcher(credentials) {
  const header = authorization(credentials);
  const wsUrl = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
  return createGraphiQLFetcher({
    url: '/graphql',
    headers: header ? { Authorization: header } : {},
    // Only the credentials typed here: a web app session's cookie would need its CSRF token.
    fetch: (input, init) => fetch(input, { ...init, credentials: 'omit' }),
    wsClient: header ? createClient({ url: wsUrl, connectionParams: { authorization: header }, lazy: true }) : undefined,
  });
}

function CredentialsBar({ credentials, onChange }) {
  const [email, setEmail] = React.useState(credentials.email);
  const [apiKey, setApiKey] = React.useState(credentials.apiKey);
  const submit = (event) => {
    event.preventDefault();
    onChange({ email: email.trim(), apiKey: apiKey.trim() });
  };
  const signedIn = Boolean(authorization(credentials));
  return h(
    'form',
    { className: 'parley-auth', onSubmit: submit },
    h('strong', null, 'Parley GraphQL'),
    h(
      'span',
      { className: 'parley-hint' },
      'Authenticate with HTTP Basic: your email and API key (Zulip: Personal settings → Account & privacy → API key; the zuliprc file holds the owner\u2019s). Sent as the Authorization header, and as connectionParams.authorization on the WebSocket for subscriptions.',
    ),
    h('input', { 'aria-label': 'Email', placeholder: 'email', value: email, onChange: (e) => setEmail(e.target.value), autoComplete: 'username' }),
    h('input', {
      'aria-label': 'API key',
      placeholder: 'API key',
      type: 'password',
      value: apiKey,
      onChange: (e) => setApiKey(e.target.value),
      autoComplete: 'current-password',
    }),
    h('button', { type: 'submit' }, 'Use'),
    h(
      'span',
      { className: 'parley-status', 'data-signed-in': String(signedIn) },
      signedIn ? `as ${credentials.email}` : 'not signed in (public operations only)',
    ),
  );
}

function App() {
  const [credentials, setCredentials] = React.useState(saved);
  const fetcher = React.useMemo(() => makeFetcher(credentials), [credentials]);
  const change = (next) => {
    sessionStorage.setItem(STORAGE, JSON.stringify(next));
    setCredentials(next);
  };
  return h(
    'div',
    { className: 'parley-page' },
    h(CredentialsBar, { credentials, onChange: change }),
    h('div', { className: 'parley-ide' }, h(GraphiQL, { fetcher, key: authorization(credentials) || 'anonymous', defaultEditorToolsVisibility: false })),
  );
}

createRoot(document.getElementById('graphiql')).render(h(App));
