import { diffArrays } from 'diff';

/**
 * Highlights what changed between two renderings of a message, for edit history
 * (`content_html_diff`): inserted text in `span.highlight_text_inserted`, removed text in
 * `span.highlight_text_deleted`. Tags are compared as whole tokens and never split; the result
 * keeps the new rendering's markup, so it is as well-formed as the new HTML.
 */
const TOKEN = /<[^>]*>|[^<\s]+|\s+/g;
/** Beyond this many edits the diff is not worth computing; the new rendering is shown as is. */
const MAX_EDIT_LENGTH = 5000;

export function htmlDiff(oldHtml: string, newHtml: string): string {
  const changes = diffArrays(oldHtml.match(TOKEN) ?? [], newHtml.match(TOKEN) ?? [], { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return newHtml;
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
