import MarkdownIt from 'markdown-it';
import { renderMarkdown, renderDescription } from '../../src/core/markdown';
import { mayHoldLink } from '../../src/core/markdown/render';
import { seededSequence } from '../helpers/random';
import { ctx } from './fixtures';

const html = (content: string) => renderMarkdown(content, ctx).html;

describe("basic Markdown, in Zulip's output format", () => {
  test.each([
    ['plain paragraph', 'test_input', '<p>test_input</p>'],
    ['newlines are line breaks', 'test\nbar', '<p>test<br>\nbar</p>'],
    ['bold', '**foo**', '<p><strong>foo</strong></p>'],
    ['italic', '*foo*', '<p><em>foo</em></p>'],
    ['bold italic', '***foo***', '<p><strong><em>foo</em></strong></p>'],
    ['underscores are never emphasis', '_foo_ and __bar__', '<p>_foo_ and __bar__</p>'],
    ['stars in code-like text', 'const char *x = (char *)y', '<p>const char *x = (char *)y</p>'],
    ['strikethrough', 'I like ~~software~~ hardware', '<p>I like <del>software</del> hardware</p>'],
    ['strikethrough with inner spaces', 'I ~~ like software ~~ love hardware', '<p>I <del> like software </del> love hardware</p>'],
    ['three tildes are not strikethrough', 'a ~~~b~~~ c', '<p>a ~~~b~~~ c</p>'],
    ['inline code keeps spaces', '` outer ` ```    space    ```', '<p><code> outer </code> <code>    space    </code></p>'],
    ['inline code escapes', '`<&nbsp;>`', '<p><code>&lt;&amp;nbsp;&gt;</code></p>'],
    ['heading', '# Hello world', '<h1>Hello world</h1>'],
    ['heading needs a space', '#Hello world', '<p>#Hello world</p>'],
    ['no setext headings', 'text\n---', '<p>text</p>\n<hr>'],
    ['entities', '& &amp; &amp;amp;', '<p>&amp; &amp; &amp;amp;</p>'],
    ['quotes stay literal in text', 'it\'s "fine"', '<p>it\'s "fine"</p>'],
  ])('%s', (_name, input, expected) => {
    expect(html(input)).toBe(expected);
  });

  test('empty content renders to nothing', () => {
    expect(html('')).toBe('');
  });
});

describe('blocks', () => {
  test('fenced code with a language gets the lexer name', () => {
    expect(html('Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~')).toBe(
      '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code>def speak(self):\n    x = 1\n</code></pre></div>',
    );
    expect(html('```js\nlet a = 1;\n```')).toBe(
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>let a = 1;\n</code></pre></div>',
    );
  });

  test('unknown languages keep their name; no language, no attribute', () => {
    expect(html('``` inventedlanguage\ndef speak(self):\n```')).toBe(
      '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>def speak(self):\n</code></pre></div>',
    );
    expect(html('```\nplain\n```')).toBe('<div class="codehilite"><pre><span></span><code>plain\n</code></pre></div>');
  });

  test('code is escaped and trailing whitespace dropped', () => {
    expect(html('~~~\n<h1>"it\'s" & more</h1>   \n~~~')).toBe(
      '<div class="codehilite"><pre><span></span><code>&lt;h1&gt;&quot;it&#39;s&quot; &amp; more&lt;/h1&gt;\n</code></pre></div>',
    );
  });

  test('indented code blocks and empty fences', () => {
    expect(html('    def foo(): pass')).toBe('<div class="codehilite"><pre><span></span><code>def foo(): pass\n</code></pre></div>');
    expect(html('```\n```')).toBe('');
  });

  test('blockquotes, with > and with a quote fence', () => {
    expect(html('> Hello World!\n\n> Hello Universe!')).toBe(
      '<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>',
    );
    expect(html('Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~')).toBe(
      '<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>',
    );
  });

  test('spoilers', () => {
    expect(html('```spoiler header\ncontent\n```\noutside spoiler\n')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
    );
  });

  test('lists: tight, loose, hanging, nested and numbered', () => {
    expect(html('Some text with a hanging list:\n* One item\n* Two items')).toBe(
      '<p>Some text with a hanging list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n</ul>',
    );
    expect(html('* Alpha\n\n* Beta')).toBe('<ul>\n<li>\n<p>Alpha</p>\n</li>\n<li>\n<p>Beta</p>\n</li>\n</ul>');
    expect(html('* outer\n  * inner one\n  * inner two')).toBe('<ul>\n<li>outer<ul>\n<li>inner one</li>\n<li>inner two</li>\n</ul>\n</li>\n</ul>');
    expect(html('3. A\n3. B')).toBe('<ol start="3">\n<li>A</li>\n<li>B</li>\n</ol>');
  });

  test('tables', () => {
    expect(html('a | b\n--|--:\n1 | 2')).toBe(
      '<table>\n<thead>\n<tr>\n<th>a</th>\n<th style="text-align: right;">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td style="text-align: right;">2</td>\n</tr>\n</tbody>\n</table>',
    );
  });
});

describe('links', () => {
  test.each([
    ['named link', '[hello](https://github.com)', '<p><a href="https://github.com">hello</a></p>'],
    ['empty text shows the address', '[](https://github.com)', '<p><a href="https://github.com">https://github.com</a></p>'],
    ['blank text shows the address', '[  ](https://github.com)', '<p><a href="https://github.com">https://github.com</a></p>'],
    ['autolinked URL', 'see https://www.google.com/ now', '<p>see <a href="https://www.google.com/">https://www.google.com/</a> now</p>'],
    ['autolinked domain', 'with short example.com url', '<p>with short <a href="http://example.com">example.com</a> url</p>'],
    ['autolinked e-mail', 'a@b.com', '<p><a href="mailto:a@b.com">a@b.com</a></p>'],
    ['no angle-bracket autolinks', '<a@b.com>', '<p>&lt;<a href="mailto:a@b.com">a@b.com</a>&gt;</p>'],
    ['file names are not domains', 'readme.md and views.py', '<p>readme.md and views.py</p>'],
    [
      'parentheses in URLs',
      '(http://en.wikipedia.org/wiki/Each-way_(bet))',
      '<p>(<a href="http://en.wikipedia.org/wiki/Each-way_(bet)">http://en.wikipedia.org/wiki/Each-way_(bet)</a>)</p>',
    ],
    ['links get http:// by default', '[x](example.com)', '<p><a href="http://example.com">x</a></p>'],
    ['addresses become mailto', '[m](a@b.com)', '<p><a href="mailto:a@b.com">m</a></p>'],
    ['local paths and fragments', '[y](/user_uploads/1/a.png) [z](#narrow/x)', '<p><a href="/user_uploads/1/a.png">y</a> <a href="#narrow/x">z</a></p>'],
    [
      'tel and sms',
      '[call me](tel:+14155551234) [or not](sms:+14155551234)',
      '<p><a href="tel:+14155551234">call me</a> <a href="sms:+14155551234">or not</a></p>',
    ],
    [
      'links into the organization become relative',
      '[foo](https://chat.example.com/#narrow/channel/9-announce)',
      '<p><a href="#narrow/channel/9-announce">foo</a></p>',
    ],
    [
      'autolinks into the organization too',
      'https://chat.example.com/user_uploads/2/a.txt',
      '<p><a href="user_uploads/2/a.txt">https://chat.example.com/user_uploads/2/a.txt</a></p>',
    ],
    [
      'reference links are not a thing',
      'Hello [world]\n\n[world]: https://google.com',
      '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>',
    ],
    ['image syntax (a web address is only a link)', '![img](https://x.com/a.png)', '<p><a href="https://x.com/a.png">img</a></p>'],
    ['strikethrough around a link', '~~test http://xx.xx link~~', '<p><del>test <a href="http://xx.xx">http://xx.xx</a> link</del></p>'],
    ['upper-case scheme', 'HTTPS://x.io', '<p><a href="HTTPS://x.io">HTTPS://x.io</a></p>'],
    ['non-Latin top-level domain', 'see пример.рф', '<p>see <a href="http://xn--e1afmkfd.xn--p1ai">пример.рф</a></p>'],
    ['punycode top-level domain', 'x.xn--p1ai', '<p><a href="http://x.xn--p1ai">x.рф</a></p>'],
    ['a sentence with a colon and a full stop', 'Note: nothing here.', '<p>Note: nothing here.</p>'],
  ])('%s', (_name, input, expected) => {
    expect(html(input)).toBe(expected);
  });

  test('the link pre-check passes every text in which the linkifier finds a link', () => {
    // The linkifier as the renderer configures it, without the pre-check.
    const linkify = new MarkdownIt('default', { linkify: true }).linkify
      .set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false })
      .add('ftp:', null)
      .add('//', null);
    const pieces = ['a', 'Z', '.', '@', ':', '/', ' ', 'www', 'com', 'рф', 'xn--p1ai', 'http', 'HTTPS', 'mailto', '1', '-', '(', ')', '_', 'é', '.\u00e9'];
    const next = seededSequence(2463534242);
    let linked = 0;
    for (let i = 0; i < 50_000; i++) {
      let text = '';
      for (let n = 1 + (next() % 8); n > 0; n--) text += pieces[next() % pieces.length];
      if (linkify.test(text)) {
        linked++;
        expect([text, mayHoldLink(text)]).toEqual([text, true]);
      }
    }
    // The sample must exercise the linkifier, not only texts without links.
    expect(linked).toBeGreaterThan(200);
    expect(mayHoldLink('Hello from the **benchmark**: a short message, as most are.')).toBe(false);
  });
});

describe('user mentions', () => {
  test('by name, by name and id, by id, case-insensitively', () => {
    const result = renderMarkdown('@**Example User** @**Example User|31** @**|31** @**example user**', ctx);
    const span = '<span class="user-mention" data-user-id="31">@Example User</span>';
    expect(result.html).toBe(`<p>${span} ${span} ${span} ${span}</p>`);
    expect(result.mentions).toEqual({ userIds: [31], silentUserIds: [], groupIds: [], streamWildcard: false, topicWildcard: false });
  });

  test('silent mentions do not count as mentions', () => {
    const result = renderMarkdown('@_**Example User** and @_**Example User|31**', ctx);
    const span = '<span class="user-mention silent" data-user-id="31">Example User</span>';
    expect(result.html).toBe(`<p>${span} and ${span}</p>`);
    expect(result.mentions.userIds).toEqual([]);
    expect(result.mentions.silentUserIds).toEqual([31]);
  });

  test('a loud mention wins over a silent one of the same user', () => {
    const result = renderMarkdown('@_**Example User** @**Example User**', ctx);
    expect(result.mentions.userIds).toEqual([31]);
    expect(result.mentions.silentUserIds).toEqual([]);
  });

  test('deactivated users are mentioned silently', () => {
    const result = renderMarkdown('@**Old Timer**', ctx);
    expect(result.html).toBe('<p><span class="user-mention silent" data-user-id="5">Old Timer</span></p>');
    expect(result.mentions.userIds).toEqual([]);
  });

  test('unknown names and mismatched ids fall through to ordinary Markdown', () => {
    expect(html('@**Nobody**')).toBe('<p>@<strong>Nobody</strong></p>');
    expect(html('@**Old Timer|31**')).toBe('<p>@<strong>Old Timer|31</strong></p>');
    expect(html('@**|999**')).toBe('<p>@<strong>|999</strong></p>');
    expect(renderMarkdown('@**Nobody**', ctx).mentions.userIds).toEqual([]);
  });

  test('a mention needs a boundary before the @', () => {
    expect(html('x@**Example User**')).toBe('<p>x@<strong>Example User</strong></p>');
    expect(html('(@**Example User**)')).toBe('<p>(<span class="user-mention" data-user-id="31">@Example User</span>)</p>');
  });

  test('names are escaped', () => {
    expect(html('@**Ada <Admin>**')).toBe('<p><span class="user-mention" data-user-id="32">@Ada &lt;Admin&gt;</span></p>');
  });

  test('mentions inside quotes are silent', () => {
    const result = renderMarkdown('> @**Example User** said\n\n```quote\n@*support*\n```', ctx);
    expect(result.html).toBe(
      '<blockquote>\n<p><span class="user-mention silent" data-user-id="31">Example User</span> said</p>\n</blockquote>\n' +
        '<blockquote>\n<p><span class="user-group-mention silent" data-user-group-id="17">support</span></p>\n</blockquote>',
    );
    expect(result.mentions.userIds).toEqual([]);
    expect(result.mentions.groupIds).toEqual([]);
  });

  test('mentions inside code stay literal', () => {
    const result = renderMarkdown('`@**Example User**`\n\n```\n@**all**\n```', ctx);
    expect(result.html).toBe('<p><code>@**Example User**</code></p>\n<div class="codehilite"><pre><span></span><code>@**all**\n</code></pre></div>');
    expect(result.mentions).toEqual({ userIds: [], silentUserIds: [], groupIds: [], streamWildcard: false, topicWildcard: false });
  });
});

describe('wildcard mentions', () => {
  test.each(['all', 'everyone', 'channel', 'stream'])('@**%s** is a channel wildcard', (word) => {
    const result = renderMarkdown(`@**${word}**`, ctx);
    expect(result.html).toBe(`<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${word}</span></p>`);
    expect(result.mentions.streamWildcard).toBe(true);
    expect(result.mentions.topicWildcard).toBe(false);
  });

  test('@**topic** is a topic wildcard', () => {
    const result = renderMarkdown('@**topic**', ctx);
    expect(result.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    expect(result.mentions.topicWildcard).toBe(true);
    expect(result.mentions.streamWildcard).toBe(false);
  });

  test('silent wildcards set no flag', () => {
    const result = renderMarkdown('@_**all** @_**topic**', ctx);
    expect(result.html).toBe(
      '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span> <span class="topic-mention silent">topic</span></p>',
    );
    expect(result.mentions.streamWildcard).toBe(false);
    expect(result.mentions.topicWildcard).toBe(false);
  });
});

describe('user group mentions', () => {
  test('loud and silent', () => {
    const result = renderMarkdown('@*support* @_*support*', ctx);
    expect(result.html).toBe(
      '<p><span class="user-group-mention" data-user-group-id="17">@support</span> <span class="user-group-mention silent" data-user-group-id="17">support</span></p>',
    );
    expect(result.mentions.groupIds).toEqual([17]);
  });

  test('deactivated groups are mentioned silently; unknown groups are emphasis', () => {
    const result = renderMarkdown('@*retired* @*nope*', ctx);
    expect(result.html).toBe('<p><span class="user-group-mention silent" data-user-group-id="18">retired</span> @<em>nope</em></p>');
    expect(result.mentions.groupIds).toEqual([]);
  });
});

describe('channel links', () => {
  test('channel, topic and message links', () => {
    expect(html('#**announce**')).toBe('<p><a class="stream" data-stream-id="9" href="/#narrow/channel/9-announce">#announce</a></p>');
    expect(html('#**general chat>a.b (c)**')).toBe(
      '<p><a class="stream-topic" data-stream-id="10" href="/#narrow/channel/10-general-chat/topic/a.2Eb.20.28c.29">#general chat &gt; a.b (c)</a></p>',
    );
    expect(html('#**announce>news@42**')).toBe(
      '<p><a class="message-link" href="/#narrow/channel/9-announce/topic/news/near/42">#announce &gt; news @ 💬</a></p>',
    );
  });

  test('unknown channels stay text', () => {
    expect(html('#**secret**')).toBe('<p>#<strong>secret</strong></p>');
  });
});

describe('emoji', () => {
  const smile = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>';

  test('names', () => {
    expect(html(':smile:')).toBe(`<p>${smile}</p>`);
    expect(html('**:smile:**')).toBe(`<p><strong>${smile}</strong></p>`);
    expect(html(':+1: :thumbs_up:')).toBe(
      '<p><span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span> <span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span></p>',
    );
  });

  test('adjacent names share no colons with unknown ones', () => {
    expect(html(':cat:hello:dog::rabbit:')).toBe(
      '<p><span aria-label="cat" class="emoji emoji-1f408" role="img" title="cat">:cat:</span>hello' +
        '<span aria-label="dog" class="emoji emoji-1f415" role="img" title="dog">:dog:</span>' +
        '<span aria-label="rabbit" class="emoji emoji-1f407" role="img" title="rabbit">:rabbit:</span></p>',
    );
    expect(html('x::y::z :wasted waste: :notanemoji:smile:')).toBe('<p>x::y::z :wasted waste: :notanemoji:smile:</p>');
  });

  test('Unicode characters render as emoji', () => {
    expect(html('💩 word 🎄')).toBe(
      '<p><span aria-label="poop" class="emoji emoji-1f4a9" role="img" title="poop">:poop:</span> word ' +
        '<span aria-label="holiday tree" class="emoji emoji-1f384" role="img" title="holiday tree">:holiday_tree:</span></p>',
    );
    expect(html('Black upward arrow \u2b06\ufe0f')).toBe(
      '<p>Black upward arrow <span aria-label="up" class="emoji emoji-2b06" role="img" title="up">:up:</span></p>',
    );
    expect(html('🤷\u200d♀\ufe0f #\ufe0f\u20e3')).toBe(
      '<p><span aria-label="woman shrugging" class="emoji emoji-1f937-200d-2640" role="img" title="woman shrugging">:woman_shrugging:</span> ' +
        '<span aria-label="hash" class="emoji emoji-0023-20e3" role="img" title="hash">:hash:</span></p>',
    );
  });

  test('names with accents', () => {
    expect(html(':flag_türkiye:')).toBe(
      '<p><span aria-label="flag türkiye" class="emoji emoji-1f1f9-1f1f7" role="img" title="flag türkiye">:flag_türkiye:</span></p>',
    );
  });

  test('text-style characters stay text', () => {
    expect(html('1 # © ↔ 2')).toBe('<p>1 # © ↔ 2</p>');
  });

  test('custom and built-in extra emoji are images', () => {
    expect(html(':green_tick:')).toBe('<p><img alt=":green_tick:" class="emoji" src="/user_avatars/1/emoji/images/abc.png" title="green tick"></p>');
    expect(html(':zulip:')).toBe('<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>');
  });

  test('skin tones are not emoji of their own', () => {
    expect(html(':skin-tone-2:')).toBe('<p>:skin-tone-2:</p>');
  });
});

describe('global times', () => {
  test.each([
    ["Let's meet at <time:1496701800>.", '<p>Let\'s meet at <time datetime="2017-06-05T22:30:00Z">1496701800</time>.</p>'],
    ['<time:2017-06-05T22:30:00+02:00>', '<p><time datetime="2017-06-05T20:30:00Z">2017-06-05T22:30:00+02:00</time></p>'],
    ['<time:2017-06-05T22:30>', '<p><time datetime="2017-06-05T22:30:00Z">2017-06-05T22:30</time></p>'],
    ['<time:31 Dec 2017>', '<p><time datetime="2017-12-31T00:00:00Z">31 Dec 2017</time></p>'],
    // Unreadable times stay as typed, plain text (feature level 451).
    ['<time:**hello world**>', '<p>&lt;time:**hello world**&gt;</p>'],
    ['<time:<alert(1)>>', '<p>&lt;time:&lt;alert(1)&gt;&gt;</p>'],
  ])('%s', (input, expected) => {
    expect(html(input)).toBe(expected);
  });
});

describe('descriptions', () => {
  test('render Markdown and emoji but leave mentions alone', () => {
    expect(renderDescription('**Team** room for @**Example User** :smile: #**announce**', ctx)).toBe(
      '<p><strong>Team</strong> room for @<strong>Example User</strong> <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span> ' +
        '<a class="stream" data-stream-id="9" href="/#narrow/channel/9-announce">#announce</a></p>',
    );
  });

  test('work without any context', () => {
    expect(renderDescription('Hello *world*')).toBe('<p>Hello <em>world</em></p>');
  });
});
