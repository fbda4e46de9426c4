/**
 * Renders user-written descriptions (channel folders, profile field values) to HTML. Until the
 * Markdown renderer exists this is the safe subset: the text is HTML-escaped, blank lines separate
 * paragraphs and single newlines become line breaks. Swap the body for the real renderer; callers
 * only rely on "safe HTML, empty for blank text".
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export function renderDescription(text: string): string {
  if (text.trim() === '') return '';
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim()).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}
