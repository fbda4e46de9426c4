import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A password-reset request: the same answer whether or not the address has an account.' })
export class PasswordResetRequest {
  @Field({ description: 'The address a link (or a note that it has no account) was sent to.' }) email!: string;
}
