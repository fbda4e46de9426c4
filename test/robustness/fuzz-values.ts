import type { ParamKind } from '../../src/rest/endpoint';

/**
 * Values for generated requests, as they travel on the wire. A value is text (percent-encoded when
 * sent) or `{ bytes }`, already percent-encoded, for what text cannot hold: invalid UTF-8.
 */
export type WireValue = string | { bytes: string };

/** A seeded generator (mulberry32): the same seed gives the same requests. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

/** What the generated values may name: rows that exist, so some requests get past the lookups. */
export interface Known {
  emails: string[];
  channelNames: string[];
}

/** Ids small enough to name rows of a fresh server (users, channels, messages, groups...). */
const IDS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15];

/** Numbers (as JSON text) at and past every boundary a handler or the database has. */
const NUMBER_TEXTS = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740991',
  '9007199254740993',
  '99999999999999999999',
  '1e400',
  '-1e400',
  '1.5',
  '1e3',
  '-0',
  '10000000000000000',
];

/** Text that is JSON of the wrong type, or not JSON at all. */
const WRONG_TEXTS = ['', 'null', 'true', '[]', '{}', '"5"', 'abc', '0x10', ' 7 ', '１', 'NaN', '[1,', '{"a":', '\u0000'];

const INVALID_UTF8: { bytes: string }[] = [
  { bytes: '%FF' },
  { bytes: 'a%C3%28b' },
  { bytes: '%ED%A0%80' },
  { bytes: '%C0%80' },
  { bytes: '%F4%90%80%80' },
  { bytes: 'x%00y' },
];

const KEYS = [
  'operator',
  'operand',
  'negated',
  'name',
  'id',
  'stream_id',
  'type',
  'to',
  'topic',
  'content',
  'value',
  'property',
  'direct_members',
  'direct_subgroups',
  'description',
  'color',
  'is_muted',
  'in_home_view',
  'pin_to_top',
  'timestamp',
  'text',
  'order',
  'subscription_data',
  'vendor',
  'url_pattern',
  '',
];

const OPERATORS = ['channel', 'stream', 'topic', 'sender', 'is', 'search', 'dm', 'pm-with', 'id', 'near', 'has', 'in', 'dm-including', 'channels', 'with'];

export class ValueGenerator {
  constructor(
    private readonly rng: Rng,
    private readonly known: Known,
  ) {}

  /** A string as a client might send it, or as an attacker would. `short` keeps it URL-sized. */
  text(short: boolean): string {
    const r = this.rng;
    const long = short ? [] : ['a'.repeat(1001), 'b'.repeat(10_001), 'x'.repeat(70_000)];
    return r.pick([
      '',
      ' ',
      'x',
      'fuzz topic',
      'Lobby',
      r.pick(this.known.channelNames),
      r.pick(this.known.emails),
      `${r.pick(this.known.emails)},${r.pick(this.known.emails)}`,
      'a\u0000b',
      '\u0000',
      '😀🎉',
      'ǅ\u202e',
      'ｆｕｌｌ',
      "'; DROP TABLE users; --",
      '%',
      '\\',
      '"',
      '<b>x</b>',
      '../../etc/passwd',
      '\n\t',
      'null',
      'true',
      '1',
      '-1',
      '99999999999',
      '[]',
      '{}',
      '[1,2]',
      `["${r.pick(this.known.channelNames)}"]`,
      '[{"operator":"is","operand":"dm"}]',
      'newest',
      'oldest',
      'first_unread',
      'add',
      'remove',
      'read',
      'starred',
      'stream',
      'direct',
      'private',
      'channel',
      '**bold** @**all** #**lobby>x** :smile: <time:2024-01-01T00:00:00Z>',
      'https://example.com/x',
      'a'.repeat(61),
      ...long,
    ]);
  }

  private number(): number | string {
    return this.rng.chance(0.5) ? this.rng.pick(IDS) : this.rng.pick(NUMBER_TEXTS);
  }

  /** A JSON value of any type, nested up to `depth` levels. */
  json(depth: number): unknown {
    const r = this.rng;
    const choice = r.int(depth > 0 ? 10 : 6);
    switch (choice) {
      case 0:
        return r.pick(IDS);
      case 1: {
        const n = Number(r.pick(NUMBER_TEXTS));
        return Number.isFinite(n) ? n : 1e300;
      }
      case 2:
        return this.text(true);
      case 3:
        return r.chance(0.5);
      case 4:
        return null;
      case 5:
        return r.pick(IDS);
      case 6:
      case 7:
        return Array.from({ length: r.int(4) }, () => this.json(depth - 1));
      case 8: {
        const out: Record<string, unknown> = {};
        for (let i = r.int(4); i > 0; i--) out[r.pick(KEYS)] = this.json(depth - 1);
        return out;
      }
      default:
        return Array.from({ length: 1 + r.int(3) }, () => ({
          operator: r.pick(OPERATORS),
          operand: r.chance(0.5) ? this.text(true) : this.json(0),
          ...(r.chance(0.3) ? { negated: this.json(0) } : {}),
        }));
    }
  }

  /** JSON text that is too deep, too wide or malformed. */
  private hostileJson(): string {
    const r = this.rng;
    const n = r.pick([100, 1000, 5000]);
    return r.pick([
      '['.repeat(n) + ']'.repeat(n),
      '{"a":'.repeat(n) + '1' + '}'.repeat(n),
      '['.repeat(n),
      JSON.stringify(Array.from({ length: 70_000 }, (_, i) => i + 1)),
      JSON.stringify(Array.from({ length: 1000 }, () => ({ operator: 'search', operand: 'x' }))),
      '{"__proto__": {"polluted": true}}',
      '{"constructor": {"prototype": {"polluted": true}}}',
    ]);
  }

  /** A value for a parameter of this kind: usually plausible, often wrong, sometimes hostile. */
  forKind(kind: ParamKind, short: boolean): WireValue {
    const r = this.rng;
    const roll = r.next();
    if (roll < 0.04) return r.pick(INVALID_UTF8);
    if (roll < 0.1) return r.pick(WRONG_TEXTS);
    if (roll < 0.13 && !short) return this.hostileJson();
    switch (kind.type) {
      case 'int':
        return String(this.number());
      case 'bool':
        return r.pick(['true', 'false', 'true', 'false', '1', '0', '"true"', 'null']);
      case 'enum':
        return r.chance(0.8) ? String(r.pick(kind.values ?? [''])) : this.text(true);
      case 'string':
        return this.text(short);
      case 'intList':
        return JSON.stringify(
          Array.from({ length: r.int(5) }, () => (r.chance(0.7) ? r.pick(IDS) : Number(r.pick(NUMBER_TEXTS)))).map((n) => (Number.isFinite(n) ? n : 1e300)),
        );
      case 'json':
      case 'raw':
        return r.chance(0.7) ? JSON.stringify(this.json(3)) : this.text(short);
    }
  }

  /** A path segment for a parameter of this kind (already percent-encoded). */
  pathSegment(kind: ParamKind): string {
    const r = this.rng;
    if (r.chance(0.6) && kind.type === 'int') return String(r.pick(IDS));
    return r.pick([
      '1',
      '0',
      '-1',
      '99999999999',
      '2147483648',
      'abc',
      '%00',
      '%FF',
      '1.5',
      '007',
      '%2E%2E',
      'a'.repeat(300),
      encodeURIComponent(r.pick(this.known.channelNames)),
      encodeURIComponent(r.pick(this.known.emails)),
      '%E5%90%8D',
    ]);
  }

  /** A parameter name no endpoint declares, or one written the way qs reads nested names. */
  strayName(): string {
    return this.rng.pick(['unknown_param', 'a[b]', 'a[]', '__proto__', 'constructor[prototype][x]', 'x'.repeat(300), '%00', '']);
  }
}
