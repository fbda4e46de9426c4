import type { Knex } from 'knex';
import { ApiError, errors } from '../../errors';
import type { User } from '../users/model';
import { NavigationView } from './model';

/** The views every client has; a user may pin or hide them but not rename them. */
export const BUILT_IN_VIEW_FRAGMENTS: readonly string[] = [
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
];

export const isBuiltInView = (fragment: string) => BUILT_IN_VIEW_FRAGMENTS.includes(fragment);

/** Fragments and names are used trimmed, and must not be blank. */
export function checkNonBlank(raw: string, name: string): string {
  const value = raw.trim();
  if (value === '') throw errors.badRequest(`${name} cannot be blank`);
  return value;
}

export const builtInNameError = () => errors.badRequest('Built-in views cannot have a custom name');
export const alreadyExistsError = () => errors.badRequest('Navigation view already exists.');

export async function findOwnView(db: Knex, user: User, fragment: string): Promise<NavigationView> {
  const view = await NavigationView.query(db).findOne({ user_id: user.id, realm_id: user.realm_id, fragment });
  if (!view) throw new ApiError('NOT_FOUND', 'Navigation view does not exist.', 404);
  return view;
}

export async function nameInUse(db: Knex, user: User, name: string): Promise<boolean> {
  return (await NavigationView.query(db).findOne({ user_id: user.id, realm_id: user.realm_id, name })) !== undefined;
}
