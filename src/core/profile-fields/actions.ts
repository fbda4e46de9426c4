import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { isUniqueViolation } from '../../db/connect';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { channelLinkResolver } from '../channels/links';
import { renderStoredDescription } from '../markdown';
import { activeUserIds, findUser, requireAdmin, requireCanAdminUser } from '../users/access';
import type { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { DEFAULT_EXTERNAL_ACCOUNTS, FieldType, isRenderable, MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS } from './field-types';
import { CustomProfileField, CustomProfileFieldValue } from './model';
import { listFieldDicts } from './queries';
import { FieldData, isDefaultExternalAccount, ProfileValue, validateFieldDefinition, validateFieldValue } from './validation';
import { anyOf } from '../../db/lists';
import { isRowId } from '../../db/ids';

/** The only code that changes custom profile fields and users' values for them. */

const labelTaken = () => errors.badRequest('A field with that label already exists.');
const notFound = (id: number) => errors.badRequest(`Field id ${id} not found.`);
const notEditable = () => errors.badRequest('You are not allowed to change this field. Contact an administrator to update it.');

async function notifyFields(uow: UnitOfWork): Promise<void> {
  const fields = await listFieldDicts(uow.trx, uow.realmId);
  uow.emit({ type: 'custom_profile_fields', fields }, await activeUserIds(uow.trx, uow.realmId));
}

async function summaryLimitReached(trx: Knex, realmId: number, exceptId?: number): Promise<boolean> {
  const query = CustomProfileField.query(trx).where({ realm_id: realmId, display_in_profile_summary: true });
  if (exceptId !== undefined) query.whereNot('id', exceptId);
  return (await query.resultSize()) >= MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS;
}

const summaryFull = () => errors.badRequest(`Only ${MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);

export interface NewField {
  name?: string;
  hint?: string;
  fieldType: number;
  fieldData?: FieldData;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
  useForUserMatching?: boolean;
}

export async function createField(deps: AppDeps, actor: User, input: NewField): Promise<number> {
  requireAdmin(actor);
  return inTransaction(deps, deps.realmId, async (uow) => {
    const trx = uow.trx;
    const fieldData = input.fieldData ?? {};
    const display = input.displayInProfileSummary ?? false;
    if (display && (await summaryLimitReached(trx, deps.realmId))) throw summaryFull();
    // Labels are compared after trimming, as Zulip strips them.
    let name = (input.name ?? '').trim();
    let hint = input.hint ?? '';
    const matching = input.useForUserMatching ?? false;
    validateFieldDefinition({ name, hint, fieldType: input.fieldType, fieldData, displayInProfileSummary: display, useForUserMatching: matching });
    let storedData = '';
    if (isDefaultExternalAccount(input.fieldType, fieldData)) {
      const subtype = (fieldData as Record<string, string>).subtype;
      ({ name, hint } = DEFAULT_EXTERNAL_ACCOUNTS[subtype]);
      storedData = JSON.stringify({ subtype });
    } else if (input.fieldType === FieldType.SELECT || input.fieldType === FieldType.EXTERNAL_ACCOUNT) {
      storedData = JSON.stringify(fieldData);
    }
    if (await CustomProfileField.query(trx).findOne({ realm_id: deps.realmId, name })) throw labelTaken();
    let field: CustomProfileField;
    try {
      field = await CustomProfileField.query(trx).insertAndFetch({
        realm_id: deps.realmId,
        name,
        hint,
        field_type: input.fieldType,
        field_data: storedData,
        display_in_profile_summary: display,
        required: input.required ?? false,
        editable_by_user: input.editableByUser ?? true,
        use_for_user_matching: matching,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw labelTaken();
      throw error;
    }
    // New fields go last: their order is their id, as in Zulip.
    await CustomProfileField.query(trx).patch({ order: field.id }).where('id', field.id);
    await notifyFields(uow);
    return field.id;
  });
}

export interface FieldChanges {
  name?: string;
  hint?: string;
  fieldData?: FieldData;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
  useForUserMatching?: boolean;
}

const parseData = (text: string): FieldData => (text === '' ? {} : JSON.parse(text));

function sameData(a: FieldData, b: FieldData): boolean {
  const canonical = (x: unknown): unknown =>
    x && typeof x === 'object'
      ? Object.fromEntries(
          Object.entries(x)
            .sort(([k1], [k2]) => (k1 < k2 ? -1 : 1))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : x;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

export async function updateField(deps: AppDeps, actor: User, fieldId: number, changes: FieldChanges): Promise<void> {
  requireAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const trx = uow.trx;
    const field = isRowId(fieldId) ? await CustomProfileField.query(trx).findOne({ realm_id: deps.realmId, id: fieldId }).forUpdate() : undefined;
    if (!field) throw notFound(fieldId);
    const requestedName = changes.name?.trim();
    if (changes.displayInProfileSummary && (await summaryLimitReached(trx, deps.realmId, field.id))) throw summaryFull();
    const currentData = parseData(field.field_data);
    // A known-site external account can only change whether it shows in the summary.
    if (
      isDefaultExternalAccount(field.field_type, currentData) &&
      ((requestedName !== undefined && requestedName !== field.name) ||
        (changes.hint !== undefined && changes.hint !== field.hint) ||
        (changes.fieldData !== undefined && !sameData(changes.fieldData, currentData)))
    ) {
      throw errors.badRequest('Default custom field cannot be updated.');
    }
    validateFieldDefinition({
      name: requestedName ?? field.name,
      hint: changes.hint ?? field.hint,
      fieldType: field.field_type,
      fieldData: changes.fieldData ?? currentData,
      displayInProfileSummary: changes.displayInProfileSummary ?? field.display_in_profile_summary,
      useForUserMatching: changes.useForUserMatching ?? field.use_for_user_matching,
    });
    const patch: Partial<CustomProfileField> = {};
    if (requestedName !== undefined) patch.name = requestedName;
    if (changes.hint !== undefined) patch.hint = changes.hint;
    if (changes.required !== undefined) patch.required = changes.required;
    if (changes.editableByUser !== undefined) patch.editable_by_user = changes.editableByUser;
    if (changes.useForUserMatching !== undefined) patch.use_for_user_matching = changes.useForUserMatching;
    if (changes.displayInProfileSummary !== undefined) patch.display_in_profile_summary = changes.displayInProfileSummary;
    if (field.field_type === FieldType.SELECT || field.field_type === FieldType.EXTERNAL_ACCOUNT) {
      if (changes.fieldData !== undefined && field.field_type === FieldType.SELECT) {
        // Users whose choice disappeared lose their value.
        const removed = Object.keys(currentData).filter((key) => !(key in changes.fieldData!));
        if (removed.length > 0)
          await CustomProfileFieldValue.query(trx)
            .delete()
            .where('field_id', field.id)
            .whereRaw(...anyOf('value', removed, 'text'));
      }
      if (changes.fieldData !== undefined || field.field_data === '') patch.field_data = JSON.stringify(changes.fieldData ?? {});
    }
    if (patch.name !== undefined && patch.name !== field.name) {
      const taken = await CustomProfileField.query(trx).where({ realm_id: deps.realmId, name: patch.name }).whereNot('id', field.id).first();
      if (taken) throw labelTaken();
    }
    try {
      if (Object.keys(patch).length > 0) await CustomProfileField.query(trx).patch(patch).where('id', field.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw labelTaken();
      throw error;
    }
    await notifyFields(uow);
  });
}

export async function deleteField(deps: AppDeps, actor: User, fieldId: number): Promise<void> {
  requireAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const field = isRowId(fieldId) ? await CustomProfileField.query(uow.trx).findOne({ realm_id: deps.realmId, id: fieldId }) : undefined;
    if (!field) throw notFound(fieldId);
    // Values go with the field (ON DELETE CASCADE).
    await CustomProfileField.query(uow.trx).deleteById(field.id);
    await notifyFields(uow);
  });
}

/** PATCH /realm/profile_fields: `order` lists field ids in display order; every field must appear. */
export async function reorderFields(deps: AppDeps, actor: User, order: number[]): Promise<void> {
  requireAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const position = new Map<number, number>();
    order.forEach((id, index) => position.set(id, index));
    const fields = await CustomProfileField.query(uow.trx).where('realm_id', deps.realmId).forUpdate();
    if (fields.some((f) => !position.has(f.id))) throw errors.badRequest('Invalid order mapping.');
    for (const field of fields)
      await CustomProfileField.query(uow.trx)
        .patch({ order: position.get(field.id)! })
        .where('id', field.id);
    await notifyFields(uow);
  });
}

async function announceValue(uow: UnitOfWork, userId: number, field: CustomProfileField, value: string | null, rendered: string | null): Promise<void> {
  const data: Record<string, unknown> = { id: field.id, value };
  // Markdown types always carry rendered_value, empty for an empty value, as register's profile_data does.
  if (rendered !== null) data.rendered_value = rendered;
  uow.emit({ type: 'realm_user', op: 'update', person: { user_id: userId, custom_profile_field: data } }, await activeUserIds(uow.trx, uow.realmId));
}

async function fieldForEdit(trx: Knex, realmId: number, actor: User, fieldId: number): Promise<CustomProfileField> {
  const field = isRowId(fieldId) ? await CustomProfileField.query(trx).findOne({ realm_id: realmId, id: fieldId }) : undefined;
  if (!field) throw notFound(fieldId);
  // Administrators may always edit; others only fields open to them.
  if (!isAdminRole(actor.role) && !field.editable_by_user) throw notEditable();
  return field;
}

async function storeValues(deps: AppDeps, uow: UnitOfWork, actor: User, target: User, data: { id: number; value: ProfileValue }[]): Promise<void> {
  const trx = uow.trx;
  const validated: { field: CustomProfileField; value: string }[] = [];
  for (const item of data) {
    const field = await fieldForEdit(trx, uow.realmId, actor, item.id);
    validated.push({ field, value: await validateFieldValue(trx, uow.realmId, field, item.value) });
  }
  for (const { field, value } of validated) {
    const existing = await CustomProfileFieldValue.query(trx).findOne({ user_id: target.id, field_id: field.id });
    // Unchanged values are not rewritten and not announced.
    if (existing && existing.value === value) continue;
    // Rendered as descriptions are, with channel links as the person editing sees channels.
    const rendered = isRenderable(field.field_type)
      ? await renderStoredDescription(trx, uow.realmId, value, { realmUrl: deps.config.externalUrl, resolveChannels: channelLinkResolver(trx, actor) })
      : null;
    if (existing) await CustomProfileFieldValue.query(trx).patch({ value, rendered_value: rendered }).where('id', existing.id);
    else await CustomProfileFieldValue.query(trx).insert({ realm_id: uow.realmId, user_id: target.id, field_id: field.id, value, rendered_value: rendered });
    await announceValue(uow, target.id, field, value, rendered);
  }
}

async function removeValue(uow: UnitOfWork, actor: User, target: User, fieldId: number): Promise<void> {
  const field = await fieldForEdit(uow.trx, uow.realmId, actor, fieldId);
  const existing = await CustomProfileFieldValue.query(uow.trx).findOne({ user_id: target.id, field_id: field.id });
  if (!existing) return;
  await CustomProfileFieldValue.query(uow.trx).deleteById(existing.id);
  await announceValue(uow, target.id, field, null, null);
}

function requireHuman(user: User): void {
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
}

/** PATCH /users/me/profile_data. */
export async function updateOwnProfileData(deps: AppDeps, actor: User, data: { id: number; value: ProfileValue }[]): Promise<void> {
  requireHuman(actor);
  await inTransaction(deps, deps.realmId, (uow) => storeValues(deps, uow, actor, actor, data));
}

/** DELETE /users/me/profile_data: clears the listed fields; clearing an empty field is fine. */
export async function removeOwnProfileData(deps: AppDeps, actor: User, fieldIds: number[]): Promise<void> {
  requireHuman(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    for (const fieldId of fieldIds) await removeValue(uow, actor, actor, fieldId);
  });
}

/**
 * profile_data of PATCH /users/{id}, for administrators: an empty or null value clears the field,
 * the rest are validated together and stored.
 */
export async function updateUserProfileData(deps: AppDeps, actor: User, userId: number, data: { id: number; value: ProfileValue | null }[]): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const target = await findUser(uow.trx, deps.realmId, userId);
    requireCanAdminUser(actor);
    const kept: { id: number; value: ProfileValue }[] = [];
    for (const entry of data) {
      if (entry.value === null || entry.value.length === 0) await removeValue(uow, actor, target, entry.id);
      else kept.push({ id: entry.id, value: entry.value });
    }
    await storeValues(deps, uow, actor, target, kept);
  });
}
