import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { isRenderable } from './field-types';
import { CustomProfileField } from './model';
import { CustomProfileFieldDict, fieldDict, ProfileDataEntry } from './view';
import { anyOf } from '../../db/lists';

export async function listFieldDicts(db: Knex, realmId: number): Promise<CustomProfileFieldDict[]> {
  const fields = await CustomProfileField.query(db)
    .where('realm_id', realmId)
    .orderBy([{ column: 'order' }, { column: 'id' }]);
  return fields.map(fieldDict);
}

/** GET /realm/profile_fields: open to every user of the organization. */
export async function listFields(deps: AppDeps): Promise<CustomProfileFieldDict[]> {
  return listFieldDicts(deps.knex, deps.realmId);
}

export type ProfileData = Record<string, ProfileDataEntry>;

/**
 * profile_data for the given users (all users of the organization when omitted), keyed by user id.
 * Markdown types always carry rendered_value.
 */
export async function profileDataFor(db: Knex, realmId: number, userIds?: number[]): Promise<Map<number, ProfileData>> {
  const query = db('custom_profile_field_values as v')
    .join('custom_profile_fields as f', 'f.id', 'v.field_id')
    .where('v.realm_id', realmId)
    .orderBy([{ column: 'f.order' }, { column: 'f.id' }])
    .select('v.user_id', 'v.field_id', 'v.value', 'v.rendered_value', 'f.field_type');
  if (userIds) {
    if (userIds.length === 0) return new Map();
    query.whereRaw(...anyOf('v.user_id', userIds));
  }
  const rows: { user_id: number; field_id: number; value: string; rendered_value: string | null; field_type: number }[] = await query;
  const out = new Map<number, ProfileData>();
  for (const row of rows) {
    const data = out.get(row.user_id) ?? {};
    data[String(row.field_id)] = isRenderable(row.field_type) ? { value: row.value, rendered_value: row.rendered_value ?? '' } : { value: row.value };
    out.set(row.user_id, data);
  }
  return out;
}
