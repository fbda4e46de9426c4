import type { Knex } from 'knex';
import type { User } from '../users/model';
import { NavigationView } from './model';
import { navigationViewDict, NavigationViewDict } from './view';

export async function listNavigationViews(db: Knex, user: User): Promise<NavigationViewDict[]> {
  const views = await NavigationView.query(db).where({ realm_id: user.realm_id, user_id: user.id }).orderBy('id');
  return views.map(navigationViewDict);
}
