import { htmlDiff, renderMarkdown } from '../../src/core/markdown';

describe('htmlDiff', () => {
  test('identical renderings have no highlights', () => {
    expect(htmlDiff('<p>Hello world</p>', '<p>Hello world</p>')).toBe('<p>Hello world</p>');
  });

  test('inserted words', () => {
    expect(htmlDiff('<p>Hello world</p>', '<p>Hello brave new world</p>')).toBe('<p>Hello <span class="highlight_text_inserted">brave new </span>world</p>');
  });

  test('deleted words', () => {
    expect(htmlDiff('<p>Hello cruel world</p>', '<p>Hello world</p>')).toBe('<p>Hello <span class="highlight_text_deleted">cruel </span>world</p>');
  });

  test('replaced words show both', () => {
    expect(htmlDiff('<p>Hello world</p>', '<p>Hello there</p>')).toBe(
      '<p>Hello <span class="highlight_text_deleted">world</span><span class="highlight_text_inserted">there</span></p>',
    );
  });

  test('tags stay whole and the new markup is kept', () => {
    const oldHtml = renderMarkdown('plain text').html;
    const newHtml = renderMarkdown('**bold** text').html;
    expect(htmlDiff(oldHtml, newHtml)).toBe(
      '<p><span class="highlight_text_deleted">plain</span><strong><span class="highlight_text_inserted">bold</span></strong> text</p>',
    );
  });

  test('removed markup is dropped, its text shown as deleted', () => {
    expect(htmlDiff('<p>a <em>b</em> c</p>', '<p>a c</p>')).toBe('<p>a <span class="highlight_text_deleted">b </span>c</p>');
  });

  test('the result is well-formed whatever changed', () => {
    const oldHtml = renderMarkdown('* one\n* two\n\n> quote **x**').html;
    const newHtml = renderMarkdown('1. one\n2. three\n\n```\ncode\n```').html;
    const diff = htmlDiff(oldHtml, newHtml);
    const tags = [...diff.matchAll(/<(\/?)(\w+)[^>]*>/g)].filter(([, , tag]) => tag !== 'br');
    const stack: string[] = [];
    for (const [, closing, tag] of tags) {
      if (closing) expect(stack.pop()).toBe(tag);
      else stack.push(tag);
    }
    expect(stack).toEqual([]);
    expect(diff.replace(/<span class="highlight_text_(inserted|deleted)">|<\/span>/g, '')).toContain('three');
  });
});

test('a rewritten message shows the old text deleted and the new text inserted', () => {
  const oldHtml = `<p>${Array.from({ length: 600 }, (_, i) => `old${i}`).join(' ')}</p>`;
  const newHtml = `<p>${Array.from({ length: 600 }, (_, i) => `new${i}`).join(' ')}</p>`;
  const diff = htmlDiff(oldHtml, newHtml);
  expect(diff.startsWith('<span class="highlight_text_deleted">old0 old1 ')).toBe(true);
  expect(diff).toContain('<p><span class="highlight_text_inserted">new0 new1 ');
  expect(diff.endsWith('new599</span></p>')).toBe(true);
});
