import { narrowToSearch, parseSearch, type SearchLookup, tokenize } from '../../webapp/src/narrow/search';

/** The web app's search box: Zulip's operators into narrow terms, names resolved to ids, and back. */
const channels = new Map([
  [12, 'design'],
  [13, 'web public'],
]);
const users = new Map([
  [4, { email: 'alice@example.com', name: 'Alice Anders' }],
  [5, { email: 'bob@example.com', name: 'Bob Brown' }],
]);
const lookup: SearchLookup = {
  channelId: (name) => [...channels].find(([, n]) => n.toLowerCase() === name.toLowerCase())?.[0],
  channelName: (id) => channels.get(id),
  userId: (text) => [...users].find(([, u]) => u.email === text.toLowerCase() || u.name.toLowerCase() === text.toLowerCase())?.[0],
  userEmail: (id) => users.get(id)?.email,
};

test('quoted operands stay one token', () => {
  expect(tokenize('channel:design topic:"new logo" hello')).toEqual(['channel:design', 'topic:new logo', 'hello']);
});

test('operators become terms with ids; words become one search term', () => {
  expect(parseSearch('channel:Design topic:"new logo" sender:bob@example.com blue links', lookup)).toEqual([
    { operator: 'channel', operand: '12' },
    { operator: 'topic', operand: 'new logo' },
    { operator: 'sender', operand: '5' },
    { operator: 'search', operand: 'blue links' },
  ]);
});

test('negation, aliases, + for spaces, DM groups and unknown names', () => {
  expect(parseSearch('-is:starred stream:web+public pm-with:alice@example.com,Bob+Brown has:link', lookup)).toEqual([
    { operator: 'is', operand: 'starred', negated: true },
    { operator: 'channel', operand: '13' },
    { operator: 'dm', operand: '4,5' },
    { operator: 'has', operand: 'link' },
  ]);
  // A name that resolves to nobody is kept as written; the server answers for it.
  expect(parseSearch('sender:nobody@example.com', lookup)).toEqual([{ operator: 'sender', operand: 'nobody@example.com' }]);
  // An unknown operator or an empty operand is a word.
  expect(parseSearch('foo:bar topic:', lookup)).toEqual([{ operator: 'search', operand: 'foo:bar topic:' }]);
});

test('a narrow reads back as the search box shows it', () => {
  const narrow = parseSearch('channel:design topic:"new logo" -sender:alice@example.com dm:4,5 hello', lookup);
  expect(narrowToSearch(narrow, lookup)).toBe('channel:design topic:"new logo" -sender:alice@example.com dm:alice@example.com,bob@example.com hello');
});
