/**
 * Channel descriptions as HTML. Until the Markdown renderer exists this escapes the text and wraps
 * it in a paragraph; an empty description renders as an empty string, as Zulip's does.
 */
export function renderChannelDescription(text: string): string {
  if (text.trim() === '') return '';
  const escaped = text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
  return `<p>${escaped}</p>`;
}
