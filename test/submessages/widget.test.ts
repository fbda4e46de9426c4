import { pythonJson, widgetFromContent } from '../../src/core/submessages/widget';
import { checkWidgetData, parseSubmessageContent } from '../../src/core/submessages/validation';

/** How a message's text becomes a widget, and how actions on widgets are checked, as in Zulip. */
describe('widgets from message text', () => {
  test('a poll: the question on the first line, one option per following line, list markers dropped', () => {
    expect(widgetFromContent('/poll What for lunch?\n- Pizza\n* Salad\n\n   Soup  \n-')).toEqual({
      widget_type: 'poll',
      extra_data: { question: 'What for lunch?', options: ['Pizza', 'Salad', 'Soup'] },
    });
  });

  test('a poll with no question keeps the options; a bare /poll is empty', () => {
    expect(widgetFromContent('/poll\nYes\nNo')).toEqual({ widget_type: 'poll', extra_data: { question: '', options: ['Yes', 'No'] } });
    expect(widgetFromContent('/poll')).toEqual({ widget_type: 'poll', extra_data: { question: '', options: [] } });
  });

  test('a to-do list: the title, then tasks with a description after the first ": "', () => {
    expect(widgetFromContent('/todo Groceries\n- Milk: two liters: skimmed\n* Eggs\nBread:wholemeal')).toEqual({
      widget_type: 'todo',
      extra_data: {
        task_list_title: 'Groceries',
        tasks: [
          { task: 'Milk', desc: 'two liters: skimmed' },
          { task: 'Eggs', desc: '' },
          { task: 'Bread:wholemeal', desc: '' },
        ],
      },
    });
  });

  test('only /poll and /todo as the first word make widgets', () => {
    for (const text of ['/pollster now', 'poll\nA', ' hello /poll', '/me waves', '/zform x', '/Poll a']) expect(widgetFromContent(text)).toBeNull();
    expect(widgetFromContent('/poll\tTabs?')?.extra_data).toEqual({ question: 'Tabs?', options: [] });
  });

  test("the stored text is Python's json.dumps of the widget", () => {
    const widget = widgetFromContent('/poll Café?\nOui 😀')!;
    expect(pythonJson(widget)).toBe('{"widget_type": "poll", "extra_data": {"question": "Caf\\u00e9?", "options": ["Oui \\ud83d\\ude00"]}}');
    expect(JSON.parse(pythonJson(widget))).toEqual(widget);
  });
});

describe('actions on widgets', () => {
  const error = (f: () => void) => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return null;
  };

  test('poll votes, options and questions', () => {
    expect(error(() => checkWidgetData('poll', { type: 'vote', key: 'canned,0', vote: 1 }, false))).toBeNull();
    expect(error(() => checkWidgetData('poll', { type: 'vote', key: '5,0', vote: -1 }, false))).toBeNull();
    expect(error(() => checkWidgetData('poll', { type: 'new_option', option: 'Tea', idx: 1000 }, false))).toBeNull();
    expect(error(() => checkWidgetData('poll', { type: 'question', question: 'New?' }, true))).toBeNull();
    expect(error(() => checkWidgetData('poll', { type: 'vote', key: 'canned,0', vote: 2 }, false))).toBe('Invalid poll data["vote"]');
    expect(error(() => checkWidgetData('poll', { type: 'vote', key: 'canned,0', vote: true }, false))).toBe('poll data["vote"] is not an integer');
    expect(error(() => checkWidgetData('poll', { type: 'vote', key: 3, vote: 1 }, false))).toBe('poll data["key"] is not a string');
    expect(error(() => checkWidgetData('poll', { type: 'vote', vote: 1 }, false))).toBe('key key is missing from poll data');
    expect(error(() => checkWidgetData('poll', { type: 'vote', key: 'a', vote: 1, x: 1, y: 2 }, false))).toBe('Unexpected arguments: x, y');
    expect(error(() => checkWidgetData('poll', { type: 'new_option', option: 'Tea', idx: 1001 }, false))).toBe('poll data["idx"] is too large');
    expect(error(() => checkWidgetData('poll', { type: 'new_option', option: 'Tea', idx: -1 }, false))).toBe('poll data["idx"] is too small');
    expect(error(() => checkWidgetData('poll', { type: 'question', question: 'Mine?' }, false))).toBe("You can't edit a question unless you are the author.");
    expect(error(() => checkWidgetData('poll', { type: 'close' }, false))).toBe('Unknown type for poll data: close');
    expect(error(() => checkWidgetData('poll', [1], false))).toBe('poll data is not a dict');
    expect(error(() => checkWidgetData('poll', {}, false))).toBe('type key is missing from poll data');
    expect(error(() => checkWidgetData('poll', { type: 1 }, false))).toBe('poll data["type"] is not a string');
  });

  test('to-do tasks, strikes and titles', () => {
    expect(error(() => checkWidgetData('todo', { type: 'new_task', key: 3, task: 'Jam', desc: '', completed: false }, false))).toBeNull();
    expect(error(() => checkWidgetData('todo', { type: 'strike', key: '0,canned' }, false))).toBeNull();
    expect(error(() => checkWidgetData('todo', { type: 'new_task_list_title', title: 'Shop' }, true))).toBeNull();
    expect(error(() => checkWidgetData('todo', { type: 'new_task', key: 3, task: 'Jam', desc: '' }, false))).toBe('completed key is missing from todo data');
    expect(error(() => checkWidgetData('todo', { type: 'new_task', key: 3, task: 'Jam', desc: '', completed: 1 }, false))).toBe(
      'todo data["completed"] is not a boolean',
    );
    expect(error(() => checkWidgetData('todo', { type: 'new_task_list_title', title: 'Shop' }, false))).toBe(
      "You can't edit the task list title unless you are the author.",
    );
    expect(error(() => checkWidgetData('todo', { type: 'vote' }, false))).toBe('Unknown type for todo data: vote');
  });

  test('data on other messages is not checked; content must be JSON', () => {
    expect(error(() => checkWidgetData(null, 'anything', true))).toBeNull();
    expect(error(() => parseSubmessageContent('{"type": '))).toBe('Invalid json for submessage');
    expect(parseSubmessageContent('"text"')).toBe('text');
  });
});
