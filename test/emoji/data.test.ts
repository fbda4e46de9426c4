import { codeToEmoji, emojiToCode, isEmojiCodeSyntax } from '../../src/core/emoji/codes';
import { emojiCodeForName, emojiNameForCode, isValidUnicodeEmojiCode, unicodeEmojiData } from '../../src/core/emoji/data';
import { checkEmojiRequest, checkValidEmojiName, resolveEmojiName } from '../../src/core/emoji/validation';
import { ApiError } from '../../src/errors';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'ok';
}

describe('emoji codes', () => {
  test('syntax: dash-separated lowercase hex code points', () => {
    for (const code of ['1f44d', '1f1fa-1f1f8', '0023-20e3', '1f937-200d-2640', '2764']) expect(isEmojiCodeSyntax(code)).toBe(true);
    for (const code of ['', '1F44D', '1f44d-', '-1f44d', 'zzzz', '1f44d--1f3fb', '1f4', '1f44d 1f44e', '110000']) {
      expect(isEmojiCodeSyntax(code)).toBe(false);
    }
  });

  test('valid Unicode emoji codes are known emoji', () => {
    expect(isValidUnicodeEmojiCode('1f44d')).toBe(true);
    expect(isValidUnicodeEmojiCode('1f1fa-1f1f8')).toBe(true);
    expect(isValidUnicodeEmojiCode('1f937-200d-2640')).toBe(true);
    expect(isValidUnicodeEmojiCode('0041')).toBe(false);
    expect(isValidUnicodeEmojiCode('1F44D')).toBe(false);
    expect(isValidUnicodeEmojiCode('1f3fb')).toBe(false);
    expect(isValidUnicodeEmojiCode('zulip')).toBe(false);
  });

  test('conversion between emoji and codes drops presentation selectors', () => {
    expect(emojiToCode('👍')).toBe('1f44d');
    expect(emojiToCode('❤\ufe0f')).toBe('2764');
    expect(emojiToCode('#\ufe0f\u20e3')).toBe('0023-20e3');
    expect(codeToEmoji('1f1fa-1f1f8')).toBe('🇺🇸');
  });
});

describe('emoji names', () => {
  test('Zulip names and aliases', () => {
    expect(emojiCodeForName('smile')).toBe('1f642');
    expect(emojiCodeForName('+1')).toBe('1f44d');
    expect(emojiCodeForName('thumbs_up')).toBe('1f44d');
    expect(emojiCodeForName('tada')).toBe('1f389');
    expect(emojiCodeForName('heart')).toBe('2764');
    expect(emojiCodeForName('working_on_it')).toBe('1f6e0');
    expect(emojiCodeForName('octopus')).toBe('1f419');
    expect(emojiCodeForName('check')).toBe('2705');
    expect(emojiCodeForName('light_bulb')).toBe('1f4a1');
    expect(emojiCodeForName('bulb')).toBe('1f4a1');
    expect(emojiCodeForName('first_place')).toBe('1f947');
  });

  test('newer emoji: Unicode-style names with underscores, iamcal spellings as aliases', () => {
    expect(emojiNameForCode('1f929')).toBe('star_struck');
    expect(emojiCodeForName('star-struck')).toBe('1f929');
    expect(emojiCodeForName('woman_shrugging')).toBe('1f937-200d-2640');
    expect(emojiCodeForName('woman-shrugging')).toBe('1f937-200d-2640');
  });

  test('flags are named after their country, accents kept, ASCII accepted', () => {
    expect(emojiNameForCode('1f1fa-1f1f8')).toBe('flag_united_states');
    expect(emojiCodeForName('us')).toBe('1f1fa-1f1f8');
    expect(emojiNameForCode('1f1f9-1f1f7')).toBe('flag_türkiye');
    expect(emojiCodeForName('flag_turkiye')).toBe('1f1f9-1f1f7');
  });

  test('canonical names per code', () => {
    expect(emojiNameForCode('1f44d')).toBe('+1');
    expect(emojiNameForCode('1f642')).toBe('smile');
    expect(emojiNameForCode('1f604')).toBe('big_smile');
    expect(emojiNameForCode('0023-20e3')).toBe('hash');
  });

  test('Zulip names win where iamcal uses the same name for another emoji', () => {
    expect(emojiCodeForName('ok')).toBe('1f44c');
    expect(emojiNameForCode('1f197')).toBe('squared_ok');
    expect(emojiCodeForName('up')).toBe('2b06');
    expect(emojiNameForCode('1f199')).toBe('squared_up');
    expect(emojiCodeForName('cat')).toBe('1f408');
    expect(emojiNameForCode('1f431')).toBe('kitten');
  });

  test('an alias never takes the canonical name of another emoji', () => {
    expect(emojiCodeForName('secret')).toBe('1f5dd');
    expect(emojiNameForCode('3299')).toBe('japanese_secret_button');
  });

  test('clock faces are not emoji, except the one for time', () => {
    expect(isValidUnicodeEmojiCode('1f550')).toBe(false);
    expect(emojiCodeForName('time')).toBe('1f557');
  });

  test('every canonical name leads back to its code', () => {
    const { nameToCode, codeToName } = unicodeEmojiData();
    expect(codeToName.size).toBeGreaterThan(1800);
    for (const [code, name] of codeToName) expect(nameToCode.get(name)).toBe(code);
  });

  test('unknown names', () => {
    expect(emojiCodeForName('not_an_emoji')).toBeUndefined();
    expect(emojiCodeForName('skin-tone-2')).toBeUndefined();
  });
});

describe('checkEmojiRequest', () => {
  const realm = (id: number) => ({ 1: { id: 1, name: 'green_tick', deactivated: false }, 2: { id: 2, name: 'old', deactivated: true } })[id];

  test.each([
    ['thumbs_up', '1f44d', 'unicode_emoji', 'ok'],
    ['+1', '1f44d', 'unicode_emoji', 'ok'],
    ['smile', '1f44d', 'unicode_emoji', 'BAD_REQUEST: Invalid emoji name.'],
    ['smile', '1f64z', 'unicode_emoji', 'BAD_REQUEST: Invalid emoji code.'],
    ['smile', '0041', 'unicode_emoji', 'BAD_REQUEST: Invalid emoji code.'],
    ['green_tick', '1', 'realm_emoji', 'ok'],
    ['other', '1', 'realm_emoji', 'BAD_REQUEST: Invalid custom emoji name.'],
    ['old', '2', 'realm_emoji', 'BAD_REQUEST: This custom emoji has been deactivated.'],
    ['x', '99', 'realm_emoji', 'BAD_REQUEST: Invalid custom emoji.'],
    ['x', 'abc', 'realm_emoji', 'BAD_REQUEST: Invalid custom emoji.'],
    ['zulip', 'zulip', 'zulip_extra_emoji', 'ok'],
    ['zulip', 'zulip', 'service_extra_emoji', 'ok'],
    ['zulip', 'parley', 'zulip_extra_emoji', 'BAD_REQUEST: Invalid emoji code.'],
    ['octopus', 'zulip', 'zulip_extra_emoji', 'BAD_REQUEST: Invalid emoji name.'],
    ['smile', '1f642', 'weird_emoji', 'BAD_REQUEST: Invalid emoji type.'],
  ])('%s / %s / %s', (name, code, type, expected) => {
    expect(messageOf(() => checkEmojiRequest(name, code, type, realm))).toBe(expected);
  });
});

test('resolveEmojiName prefers custom emoji, then extras, then Unicode', () => {
  const custom = (name: string) => (name === 'smile' ? { id: 4 } : undefined);
  expect(resolveEmojiName('smile', custom)).toEqual({ emojiCode: '4', reactionType: 'realm_emoji' });
  expect(resolveEmojiName('zulip', custom)).toEqual({ emojiCode: 'zulip', reactionType: 'zulip_extra_emoji' });
  expect(resolveEmojiName('tada', custom)).toEqual({ emojiCode: '1f389', reactionType: 'unicode_emoji' });
  expect(messageOf(() => resolveEmojiName('not_a_real_emoji', custom))).toBe("BAD_REQUEST: Emoji 'not_a_real_emoji' does not exist");
});

test('checkValidEmojiName', () => {
  expect(messageOf(() => checkValidEmojiName('party_parrot-2'))).toBe('ok');
  expect(messageOf(() => checkValidEmojiName(''))).toBe('BAD_REQUEST: Emoji name is missing');
  expect(messageOf(() => checkValidEmojiName('parrot_'))).toBe('BAD_REQUEST: Emoji names must end with either a letter or digit.');
  expect(messageOf(() => checkValidEmojiName('Parrot'))).toBe(
    'BAD_REQUEST: Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
  );
});
