import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { RealmSettingsType } from './realm';

@ObjectType('UpdateRealmSettingsPayload', { description: 'What updateRealmSettings changed, and the settings afterwards.' })
export class UpdateRealmSettingsPayload {
  @Field(() => GraphQLJSON, { description: 'The changed settings by Zulip name, as PATCH /realm reports them (strings as "updated").' })
  changed!: Record<string, unknown>;
  @Field(() => RealmSettingsType) settings!: RealmSettingsType;
}

@ObjectType('DefaultChannelsPayload', { description: "The organization's default channels after the change." })
export class DefaultChannelsPayload {
  @Field(() => [Int]) defaultChannelIds!: number[];
}

@ObjectType('RealmDomain', { description: 'An email domain of the organization (used when emails are restricted to its domains).' })
export class RealmDomain {
  @Field(() => ID, { description: 'The domain itself, unique in the organization.' }) id!: string;
  @Field() domain!: string;
  @Field({ description: 'Whether subdomains of the domain are allowed too.' }) allowSubdomains!: boolean;

  static from(dict: { domain: string; allow_subdomains: boolean }): RealmDomain {
    return Object.assign(new RealmDomain(), { id: dict.domain, domain: dict.domain, allowSubdomains: dict.allow_subdomains });
  }
}

@ObjectType('RealmDomainPayload')
export class RealmDomainPayload {
  @Field(() => RealmDomain) realmDomain!: RealmDomain;
}

@ObjectType('RemoveRealmDomainPayload')
export class RemoveRealmDomainPayload {
  @Field({ description: 'The domain removed.' }) domain!: string;
}

@ObjectType('DeactivateRealmPayload')
export class DeactivateRealmPayload {
  @Field({ description: 'Always true: the organization is deactivated and every API key refused.' }) deactivated!: boolean;
}
