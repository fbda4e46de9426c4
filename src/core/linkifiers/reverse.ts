import type { RE2JS } from 're2js';
import { errors } from '../../errors';
import { pythonRepr } from './pattern';

/**
 * Reverse linkification: a pasted URL matching a linkifier's URL template (or one of its
 * alternative templates) becomes the linkifier's text, written by its reverse template. The server
 * only checks the reverse template against the example input; clients do the converting.
 */

export class ReverseTemplateError extends Error {}

/** Trimmed, and null when nothing is left, as Zulip keeps these optional texts. */
export function optionalText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * Fills the reverse template's `{group}` placeholders from a match; `{{` and `}}` stand for
 * braces. Throws ReverseTemplateError with Zulip's message when the template is malformed.
 */
export function expandReverseTemplate(template: string, groupValue: (name: string) => string | null, groups: ReadonlySet<string>): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    if (template.startsWith('{{', i)) {
      out += '{';
      i += 2;
    } else if (template.startsWith('}}', i)) {
      out += '}';
      i += 2;
    } else if (template[i] === '{') {
      const end = template.indexOf('}', i + 1);
      if (end === -1) throw new ReverseTemplateError("Invalid auto-conversion field: missing '}' character.");
      const name = template.slice(i + 1, end);
      if (name === '') throw new ReverseTemplateError('Invalid auto-conversion field: empty field name.');
      if (!groups.has(name)) throw new ReverseTemplateError(`Group ${pythonRepr(name)} in auto-conversion field is not present in linkifier pattern.`);
      // A group that took no part in the match contributes nothing.
      out += groupValue(name) ?? '';
      i = end + 1;
    } else {
      out += template[i];
      i += 1;
    }
  }
  return out;
}

/**
 * Zulip's checks of the example input and reverse template, once the pattern compiled: a reverse
 * template needs an example, the pattern must find the example, and the reverse template must
 * write the example back from what the pattern found. Returns the message of the first failure.
 */
export function checkReverse(regex: RE2JS, groups: ReadonlySet<string>, exampleInput: string | null, reverseTemplate: string | null): string | null {
  if (reverseTemplate !== null && exampleInput === null) {
    // Zulip refuses this outright, before any other problem of the linkifier.
    throw errors.badRequest('Example text is required when auto-conversion field is set.');
  }
  if (exampleInput === null) return null;
  const matcher = regex.matcher(exampleInput);
  if (!matcher.find()) return 'Example input does not match the linkifier pattern.';
  if (reverseTemplate === null) return null;
  try {
    const named = matcher.getNamedGroups();
    const written = expandReverseTemplate(reverseTemplate, (name) => named[name] ?? null, groups);
    return written === exampleInput ? null : 'Example text does not match auto-conversion field.';
  } catch (error) {
    if (error instanceof ReverseTemplateError) return error.message;
    throw error;
  }
}
