import { Model } from 'objection';

export class NavigationView extends Model {
  static tableName = 'navigation_views';

  id!: number;
  realm_id!: number;
  user_id!: number;
  fragment!: string;
  is_pinned!: boolean;
  name!: string | null;
}
