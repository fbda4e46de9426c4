import { Field, ObjectType } from 'type-graphql';
import type { NavigationViewDict } from '../core/navigation-views/view';

@ObjectType('NavigationView', { description: 'A built-in or custom view, pinned to the sidebar or hidden in a menu.' })
export class NavigationViewType {
  @Field({ description: 'The URL hash of the view; it identifies the view.' }) fragment!: string;
  @Field() isPinned!: boolean;
  @Field(() => String, { nullable: true, description: 'Custom views only.' }) name!: string | null;

  static from(dict: NavigationViewDict): NavigationViewType {
    return Object.assign(new NavigationViewType(), { fragment: dict.fragment, isPinned: dict.is_pinned, name: dict.name });
  }
}
