import { ApiError } from '../../src/errors';
import { MAX_MESSAGE_LENGTH, normalizeMessageContent, referenceCandidates, truncateContent } from '../../src/core/markdown';

function errorOf(fn: () => unknown): { code: string; msg: string; status: number } {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, msg: error.message, status: error.httpStatus };
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('normalizeMessageContent', () => {
  test('strips trailing whitespace and leading blank lines, keeps leading spaces', () => {
    expect(normalizeMessageContent('\n\n  indented\nline  \n\n\t ')).toBe('  indented\nline');
  });

  test('empty and whitespace-only content is refused', () => {
    for (const raw of ['', '   ', '\n\n', ' \t\n ']) {
      expect(errorOf(() => normalizeMessageContent(raw))).toEqual({ code: 'BAD_REQUEST', msg: 'Message must not be empty', status: 400 });
    }
  });

  test('NUL characters are refused', () => {
    expect(errorOf(() => normalizeMessageContent('a\u0000b'))).toEqual({
      code: 'BAD_REQUEST',
      msg: 'Message must not contain null bytes',
      status: 400,
    });
  });

  test('content at the limit is kept whole', () => {
    const exact = 'x'.repeat(MAX_MESSAGE_LENGTH);
    expect(normalizeMessageContent(exact)).toBe(exact);
  });

  test('longer content is cut to the limit, ending with the marker', () => {
    const result = normalizeMessageContent('y'.repeat(MAX_MESSAGE_LENGTH + 500));
    expect(result).toHaveLength(10000);
    expect(result.endsWith('\n[message truncated]')).toBe(true);
    expect(result).toBe('y'.repeat(10000 - 20) + '\n[message truncated]');
  });

  test('the limit counts characters, not UTF-16 units', () => {
    const emoji = '😀'.repeat(MAX_MESSAGE_LENGTH);
    expect(normalizeMessageContent(emoji)).toBe(emoji);
    const cut = normalizeMessageContent('😀'.repeat(MAX_MESSAGE_LENGTH + 1));
    expect([...cut]).toHaveLength(MAX_MESSAGE_LENGTH);
  });
});

test('truncateContent leaves short text alone', () => {
  expect(truncateContent('topic', 60, '...')).toBe('topic');
  expect(truncateContent('abcdefgh', 6, '...')).toBe('abc...');
});

describe('referenceCandidates', () => {
  test('collects names, ids, groups, channels and emoji; skips wildcards', () => {
    expect(
      referenceCandidates('hi @**Ada Lovelace** @_**Bob|12** @**|13** @**all** @**topic** @*support* @_*ops* #**general** #**dev>builds** :smile: :a:b:'),
    ).toEqual({
      userNames: ['Ada Lovelace'],
      userIds: [12, 13],
      groupNames: ['support', 'ops'],
      channelNames: ['general', 'dev>builds', 'dev'],
      emojiNames: ['smile', 'a', 'b'],
      uploadPathIds: [],
    });
  });

  test('collects uploads linked, as typed and decoded', () => {
    expect(referenceCandidates('[a](/user_uploads/2/ab/x/caf%C3%A9.png) and /user_uploads/2/cd/y/b.png?x').uploadPathIds).toEqual([
      '2/ab/x/caf%C3%A9.png',
      '2/ab/x/café.png',
      '2/cd/y/b.png',
    ]);
  });

  test('finds nothing in plain text', () => {
    expect(referenceCandidates('just words: no refs')).toEqual({
      userNames: [],
      userIds: [],
      groupNames: [],
      channelNames: [],
      emojiNames: [],
      uploadPathIds: [],
    });
  });
});
