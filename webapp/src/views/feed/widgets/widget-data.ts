/**
 * What a poll or a to-do list shows, replayed from its message's submessages in id order, with the
 * rules Zulip's clients follow: the first submessage (msg_type "widget") describes the widget;
 * each later one is an action on it. Options and tasks are keyed by who added them and a number of
 * their own: the widget's initial ones are "canned". Only the message's author may change the
 * question or the title; actions on a key that does not exist are ignored.
 */
export interface WidgetSubmessage {
  id: number;
  senderId: number;
  msgType: string;
  content: string;
}

export interface PollOption {
  key: string;
  option: string;
  /** Who voted for it, in the order they voted. */
  voters: number[];
}

export interface PollState {
  kind: 'poll';
  question: string;
  options: PollOption[];
  /** The index this user's next option takes. */
  nextIdx: number;
}

export interface TodoTask {
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TodoState {
  kind: 'todo';
  title: string;
  tasks: TodoTask[];
  /** The index this user's next task takes. */
  nextIdx: number;
}

export type WidgetState = PollState | TodoState;

type Json = Record<string, unknown>;

function parse(text: string): Json | null {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const idx = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

function poll(extra: Json, actions: { senderId: number; data: Json }[], author: number, me: number): PollState {
  const state: PollState = { kind: 'poll', question: str(extra.question), options: [], nextIdx: 1 };
  const byKey = new Map<string, PollOption>();
  const addOption = (sender: number | 'canned', at: number, option: string) => {
    const key = `${sender},${at}`;
    if (byKey.has(key)) return;
    const entry = { key, option, voters: [] };
    byKey.set(key, entry);
    state.options.push(entry);
    if (sender === me && state.nextIdx <= at) state.nextIdx = at + 1;
  };
  (Array.isArray(extra.options) ? extra.options : []).forEach((option, i) => addOption('canned', i, str(option)));
  for (const { senderId, data } of actions) {
    if (data.type === 'new_option') {
      const at = idx(data.idx);
      if (at !== null && typeof data.option === 'string') addOption(senderId, at, data.option);
    } else if (data.type === 'question') {
      if (senderId === author && typeof data.question === 'string') state.question = data.question;
    } else if (data.type === 'vote') {
      const option = byKey.get(str(data.key));
      if (!option) continue;
      option.voters = option.voters.filter((id) => id !== senderId);
      if (data.vote === 1) option.voters.push(senderId);
    }
  }
  return state;
}

function todo(extra: Json, actions: { senderId: number; data: Json }[], author: number, me: number): TodoState {
  const state: TodoState = { kind: 'todo', title: str(extra.task_list_title), tasks: [], nextIdx: 1 };
  const byKey = new Map<string, TodoTask>();
  const addTask = (sender: number | 'canned', at: number, task: string, desc: string, completed: boolean) => {
    // The index is spent even when the task is refused (as in Zulip's clients).
    if (sender === me && state.nextIdx <= at) state.nextIdx = at + 1;
    // Zulip's clients refuse a second task of the same name.
    const key = `${at},${sender}`;
    if (task === '' || state.tasks.some((t) => t.task === task) || byKey.has(key)) return;
    const entry = { key, task, desc, completed };
    byKey.set(key, entry);
    state.tasks.push(entry);
  };
  (Array.isArray(extra.tasks) ? extra.tasks : []).forEach((task, i) => {
    const t = (task ?? {}) as Json;
    addTask('canned', i, str(t.task), str(t.desc), false);
  });
  for (const { senderId, data } of actions) {
    if (data.type === 'new_task') {
      const at = idx(data.key);
      if (at !== null) addTask(senderId, at, str(data.task), str(data.desc), data.completed === true);
    } else if (data.type === 'strike') {
      const task = byKey.get(str(data.key));
      if (task) task.completed = !task.completed;
    } else if (data.type === 'new_task_list_title') {
      if (senderId === author && typeof data.title === 'string') state.title = data.title;
    }
  }
  return state;
}

/** The widget of a message, or null when its submessages make none this app draws. */
export function widgetState(submessages: readonly WidgetSubmessage[], author: number, me: number): WidgetState | null {
  const ordered = [...submessages].sort((a, b) => a.id - b.id);
  const first = ordered[0];
  if (!first || first.msgType !== 'widget') return null;
  const widget = parse(first.content);
  const extra = widget && typeof widget.extra_data === 'object' && widget.extra_data !== null ? (widget.extra_data as Json) : {};
  const actions = ordered
    .slice(1)
    .filter((s) => s.msgType === 'widget')
    .map((s) => ({ senderId: s.senderId, data: parse(s.content) }))
    .filter((a): a is { senderId: number; data: Json } => a.data !== null);
  if (widget?.widget_type === 'poll') return poll(extra, actions, author, me);
  if (widget?.widget_type === 'todo') return todo(extra, actions, author, me);
  return null;
}

/** The submessage content of each action this app offers. */
export const actions = {
  vote: (option: PollOption, me: number) => ({ type: 'vote', key: option.key, vote: option.voters.includes(me) ? -1 : 1 }),
  newOption: (state: PollState, option: string) => ({ type: 'new_option', idx: state.nextIdx, option }),
  strike: (task: TodoTask) => ({ type: 'strike', key: task.key }),
  newTask: (state: TodoState, task: string, desc: string) => ({ type: 'new_task', key: state.nextIdx, task, desc, completed: false }),
};
