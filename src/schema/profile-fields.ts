import { Field, InputType, Int, ObjectType, ID } from 'type-graphql';
import type { CustomProfileFieldDict } from '../core/profile-fields/view';

@ObjectType('CustomProfileField', { description: 'A field of user profiles defined by the organization.' })
export class CustomProfileFieldType {
  @Field(() => ID) id!: number;
  @Field() name!: string;
  @Field(() => Int, { description: '1 short text, 2 long text, 3 list of options, 4 date, 5 link, 6 person picker, 7 external account, 8 pronouns.' })
  type!: number;
  @Field() hint!: string;
  @Field({ description: 'JSON text: choices (type 3) or external account (type 7); empty otherwise.' }) fieldData!: string;
  @Field(() => Int) order!: number;
  @Field() required!: boolean;
  @Field() editableByUser!: boolean;
  @Field() displayInProfileSummary!: boolean;
  @Field({ description: 'Whether clients match users by their values of this field in @-mention suggestions.' }) useForUserMatching!: boolean;

  static from(dict: CustomProfileFieldDict): CustomProfileFieldType {
    return Object.assign(new CustomProfileFieldType(), {
      id: dict.id,
      name: dict.name,
      type: dict.type,
      hint: dict.hint,
      fieldData: dict.field_data,
      order: dict.order,
      required: dict.required,
      editableByUser: dict.editable_by_user,
      displayInProfileSummary: dict.display_in_profile_summary === true,
      useForUserMatching: dict.use_for_user_matching,
    });
  }
}

@ObjectType('ProfileDataEntry', { description: "One user's value for one field." })
export class ProfileDataEntryType {
  @Field(() => Int) fieldId!: number;
  @Field({ description: 'Text, or the JSON list of user ids for person pickers.' }) value!: string;
  @Field(() => String, { nullable: true, description: 'HTML, for the text types.' }) renderedValue!: string | null;
}

@InputType()
export class CustomProfileFieldInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) hint?: string;
  @Field({ nullable: true, description: 'JSON text, as field_data in the REST API.' }) fieldData?: string;
  @Field({ nullable: true }) displayInProfileSummary?: boolean;
  @Field({ nullable: true }) required?: boolean;
  @Field({ nullable: true }) editableByUser?: boolean;
  @Field({ nullable: true, description: 'Short text and external account fields only.' }) useForUserMatching?: boolean;
}

@InputType({ description: 'A value: text, or userIds for person pickers.' })
export class ProfileDataInput {
  @Field(() => Int) fieldId!: number;
  @Field(() => String, { nullable: true }) value?: string | null;
  @Field(() => [Int], { nullable: true }) userIds?: number[] | null;
}

@ObjectType('ProfileDataPayload', { description: "A user's profile field values after the change." })
export class ProfileDataPayload {
  @Field(() => Int) userId!: number;
  @Field(() => [ProfileDataEntryType]) profileData!: ProfileDataEntryType[];
}
