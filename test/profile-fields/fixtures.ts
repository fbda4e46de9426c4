import { assertSuccess, client } from '../helpers/api';
import type { TestServer, TestUser } from '../helpers/server';

let counter = 0;

/** Creates a field as `admin`; returns its id. */
export async function createField(ts: TestServer, admin: TestUser, params: Record<string, unknown>): Promise<number> {
  counter += 1;
  return assertSuccess(await client(ts, admin).post('/realm/profile_fields', { name: `Field ${counter}`, ...params })).id;
}

export async function fields(ts: TestServer, who: TestUser): Promise<Record<string, any>[]> {
  return assertSuccess(await client(ts, who).get('/realm/profile_fields')).custom_fields;
}

export async function field(ts: TestServer, who: TestUser, id: number): Promise<Record<string, any>> {
  return (await fields(ts, who)).find((f) => f.id === id)!;
}

export const CHOICES = { '0': { text: 'Vim', order: '1' }, '1': { text: 'Emacs', order: '2' } };
