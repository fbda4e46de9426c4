import { envOf, Md, StateInline } from './types';
import { emojiCodeForName } from '../../emoji/data';
import { EXTRA_EMOJI } from '../../emoji/extra';
import type { RenderEnv } from '../env';
import { element, escapeText } from '../html';
import {
  CHANNEL_LINK,
  CHANNEL_LINK_PRECEDERS,
  CHANNEL_TOPIC_LINK,
  CHANNEL_TOPIC_MESSAGE_LINK,
  EMOJI_NAME,
  GROUP_MENTION,
  MENTION_PRECEDERS,
  parseIdMention,
  startAllowed,
  STREAM_WILDCARDS,
  TOPIC_WILDCARDS,
  USER_MENTION,
} from '../syntax';
import { encodeChannel, encodeHashComponent } from '../url';

/**
 * Zulip's inline syntax as markdown-it rules: mentions, channel links, `:emoji:`, `~~del~~`, and
 * `_` that is never emphasis. Each rule emits a `zulip_html` token of HTML built (and escaped)
 * by `html.ts`.
 */
export function zulipInline(md: Md): void {
  md.inline.ruler.at('backticks', codeSpan);
  md.inline.ruler.before('emphasis', 'zulip_strong_em', strongEmphasis);
  md.inline.ruler.before('emphasis', 'zulip_user_mention', userMention);
  md.inline.ruler.before('emphasis', 'zulip_group_mention', groupMention);
  md.inline.ruler.before('emphasis', 'zulip_channel_link', channelLink);
  md.inline.ruler.before('emphasis', 'zulip_underscore', literalUnderscores);
  md.inline.ruler.before('emphasis', 'zulip_del', strikethrough);
  md.inline.ruler.after('linkify', 'zulip_emoji', emojiName);
  md.inline.ruler.before('emphasis', 'zulip_time', globalTime);
  md.renderer.rules.zulip_html = (tokens, idx) => tokens[idx].content;
}

/** Runs a sticky pattern at the current position, within the current inline range. */
function matchAt(state: StateInline, pattern: RegExp): RegExpExecArray | null {
  pattern.lastIndex = state.pos;
  const match = pattern.exec(state.src);
  if (!match || match.index + match[0].length > state.posMax) return null;
  return match;
}

function pushHtml(state: StateInline, html: string, length: number): void {
  const token = state.push('zulip_html', '', 0);
  token.content = html;
  state.pos += length;
}

function userMention(state: StateInline, silentMode: boolean): boolean {
  const env = envOf(state);
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */ || !env.mentionsEnabled) return false;
  if (!startAllowed(state.src, state.pos, MENTION_PRECEDERS)) return false;
  const match = matchAt(state, USER_MENTION);
  if (!match) return false;
  const text = match[2];
  let silent = match[1] === '_' || env.inQuote;

  let html: string;
  if (STREAM_WILDCARDS.has(text)) {
    if (!silent && !silentMode) env.found.streamWildcard = true;
    const classes = `user-mention channel-wildcard-mention${silent ? ' silent' : ''}`;
    html = element('span', { class: classes, 'data-user-id': '*' }, silent ? text : `@${text}`);
  } else if (TOPIC_WILDCARDS.has(text)) {
    if (!silent && !silentMode) env.found.topicWildcard = true;
    html = element('span', { class: `topic-mention${silent ? ' silent' : ''}` }, silent ? text : `@${text}`);
  } else {
    const byId = parseIdMention(text);
    const user = byId ? env.ctx.userById(byId.id) : env.ctx.userByName(text);
    // `@**Name|id**` must name the user it points at.
    if (!user || (byId?.fullName !== undefined && byId.fullName !== user.fullName)) return false;
    if (!user.isActive) silent = true;
    if (!silentMode) (silent ? env.found.silentUserIds : env.found.userIds).add(user.id);
    html = element(
      'span',
      { class: silent ? 'user-mention silent' : 'user-mention', 'data-user-id': String(user.id) },
      silent ? user.fullName : `@${user.fullName}`,
    );
  }
  if (!silentMode) pushHtml(state, html, match[0].length);
  else state.pos += match[0].length;
  return true;
}

function groupMention(state: StateInline, silentMode: boolean): boolean {
  const env = envOf(state);
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */ || !env.mentionsEnabled) return false;
  if (!startAllowed(state.src, state.pos, MENTION_PRECEDERS)) return false;
  const match = matchAt(state, GROUP_MENTION);
  if (!match) return false;
  const group = env.ctx.groupByName(match[2]);
  if (!group) return false;
  const silent = match[1] === '_' || env.inQuote || group.deactivated;
  if (!silentMode) {
    if (!silent) env.found.groupIds.add(group.id);
    const html = element(
      'span',
      { class: silent ? 'user-group-mention silent' : 'user-group-mention', 'data-user-group-id': String(group.id) },
      silent ? group.name : `@${group.name}`,
    );
    pushHtml(state, html, match[0].length);
  } else {
    state.pos += match[0].length;
  }
  return true;
}

/** `#**channel**`, `#**channel>topic**` and `#**channel>topic@message_id**`. */
function channelLink(state: StateInline, silentMode: boolean): boolean {
  const env = envOf(state);
  if (state.src.charCodeAt(state.pos) !== 0x23 /* # */) return false;
  if (!startAllowed(state.src, state.pos, CHANNEL_LINK_PRECEDERS)) return false;

  const html = channelMessageLink(state, env) ?? channelTopicLink(state, env) ?? plainChannelLink(state, env);
  if (!html) return false;
  if (!silentMode) pushHtml(state, html.html, html.length);
  else state.pos += html.length;
  return true;
}

function channelMessageLink(state: StateInline, env: RenderEnv): { html: string; length: number } | null {
  const match = matchAt(state, CHANNEL_TOPIC_MESSAGE_LINK);
  const channel = match && env.ctx.channelByName(match[1]);
  if (!match || !channel) return null;
  const href = `/#narrow/channel/${encodeChannel(channel.id, channel.name)}/topic/${encodeHashComponent(match[2])}/near/${match[3]}`;
  return {
    html: element('a', { class: 'message-link', href }, `#${channel.name} > ${match[2]} @ 💬`),
    length: match[0].length,
  };
}

function channelTopicLink(state: StateInline, env: RenderEnv): { html: string; length: number } | null {
  const match = matchAt(state, CHANNEL_TOPIC_LINK);
  const channel = match && env.ctx.channelByName(match[1]);
  if (!match || !channel) return null;
  const href = `/#narrow/channel/${encodeChannel(channel.id, channel.name)}/topic/${encodeHashComponent(match[2])}`;
  return {
    html: element('a', { class: 'stream-topic', 'data-stream-id': String(channel.id), href }, `#${channel.name} > ${match[2]}`),
    length: match[0].length,
  };
}

function plainChannelLink(state: StateInline, env: RenderEnv): { html: string; length: number } | null {
  const match = matchAt(state, CHANNEL_LINK);
  const channel = match && env.ctx.channelByName(match[1]);
  if (!match || !channel) return null;
  const href = `/#narrow/channel/${encodeChannel(channel.id, channel.name)}`;
  return {
    html: element('a', { class: 'stream', 'data-stream-id': String(channel.id), href }, `#${channel.name}`),
    length: match[0].length,
  };
}

/** `:name:`: custom emoji first, then the built-in extras, then Unicode; unknown names stay text. */
function emojiName(state: StateInline, silentMode: boolean): boolean {
  const env = envOf(state);
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const match = matchAt(state, EMOJI_NAME);
  if (!match) return false;
  if (silentMode) {
    state.pos += match[0].length;
    return true;
  }
  const name = match[1];
  const title = name.replace(/_/g, ' ');
  const custom = env.ctx.realmEmoji(name);
  const extra = EXTRA_EMOJI.get(name);
  const code = emojiCodeForName(name);
  if (custom) {
    pushHtml(state, element('img', { alt: `:${name}:`, class: 'emoji', src: custom.sourceUrl, title }), match[0].length);
  } else if (extra) {
    pushHtml(state, element('img', { alt: `:${name}:`, class: 'emoji', src: extra.url, title }), match[0].length);
  } else if (code) {
    pushHtml(state, unicodeEmojiHtml(code, name), match[0].length);
  } else {
    // Like Zulip, an unknown `:name:` is consumed as text, so its closing colon cannot open another.
    const token = state.push('text', '', 0);
    token.content = match[0];
    state.pos += match[0].length;
  }
  return true;
}

export function unicodeEmojiHtml(code: string, name: string): string {
  const title = name.replace(/_/g, ' ');
  return element('span', { 'aria-label': title, class: `emoji emoji-${code}`, role: 'img', title }, `:${name}:`);
}

/** Underscores never mark emphasis in Zulip: a run of them is plain text. */
function literalUnderscores(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  let end = state.pos;
  while (end < state.posMax && state.src.charCodeAt(end) === 0x5f) end++;
  if (!silentMode) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

/** `~~text~~` on one line, spaces allowed inside (unlike GFM), but not `~~~`. */
function strikethrough(state: StateInline, silentMode: boolean): boolean {
  const start = state.pos;
  const src = state.src;
  if (src.charCodeAt(start) !== 0x7e || src.charCodeAt(start + 1) !== 0x7e) return false;
  if (start > 0 && src.charCodeAt(start - 1) === 0x7e) return false;
  const close = /~~(?!~)/g;
  close.lastIndex = start + 3;
  const found = close.exec(src);
  const end = found ? found.index : -1;
  if (end < 0 || end + 2 > state.posMax) return false;
  const inner = src.slice(start + 2, end);
  if (inner.length === 0 || /[~\n]/.test(inner)) return false;
  if (!silentMode) {
    state.push('del_open', 'del', 1);
    const oldMax = state.posMax;
    state.pos = start + 2;
    state.posMax = end;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    state.push('del_close', 'del', -1);
  }
  state.pos = end + 2;
  return true;
}

/**
 * Inline code keeps its content exactly, spaces included (CommonMark would trim one on each
 * side), and cannot span lines.
 */
function codeSpan(state: StateInline, silentMode: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x60 /* ` */) return false;
  let openEnd = start;
  while (openEnd < state.posMax && state.src.charCodeAt(openEnd) === 0x60) openEnd++;
  const length = openEnd - start;
  const close = nextBacktickRun(state, length, openEnd + 1);
  const content = close >= 0 && close + length <= state.posMax ? state.src.slice(openEnd, close) : null;
  if (content === null || content.includes('\n')) {
    if (!silentMode) state.pending += state.src.slice(start, openEnd);
    state.pos = openEnd;
    return true;
  }
  if (!silentMode) {
    const token = state.push('code_inline', 'code', 0);
    token.markup = state.src.slice(start, openEnd);
    token.content = content;
  }
  state.pos = close + length;
  return true;
}

/** Backtick runs of the inline source by length, found once per source so lookups stay cheap. */
const backtickRuns = new WeakMap<object, { src: string; runs: Map<number, number[]> }>();

/** Start of the first run of exactly `length` backticks at or after `from`, or -1. */
function nextBacktickRun(state: StateInline, length: number, from: number): number {
  let cached = backtickRuns.get(state);
  if (!cached || cached.src !== state.src) {
    const runs = new Map<number, number[]>();
    for (const match of state.src.matchAll(/`+/g)) {
      const list = runs.get(match[0].length) ?? [];
      list.push(match.index!);
      runs.set(match[0].length, list);
    }
    cached = { src: state.src, runs };
    backtickRuns.set(state, cached);
  }
  const starts = cached.runs.get(length);
  if (!starts) return -1;
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (starts[mid] < from) low = mid + 1;
    else high = mid;
  }
  return low < starts.length ? starts[low] : -1;
}

/** `***text***` is bold italic, `<strong><em>`, in that order. */
function strongEmphasis(state: StateInline, silentMode: boolean): boolean {
  const start = state.pos;
  if (!state.src.startsWith('***', start) || state.src.charCodeAt(start + 3) === 0x2a) return false;
  const match = /\*\*\*(?!\s)([^*\n]+)(?<!\s)\*\*\*/y;
  match.lastIndex = start;
  const found = match.exec(state.src);
  if (!found || start + found[0].length > state.posMax) return false;
  if (!silentMode) {
    state.push('strong_open', 'strong', 1).markup = '**';
    state.push('em_open', 'em', 1).markup = '*';
    const oldMax = state.posMax;
    state.pos = start + 3;
    state.posMax = start + 3 + found[1].length;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    state.push('em_close', 'em', -1).markup = '*';
    state.push('strong_close', 'strong', -1).markup = '**';
  }
  state.pos = start + found[0].length;
  return true;
}

const TIME = /<time:([^>]*?)>/y;
const NAIVE_ISO = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** A moment written `<time:...>`: a date and time (UTC unless a zone is given) or Unix seconds; null when unreadable. */
export function parseGlobalTime(input: string): Date | null {
  const text = input.trim();
  if (text === '') return null;
  let ms: number;
  if (/^-?\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else if (NAIVE_ISO.test(text)) ms = Date.parse(`${text.replace(' ', 'T')}Z`);
  else {
    ms = Date.parse(`${text} UTC`);
    if (Number.isNaN(ms)) ms = Date.parse(text);
  }
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  return realCalendarDate(text) ? new Date(ms) : null;
}

/** JavaScript rolls an impossible day over (February 30th is March 1st); Zulip refuses it. */
function realCalendarDate(text: string): boolean {
  const ymd = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!ymd) return true;
  const [year, month, day] = ymd.slice(1).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** ISO 8601 in UTC with a Z, and no fraction when there is none (as Zulip writes it). */
function isoUtc(date: Date): string {
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

function globalTime(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
  const match = matchAt(state, TIME);
  if (!match) return false;
  if (!silentMode) {
    const date = parseGlobalTime(match[1]);
    // A time that cannot be read stays as typed, as plain text (Zulip feature level 451).
    const html = date ? element('time', { datetime: isoUtc(date) }, match[1]) : escapeText(match[0]);
    pushHtml(state, html, match[0].length);
  } else {
    state.pos += match[0].length;
  }
  return true;
}
