/**
 * Message widgets as Zulip makes them from a message's text: a message whose first word is
 * `/poll` or `/todo` becomes a poll or a to-do list. The rest of the first line is the question
 * (or title); each following non-empty line is an option (or a task, its description after the
 * first ": "), with a leading "-" or "*" list marker dropped.
 */
export interface PollExtraData {
  question: string;
  options: string[];
}

export interface TodoExtraData {
  task_list_title: string;
  tasks: { task: string; desc: string }[];
}

export type WidgetContent = { widget_type: 'poll'; extra_data: PollExtraData } | { widget_type: 'todo'; extra_data: TodoExtraData };

export type WidgetType = WidgetContent['widget_type'];

export const WIDGET_TYPES: readonly WidgetType[] = ['poll', 'todo'];

/** Python's str.splitlines: every line boundary it knows, no empty line after a final break. */
function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The first line (trimmed) when it has any characters, and the remaining lines. */
function headAndItems(text: string): { head: string; items: string[] } {
  const lines = splitLines(text);
  let head = '';
  if (lines.length > 0 && lines[0] !== '') head = lines.shift()!.trim();
  const items = lines.map((line) => line.trim().replace(/^[-*]?\s*/, '')).filter((item) => item.length > 0);
  return { head, items };
}

function pollData(text: string): PollExtraData {
  const { head, items } = headAndItems(text);
  return { question: head, options: items };
}

function todoData(text: string): TodoExtraData {
  const { head, items } = headAndItems(text);
  const tasks = items.map((item) => {
    const at = item.indexOf(': ');
    return at < 0 ? { task: item.trim(), desc: '' } : { task: item.slice(0, at).trim(), desc: item.slice(at + 2).trim() };
  });
  return { task_list_title: head, tasks };
}

/** The widget a message's content makes, or null when it makes none. */
export function widgetFromContent(content: string): WidgetContent | null {
  const first = content.split(/\s+/)[0];
  if (!first.startsWith('/')) return null;
  const type = first.slice(1);
  if (!(WIDGET_TYPES as readonly string[]).includes(type)) return null;
  const rest = content.replace(first, '');
  return type === 'poll' ? { widget_type: 'poll', extra_data: pollData(rest) } : { widget_type: 'todo', extra_data: todoData(rest) };
}

/**
 * JSON text as Zulip's server writes a widget's submessage (Python's json.dumps defaults): ", "
 * and ": " separators, every character outside ASCII escaped. Clients parse it either way; the
 * stored text is then the same as Zulip's, byte for byte.
 */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${pythonJson(key)}: ${pythonJson(item)}`)
      .join(', ')}}`;
  }
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return JSON.stringify(value);
}
