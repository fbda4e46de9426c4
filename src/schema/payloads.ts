import { Field, ID, ObjectType } from 'type-graphql';

/** What a mutation that removed an entity answers: its id, so a client cache can evict it. */
@ObjectType('DeletedPayload', { description: 'The id of the entity removed (or archived, revoked, deactivated).' })
export class DeletedPayload {
  @Field(() => ID) id!: number | string;
}

export const deleted = (id: number | string): DeletedPayload => Object.assign(new DeletedPayload(), { id });
