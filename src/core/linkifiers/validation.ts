import type { Knex } from 'knex';
import { ApiError, errors } from '../../errors';
import { compileRe2, pythonRepr } from './pattern';
import { checkReverse } from './reverse';
import { parseUrlTemplate } from './template';

export const INVALID_URL_TEMPLATE = 'Invalid URL template.';
const BLANK = 'This field cannot be blank.';
const NON_FIELD = '__all__';

/**
 * The errors of one submitted form, by field (`__all__` for those about the whole), in the order
 * they were found; the first is the response's message and all of them its `errors`, as Zulip
 * answers a failed model validation.
 */
export class FieldErrors {
  private readonly byField = new Map<string, string[]>();

  add(field: string, message: string): void {
    const list = this.byField.get(field) ?? [];
    list.push(message);
    this.byField.set(field, list);
  }

  has(field: string): boolean {
    return this.byField.has(field);
  }

  get empty(): boolean {
    return this.byField.size === 0;
  }

  toError(): ApiError {
    const first = [...this.byField.values()][0][0];
    return errors.badRequest(first, { errors: Object.fromEntries(this.byField) });
  }
}

/** A required text column: blank is refused. */
export function checkNotBlank(found: FieldErrors, field: string, value: string): boolean {
  if (value !== '') return true;
  found.add(field, BLANK);
  return false;
}

/** A linkifier as submitted, optional texts already trimmed (null when empty). */
export interface LinkifierFields {
  pattern: string;
  urlTemplate: string;
  exampleInput: string | null;
  reverseTemplate: string | null;
  alternativeUrlTemplates: string[];
}

/** Zulip's checks of a linkifier, in its order; `excludeId` is the linkifier being edited. */
export async function checkLinkifier(db: Knex, realmId: number, linkifier: LinkifierFields, excludeId?: number): Promise<void> {
  const { pattern, urlTemplate } = linkifier;
  const found = new FieldErrors();
  checkNotBlank(found, 'pattern', pattern);
  const template = checkNotBlank(found, 'url_template', urlTemplate) ? parseUrlTemplate(urlTemplate) : parseUrlTemplate('');
  if (urlTemplate !== '' && !template) found.add('url_template', INVALID_URL_TEMPLATE);
  const alternatives = linkifier.alternativeUrlTemplates.map((text) => parseUrlTemplate(text));
  if (alternatives.some((t) => !t)) found.add('alternative_url_templates', INVALID_URL_TEMPLATE);

  const compiled = compileRe2(pattern);
  if (!compiled.ok) {
    found.add(NON_FIELD, `Bad regular expression: ${compiled.error}`);
  } else {
    const groups = new Set(compiled.groupNames);
    const reverseProblem = checkReverse(compiled.regex, groups, linkifier.exampleInput, linkifier.reverseTemplate);
    if (reverseProblem) found.add(NON_FIELD, reverseProblem);
    else if (template) checkTemplateGroups(found, groups, template.variableNames);
    // Alternative templates may use fewer groups (a reverse template needs only its own).
    const unknown = alternatives.flatMap((t) => t?.variableNames ?? []).filter((name) => !groups.has(name));
    if (unknown.length > 0 && !found.has('alternative_url_templates')) {
      found.add('alternative_url_templates', `Group ${pythonRepr(unknown.sort()[0])} in URL template is not present in linkifier pattern.`);
    }
  }

  if (!found.has('pattern')) {
    const query = db('realm_filters').where({ realm_id: realmId, pattern }).first('id');
    if (excludeId !== undefined) query.whereNot('id', excludeId);
    if (await query) found.add(NON_FIELD, 'Realm filter with this Realm and Pattern already exists.');
  }
  if (!found.empty) throw found.toError();
}

/** The URL template must use exactly the pattern's groups. */
function checkTemplateGroups(found: FieldErrors, groups: ReadonlySet<string>, variableNames: string[]): void {
  const variables = new Set(variableNames);
  const notInPattern = [...variables].filter((name) => !groups.has(name)).sort();
  const notInTemplate = [...groups].filter((name) => !variables.has(name)).sort();
  if (notInPattern.length > 0) {
    found.add(NON_FIELD, `Group ${pythonRepr(notInPattern[0])} in URL template is not present in linkifier pattern.`);
  } else if (notInTemplate.length > 0) {
    found.add(NON_FIELD, `Group ${pythonRepr(notInTemplate[0])} in linkifier pattern is not present in URL template.`);
  }
}
