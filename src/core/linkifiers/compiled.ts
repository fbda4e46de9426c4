import { RE2JS } from 're2js';
import type { LinkifierDict } from './model';
import { parseUrlTemplate, UrlTemplate } from './template';

/** The names of the groups wrapped around a linkifier's own pattern when it is applied. */
export const BEFORE_GROUP = 'linkifier_before_match';
export const MATCH_GROUP = 'linkifier_actual_match';
export const AFTER_GROUP = 'linkifier_after_match';

/** A linkifier ready to be applied: its pattern wrapped with Zulip's boundaries, its template parsed. */
export interface CompiledLinkifier {
  id: number;
  regex: RE2JS;
  template: UrlTemplate;
}

/**
 * A match must follow the start, whitespace (RE2's \s is ASCII, so NEL and Unicode spaces are
 * named too) or an opening delimiter, and must not run into a letter or digit.
 */
export function preparePattern(source: string): string {
  return `(?P<${BEFORE_GROUP}>^|\\s|\u0085|\\pZ|['"\\(,:<])(?P<${MATCH_GROUP}>${source})(?P<${AFTER_GROUP}>$|[^\\pL\\pN])`;
}

/** Null for a linkifier that cannot apply (a pattern that only fails once wrapped, e.g. a reused group name). */
export function compileLinkifier(linkifier: Pick<LinkifierDict, 'id' | 'pattern' | 'url_template'>): CompiledLinkifier | null {
  const template = parseUrlTemplate(linkifier.url_template);
  if (!template) return null;
  try {
    return { id: linkifier.id, regex: RE2JS.compile(preparePattern(linkifier.pattern)), template };
  } catch {
    return null;
  }
}
