import { diffArrays } from 'diff';

/**
 * Highlights what changed between two renderings of a message, for edit history
 * (`content_html_diff`): inserted text in `span.highlight_text_inserted`, removed text in
 * `span.highlight_text_deleted`. Tags are compared as whole tokens and never split; the result
 * keeps the new rendering's markup, so it is as well-formed as the new HTML.
 */
const TOKEN = /<[^>]*>|[^<\s]+|\s+/g;
/**
 * Past this many changed tokens a word-by-word diff costs more than it tells (the message was
 * rewritten): the old text is then shown deleted and the new text inserted, whole.
 */
const MAX_EDIT_LENGTH = 400;

export function htmlDiff(oldHtml: string, newHtml: string): string {
  const oldTokens = oldHtml.match(TOKEN) ?? [];
  const newTokens = newHtml.match(TOKEN) ?? [];
  const changes = diffArrays(oldTokens, newTokens, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) {
    return highlight(oldTokens, 'highlight_text_deleted', false) + highlight(newTokens, 'highlight_text_inserted', true);
  }
  let out = '';
  for (const change of changes) {
    if (!change.added && !change.removed) out += change.value.join('');
    else out += highlight(change.value, change.added ? 'highlight_text_inserted' : 'highlight_text_deleted', Boolean(change.added));
  }
  return out;
}

/** Wraps runs of text in a span; inserted tags are kept, removed tags dropped. */
function highlight(tokens: string[], className: string, keepTags: boolean): string {
  let out = '';
  let run = '';
  const flush = () => {
    if (run.trim() !== '') out += `<span class="${className}">${run}</span>`;
    else if (keepTags) out += run;
    run = '';
  };
  for (const token of tokens) {
    if (token.startsWith('<')) {
      // Removed tags vanish, so removed text on both sides of them reads as one run.
      if (!keepTags) continue;
      flush();
      out += token;
    } else {
      run += token;
    }
  }
  flush();
  return out;
}
