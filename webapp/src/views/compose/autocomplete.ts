import { getApp } from '../../state/store';
import type { EmojiName } from './emoji-data';

/**
 * What the text before the cursor asks to complete, and the choices for it. Completions insert
 * Zulip's Markdown: `@**Name|id**`, `@*group*`, `#**channel**`, `#**channel>topic**`, `:emoji:`.
 */
export type Trigger =
  | { kind: 'person'; query: string; start: number }
  | { kind: 'channel'; query: string; start: number }
  | { kind: 'topic'; channelId: number; channelName: string; query: string; start: number }
  | { kind: 'emoji'; query: string; start: number };

export interface Choice {
  id: string;
  label: string;
  detail?: string;
  /** A Unicode emoji code, or an image, to show with the choice. */
  emojiCode?: string;
  imageUrl?: string;
  insert: string;
}

export function findTrigger(before: string): Trigger | null {
  let m = /(^|[\s(])@_?(\**)([^\s@*][^@\n*]{0,30}|)$/.exec(before);
  if (m) return { kind: 'person', query: m[3], start: before.length - m[0].length + m[1].length };
  m = /(^|[\s(])#\*{0,2}([^#\n>*]{1,60})>([^\n*]{0,60})$/.exec(before);
  if (m) {
    const name = m[2].trim().toLowerCase();
    const channel = [...getApp().channels.values()].find((c) => c.name.toLowerCase() === name);
    if (channel)
      return { kind: 'topic', channelId: channel.stream_id, channelName: channel.name, query: m[3], start: before.length - m[0].length + m[1].length };
  }
  m = /(^|[\s(])#\*{0,2}([^#\n>*]{0,40})$/.exec(before);
  if (m) return { kind: 'channel', query: m[2], start: before.length - m[0].length + m[1].length };
  m = /(^|[\s(]):([a-z0-9_+-]{2,40})$/i.exec(before);
  if (m) return { kind: 'emoji', query: m[2].toLowerCase(), start: before.length - m[0].length + m[1].length };
  return null;
}

/** Prefix matches first, then matches of a later word, then anywhere. */
function rank(text: string, query: string): number {
  const t = text.toLowerCase();
  const q = query.toLowerCase().trim();
  if (q === '') return 1;
  if (t.startsWith(q)) return 3;
  if (t.split(/[\s_@.-]+/).some((w) => w.startsWith(q))) return 2;
  return t.includes(q) ? 1 : 0;
}

/** The ids of the custom profile fields whose values help find people (register's custom_profile_fields). */
function userMatchingFieldIds(fields: unknown): string[] {
  if (!Array.isArray(fields)) return [];
  return fields.filter((f: { use_for_user_matching?: boolean }) => f.use_for_user_matching === true).map((f: { id: number }) => String(f.id));
}

function best<T>(items: T[], score: (item: T) => number, limit = 8): T[] {
  return items
    .map((item) => ({ item, s: score(item) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s)
    .slice(0, limit)
    .map((x) => x.item);
}

export function choicesFor(trigger: Trigger, emoji: EmojiName[] | null): Choice[] {
  const state = getApp();
  switch (trigger.kind) {
    case 'person': {
      const matchingFields = userMatchingFieldIds(state.register.custom_profile_fields);
      const people = best(
        [...state.users.values()].filter((u) => u.is_active && !state.mutedUsers.has(u.user_id)),
        (u) =>
          Math.max(
            rank(u.full_name, trigger.query),
            rank(u.email, trigger.query),
            // Values of fields marked use_for_user_matching (e.g. a GitHub username) find people too.
            ...matchingFields.map((id) => rank(u.profile_data?.[id]?.value ?? '', trigger.query)),
          ),
      ).map((u) => ({ id: `user-${u.user_id}`, label: u.full_name, detail: u.email, insert: `@**${u.full_name}|${u.user_id}**` }));
      const groups = best(
        [...state.userGroups.values()].filter((g) => !g.is_system_group && !g.deactivated),
        (g) => rank(g.name, trigger.query),
        4,
      ).map((g) => ({ id: `group-${g.id}`, label: g.name, detail: g.description || 'User group', insert: `@*${g.name}*` }));
      return [...people, ...groups];
    }
    case 'channel':
      return best(
        [...state.channels.values()].filter((c) => !c.is_archived),
        (c) => rank(c.name, trigger.query),
      ).map((c) => ({
        id: `channel-${c.stream_id}`,
        label: `#${c.name}`,
        detail: c.description,
        insert: `#**${c.name}**`,
      }));
    case 'topic': {
      const topics = [...(state.topics.get(trigger.channelId)?.values() ?? [])].sort((a, b) => b.maxId - a.maxId);
      const choices = best(topics, (t) => rank(t.name, trigger.query)).map((t) => ({
        id: `topic-${t.name}`,
        label: t.name,
        detail: `#${trigger.channelName}`,
        insert: `#**${trigger.channelName}>${t.name}**`,
      }));
      const typed = trigger.query.trim();
      if (typed && !choices.some((c) => c.label.toLowerCase() === typed.toLowerCase())) {
        choices.push({ id: `topic-new-${typed}`, label: typed, detail: `#${trigger.channelName}`, insert: `#**${trigger.channelName}>${typed}**` });
      }
      return choices;
    }
    case 'emoji':
      return best(emoji ?? [], (e) => rank(e.name, trigger.query)).map((e) => ({
        id: `emoji-${e.name}`,
        label: `:${e.name}:`,
        emojiCode: e.code,
        imageUrl: e.imageUrl,
        insert: `:${e.name}:`,
      }));
  }
}
