import { buildRenderContext, renderMarkdown } from '../../src/core/markdown';
import { compileLinkifier, CompiledLinkifier } from '../../src/core/linkifiers/compiled';

/** Expected renderings are Zulip's own (its Markdown test suite), copied here as facts. */
function linkifiers(...list: [string, string][]): CompiledLinkifier[] {
  return list.map(([pattern, url_template], i) => compileLinkifier({ id: i + 1, pattern, url_template })!);
}

const render = (content: string, list: CompiledLinkifier[], realmUrl = 'https://chat.example.com') =>
  renderMarkdown(content, buildRenderContext({ linkifiers: list, realmUrl })).html;

const TRAC = linkifiers(['#(?P<id>[0-9]{2,8})', 'https://trac.example.com/ticket/{id}']);

describe('linkifiers in rendered messages', () => {
  test('matches become links; adjacent word characters and wrong openers prevent them', () => {
    expect(render('We should fix #224 #336 #446 and #115, but not issue#124 or #1124z or [trac #15](https://trac.example.com/ticket/16) today.', TRAC)).toBe(
      '<p>We should fix <a href="https://trac.example.com/ticket/224">#224</a> <a href="https://trac.example.com/ticket/336">#336</a> <a href="https://trac.example.com/ticket/446">#446</a> and <a href="https://trac.example.com/ticket/115">#115</a>, but not issue#124 or #1124z or <a href="https://trac.example.com/ticket/16">trac #15</a> today.</p>',
    );
  });

  test('boundaries: what may precede and follow a match', () => {
    const linked = (text: string) => render(text, TRAC).includes('https://trac.example.com');
    for (const text of ['Hello #123 World', 'Hello\u00a0#123\u00a0World', 'チケットは #123 です', '(#123)', '#123>', '"#123"', '#123@']) {
      expect([text, linked(text)]).toEqual([text, true]);
    }
    for (const text of ['Hello #123World', 'Hello#123 World', 'Hello#123World', 'チケットは#123です', 'チケットは #123です', ')#123(', '##123']) {
      expect([text, linked(text)]).toEqual([text, false]);
    }
  });

  test('letters in groups, spaces in patterns, and URL escaping as Zulip does it', () => {
    const list = linkifiers(
      ['#(?P<id>[a-zA-Z]+-[0-9]+)', 'https://trac.example.com/ticket/{id}'],
      ['url-(?P<id>[0-9]+)', 'https://example.com/A%20Test/%%%ba/{id}'],
      ['community guidelines', 'https://zulip.com/development-community/#community-norms'],
    );
    expect(render('#ZUL-123 was fixed, also #zul-321 was deployed', list)).toBe(
      '<p><a href="https://trac.example.com/ticket/ZUL-123">#ZUL-123</a> was fixed, also <a href="https://trac.example.com/ticket/zul-321">#zul-321</a> was deployed</p>',
    );
    expect(render('url-123 is well-escaped', list)).toBe('<p><a href="https://example.com/A%20Test/%25%25%ba/123">url-123</a> is well-escaped</p>');
    expect(render('please observe community guidelines here', list)).toBe(
      '<p>please observe <a href="https://zulip.com/development-community/#community-norms">community guidelines</a> here</p>',
    );
  });

  test('earlier linkifiers win overlapping text', () => {
    const list = linkifiers(
      ['(?P<id>ABC-[0-9]+)', 'https://trac.example.com/ticket/{id}'],
      ['(?P<id>[A-Z][A-Z0-9]*-[0-9]+)', 'https://other-trac.example.com/ticket/{id}'],
      ['(?P<id>[A-Z][A-Z0-9]+)', 'https://yet-another-trac.example.com/ticket/{id}'],
    );
    expect(render('We should fix ABC-123 or [trac ABC-123](https://trac.example.com/ticket/16) today.', list)).toBe(
      '<p>We should fix <a href="https://trac.example.com/ticket/ABC-123">ABC-123</a> or <a href="https://trac.example.com/ticket/16">trac ABC-123</a> today.</p>',
    );
    expect(render('ASD-123 ABC-123 QWE', list)).toBe(
      '<p><a href="https://other-trac.example.com/ticket/ASD-123">ASD-123</a> <a href="https://trac.example.com/ticket/ABC-123">ABC-123</a> <a href="https://yet-another-trac.example.com/ticket/QWE">QWE</a></p>',
    );
  });

  test('code, links and mentions keep their text; emphasis and lists do not', () => {
    expect(render('`#123` and\n```\n#456\n```', TRAC)).toBe(
      '<p><code>#123</code> and</p>\n<div class="codehilite"><pre><span></span><code>#456\n</code></pre></div>',
    );
    expect(render('see https://example.com/#789 and **see #12**', TRAC)).toBe(
      '<p>see <a href="https://example.com/#789">https://example.com/#789</a> and <strong>see <a href="https://trac.example.com/ticket/12">#12</a></strong></p>',
    );
    expect(render('- item #77', TRAC)).toBe('<ul>\n<li>item <a href="https://trac.example.com/ticket/77">#77</a></li>\n</ul>');
  });

  test('links into the organization become relative; unlinkable schemes stay text', () => {
    const list = linkifiers(['topic-(?P<id>[0-9]+)', 'https://chat.example.com/#narrow/id/{id}'], ['bad-(?P<id>[0-9]+)', 'javascript:alert({id})']);
    expect(render('topic-5 and bad-6', list)).toBe('<p><a href="#narrow/id/5">topic-5</a> and bad-6</p>');
  });

  test('URL template operators expand as RFC 6570 says', () => {
    const list = linkifiers([
      'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
      'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
    ]);
    expect(render('FOO_abcde;e;zulip;luxembourg;foo;23;testing', list)).toBe(
      '<p><a href="https://zone_e.zulip.net/ticket/luxembourg/abcde?name=foo&amp;chapter=23#testi">FOO_abcde;e;zulip;luxembourg;foo;23;testing</a></p>',
    );
  });

  test('without linkifiers nothing changes', () => {
    expect(render('#123 and ABC-1', [])).toBe('<p>#123 and ABC-1</p>');
  });
});
