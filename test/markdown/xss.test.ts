import { buildRenderContext, renderMarkdown } from '../../src/core/markdown';
import { ctx } from './fixtures';

const html = (content: string) => renderMarkdown(content, ctx).html;

const TAGS = new Set(['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'div', 'span', 'a', 'img', 'blockquote', 'ul', 'ol', 'li', 'hr']);
const ATTRIBUTES = new Set([
  'class',
  'href',
  'title',
  'src',
  'alt',
  'role',
  'aria-label',
  'data-user-id',
  'data-user-group-id',
  'data-stream-id',
  'data-code-language',
]);

/** Only markup the renderer writes itself: known tags, known well-formed attributes, safe URLs. */
function assertInert(output: string): void {
  for (const [, closing, tag, attrs] of output.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*)>/g)) {
    expect(TAGS).toContain(tag.toLowerCase());
    if (closing) expect(attrs).toBe('');
    const rest = attrs.replace(/ ([a-z-]+)="([^"<>]*)"/g, (_all, name: string, value: string) => {
      expect(ATTRIBUTES).toContain(name);
      if (name === 'href' || name === 'src') expect(value).not.toMatch(/^\s*(javascript|vbscript|data):/i);
      return '';
    });
    expect(rest).toBe('');
  }
}

describe('raw HTML is escaped', () => {
  test.each([
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['<<script>script>evil()<</script>/script>', '<p>&lt;&lt;script&gt;script&gt;evil()&lt;&lt;/script&gt;/script&gt;</p>'],
    ['<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
    ['<script src="http://xx.com/xss.js"<b>', '<p>&lt;script src="<a href="http://xx.com/xss.js">http://xx.com/xss.js</a>"&lt;b&gt;</p>'],
    ['*<h1>Hello world</h1>*', '<p><em>&lt;h1&gt;Hello world&lt;/h1&gt;</em></p>'],
    ['<div>\n<iframe srcdoc="<b>"></iframe>\n</div>', '<p>&lt;div&gt;<br>\n&lt;iframe srcdoc="&lt;b&gt;"&gt;&lt;/iframe&gt;<br>\n&lt;/div&gt;</p>'],
  ])('%s', (input, expected) => {
    const output = html(input);
    expect(output).toBe(expected);
    assertInert(output);
  });
});

describe('unsafe links are not linked', () => {
  test.each([
    ['[foo](javascript:alert(1))', '<p>[foo](javascript:alert(1))</p>'],
    ['[foo](JaVaScRiPt:alert(1))', '<p>[foo](JaVaScRiPt:alert(1))</p>'],
    ['[foo](javascript://foo.com)', '<p>[foo](javascript://foo.com)</p>'],
    ['[foo](vbscript:msgbox)', '<p>[foo](vbscript:msgbox)</p>'],
    ['[foo](data:text/html;base64,PHNjcmlwdD4=)', '<p>[foo](data:text/html;base64,PHNjcmlwdD4=)</p>'],
    ['[foo](itms://itunes.com/apps/appname)', '<p>[foo](itms://itunes.com/apps/appname)</p>'],
    ['javascript://foo.com', '<p>javascript://foo.com</p>'],
    ['[evil](" onclick="alert(1))', '<p>[evil](" onclick="alert(1))</p>'],
  ])('%s', (input, expected) => {
    const output = html(input);
    expect(output).toBe(expected);
    assertInert(output);
  });

  test('quotes in an allowed link are escaped inside the attribute', () => {
    const output = html('[x](https://example.com/"onmouseover="alert(1))');
    expect(output).toBe('<p><a href="https://example.com/%22onmouseover=%22alert(1)">x</a></p>');
    assertInert(output);
  });

  test('a link title cannot break out of its attribute', () => {
    const output = html('[x](https://example.com "a\\" onclick=\\"b")');
    expect(output).toBe('<p><a href="https://example.com" title="a&quot; onclick=&quot;b">x</a></p>');
    assertInert(output);
  });
});

describe('attribute injection through names', () => {
  const hostile = buildRenderContext({
    users: [{ id: 7, fullName: '"><script>alert(1)</script>', isActive: true }],
    groups: [{ id: 8, name: 'x" onmouseover="alert(1)', deactivated: false }],
    channels: [{ id: 9, name: '<img src=x onerror=alert(1)>' }],
    realmEmoji: [{ id: 3, name: 'evil', sourceUrl: '/x" onerror="alert(1)' }],
  });

  test('user names are text', () => {
    const output = renderMarkdown('@**"><script>alert(1)</script>**', hostile).html;
    expect(output).toBe('<p><span class="user-mention" data-user-id="7">@"&gt;&lt;script&gt;alert(1)&lt;/script&gt;</span></p>');
    assertInert(output);
  });

  test('group names are text', () => {
    const output = renderMarkdown('@*x" onmouseover="alert(1)*', hostile).html;
    expect(output).toBe('<p><span class="user-group-mention" data-user-group-id="8">@x" onmouseover="alert(1)</span></p>');
    assertInert(output);
  });

  test('channel names are escaped in text and URL', () => {
    const output = renderMarkdown('#**<img src=x onerror=alert(1)>**', hostile).html;
    expect(output).toBe(
      '<p><a class="stream" data-stream-id="9" href="/#narrow/channel/9-.3Cimg-src.3Dx-onerror.3Dalert.281.29.3E">#&lt;img src=x onerror=alert(1)&gt;</a></p>',
    );
    assertInert(output);
  });

  test('emoji image URLs are escaped', () => {
    const output = renderMarkdown(':evil:', hostile).html;
    expect(output).toBe('<p><img alt=":evil:" class="emoji" src="/x&quot; onerror=&quot;alert(1)" title="evil"></p>');
    assertInert(output);
  });

  test('emoji syntax cannot carry markup', () => {
    const output = renderMarkdown(':"><svg/onload=alert(1)>:', hostile).html;
    expect(output).toBe('<p>:"&gt;&lt;svg/onload=alert(1)&gt;:</p>');
    assertInert(output);
  });

  test('code block languages are escaped', () => {
    const output = renderMarkdown('```"><script>\nx\n```', hostile).html;
    assertInert(output);
    expect(output).not.toContain('<script');
  });
});
