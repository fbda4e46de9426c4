import { Field, InputType, ObjectType } from 'type-graphql';

@ObjectType('BotStorageEntry', { description: 'One entry of your bot storage: a string value under a string key.' })
export class BotStorageEntryType {
  @Field() key!: string;
  @Field() value!: string;

  static from([key, value]: [string, string]): BotStorageEntryType {
    return Object.assign(new BotStorageEntryType(), { key, value });
  }
}

@InputType()
export class BotStorageEntryInput {
  @Field() key!: string;
  @Field() value!: string;
}
