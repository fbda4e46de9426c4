import { actions, type PollState, type TodoState, widgetState, type WidgetSubmessage } from '../../webapp/src/views/feed/widgets/widget-data';

/** What the web app draws of polls and to-do lists, replayed from submessages as the server stores them. */
const alice = 1;
const bob = 2;
const carol = 3;
let nextId = 10;
const sub = (senderId: number, content: unknown, msgType = 'widget'): WidgetSubmessage => ({
  id: nextId++,
  senderId,
  msgType,
  content: typeof content === 'string' ? content : JSON.stringify(content),
});

test('a poll: canned options, votes, taken-back votes, new options and the author-only question', () => {
  const subs = [
    sub(alice, '{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Salad"]}}'),
    sub(bob, { type: 'vote', key: 'canned,0', vote: 1 }),
    sub(carol, { type: 'vote', key: 'canned,0', vote: 1 }),
    sub(carol, { type: 'vote', key: 'canned,0', vote: -1 }),
    sub(carol, { type: 'new_option', idx: 1, option: 'Soup' }),
    sub(bob, { type: 'vote', key: `${carol},1`, vote: 1 }),
    sub(bob, { type: 'question', question: 'Not the author' }),
    sub(alice, { type: 'question', question: 'Lunch today?' }),
    sub(bob, { type: 'vote', key: 'nobody,9', vote: 1 }),
    sub(bob, 'not json'),
  ];
  const state = widgetState(subs.reverse(), alice, carol) as PollState;
  expect(state.question).toBe('Lunch today?');
  expect(state.options).toEqual([
    { key: 'canned,0', option: 'Pizza', voters: [bob] },
    { key: 'canned,1', option: 'Salad', voters: [] },
    { key: `${carol},1`, option: 'Soup', voters: [bob] },
  ]);
  expect(state.nextIdx).toBe(2);
  expect(actions.vote(state.options[0], bob)).toEqual({ type: 'vote', key: 'canned,0', vote: -1 });
  expect(actions.vote(state.options[1], bob)).toEqual({ type: 'vote', key: 'canned,1', vote: 1 });
  expect(actions.newOption(state, 'Tacos')).toEqual({ type: 'new_option', idx: 2, option: 'Tacos' });
});

test('a to-do list: canned tasks, new tasks, strikes that toggle, the author-only title', () => {
  const subs = [
    sub(alice, {
      widget_type: 'todo',
      extra_data: {
        task_list_title: 'Groceries',
        tasks: [
          { task: 'Milk', desc: '2 liters' },
          { task: 'Eggs', desc: '' },
        ],
      },
    }),
    sub(bob, { type: 'new_task', key: 1, task: 'Bread', desc: '', completed: false }),
    sub(bob, { type: 'new_task', key: 2, task: 'Milk', desc: 'again', completed: false }),
    sub(carol, { type: 'strike', key: '0,canned' }),
    sub(carol, { type: 'strike', key: `1,${bob}` }),
    sub(carol, { type: 'strike', key: `1,${bob}` }),
    sub(bob, { type: 'new_task_list_title', title: 'Bob list' }),
  ];
  const state = widgetState(subs, alice, bob) as TodoState;
  expect(state.title).toBe('Groceries');
  expect(state.tasks).toEqual([
    { key: '0,canned', task: 'Milk', desc: '2 liters', completed: true },
    { key: '1,canned', task: 'Eggs', desc: '', completed: false },
    { key: `1,${bob}`, task: 'Bread', desc: '', completed: false },
  ]);
  expect(actions.newTask(state, 'Jam', 'strawberry')).toEqual({ type: 'new_task', key: 3, task: 'Jam', desc: 'strawberry', completed: false });
  expect(actions.strike(state.tasks[1])).toEqual({ type: 'strike', key: '1,canned' });
});

test('messages without a widget this app draws', () => {
  expect(widgetState([], alice, bob)).toBeNull();
  expect(widgetState([sub(alice, { anything: true })], alice, bob)).toBeNull();
  expect(widgetState([sub(alice, { widget_type: 'zform', extra_data: {} })], alice, bob)).toBeNull();
  expect(widgetState([sub(alice, { widget_type: 'poll', extra_data: {} }, 'other')], alice, bob)).toBeNull();
});
