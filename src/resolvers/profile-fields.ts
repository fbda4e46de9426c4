import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { createField, deleteField, removeOwnProfileData, reorderFields, updateField, updateOwnProfileData } from '../core/profile-fields/actions';
import { listFields, profileDataFor } from '../core/profile-fields/queries';
import { FieldData, fieldDataValidator } from '../core/profile-fields/validation';
import type { User } from '../core/users/model';
import { getUserForViewer } from '../core/users/queries';
import { parseJsonParam } from '../validation/validate';
import type { GraphQLContext } from '../schema/context';
import { deleted, DeletedPayload } from '../schema/payloads';
import { CustomProfileFieldInput, CustomProfileFieldType, ProfileDataEntryType, ProfileDataInput, ProfileDataPayload } from '../schema/profile-fields';

const me = (ctx: GraphQLContext) => ctx.user as User;
const fieldData = (text: string | undefined): FieldData | undefined =>
  text === undefined || text === null ? undefined : fieldDataValidator(parseJsonParam(text, 'fieldData'), 'fieldData');

async function profileDataOf(ctx: GraphQLContext, userId: number): Promise<ProfileDataEntryType[]> {
  const data = (await profileDataFor(ctx.deps.knex, ctx.deps.realmId, [userId])).get(userId) ?? {};
  return Object.entries(data).map(([id, entry]) =>
    Object.assign(new ProfileDataEntryType(), { fieldId: Number(id), value: entry.value, renderedValue: entry.rendered_value ?? null }),
  );
}

const ownProfileData = async (ctx: GraphQLContext): Promise<ProfileDataPayload> =>
  Object.assign(new ProfileDataPayload(), { userId: me(ctx).id, profileData: await profileDataOf(ctx, me(ctx).id) });

async function fields(ctx: GraphQLContext): Promise<CustomProfileFieldType[]> {
  return (await listFields(ctx.deps)).map(CustomProfileFieldType.from);
}

@Resolver(() => CustomProfileFieldType)
export class ProfileFieldResolver {
  @Authorized()
  @Query(() => [CustomProfileFieldType])
  async customProfileFields(@Ctx() ctx: GraphQLContext): Promise<CustomProfileFieldType[]> {
    return fields(ctx);
  }

  @Authorized()
  @Query(() => [ProfileDataEntryType], { description: "A user's profile field values." })
  async profileData(@Arg('userId', () => Int) userId: number, @Ctx() ctx: GraphQLContext): Promise<ProfileDataEntryType[]> {
    await getUserForViewer(ctx.deps, me(ctx), userId, { clientGravatar: false, includeCustomProfileFields: false });
    return profileDataOf(ctx, userId);
  }

  @Authorized()
  @Mutation(() => CustomProfileFieldType, { description: 'Administrators only.' })
  async createCustomProfileField(
    @Arg('fieldType', () => Int) fieldType: number,
    @Arg('input', () => CustomProfileFieldInput, { nullable: true }) input: CustomProfileFieldInput | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CustomProfileFieldType> {
    const id = await createField(ctx.deps, me(ctx), {
      name: input?.name ?? undefined,
      hint: input?.hint ?? undefined,
      fieldType,
      fieldData: fieldData(input?.fieldData ?? undefined),
      displayInProfileSummary: input?.displayInProfileSummary ?? undefined,
      required: input?.required ?? undefined,
      editableByUser: input?.editableByUser ?? undefined,
      useForUserMatching: input?.useForUserMatching ?? undefined,
    });
    return (await fields(ctx)).find((f) => f.id === id)!;
  }

  @Authorized()
  @Mutation(() => CustomProfileFieldType, { description: 'Administrators only.' })
  async updateCustomProfileField(
    @Arg('id', () => Int) id: number,
    @Arg('input') input: CustomProfileFieldInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CustomProfileFieldType> {
    await updateField(ctx.deps, me(ctx), id, {
      name: input.name ?? undefined,
      hint: input.hint ?? undefined,
      fieldData: fieldData(input.fieldData ?? undefined),
      displayInProfileSummary: input.displayInProfileSummary ?? undefined,
      required: input.required ?? undefined,
      editableByUser: input.editableByUser ?? undefined,
      useForUserMatching: input.useForUserMatching ?? undefined,
    });
    return (await fields(ctx)).find((f) => f.id === id)!;
  }

  @Authorized()
  @Mutation(() => DeletedPayload, { description: 'Administrators only; deletes every value of the field too.' })
  async deleteCustomProfileField(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await deleteField(ctx.deps, me(ctx), id);
    return deleted(id);
  }

  @Authorized()
  @Mutation(() => [CustomProfileFieldType], { description: 'Administrators only; lists every field id in the new order.' })
  async reorderCustomProfileFields(@Arg('order', () => [Int]) order: number[], @Ctx() ctx: GraphQLContext): Promise<CustomProfileFieldType[]> {
    await reorderFields(ctx.deps, me(ctx), order);
    return fields(ctx);
  }

  @Authorized()
  @Mutation(() => ProfileDataPayload, { description: 'Sets your own values.' })
  async updateProfileData(@Arg('data', () => [ProfileDataInput]) data: ProfileDataInput[], @Ctx() ctx: GraphQLContext): Promise<ProfileDataPayload> {
    await updateOwnProfileData(
      ctx.deps,
      me(ctx),
      data.map((d) => ({ id: d.fieldId, value: d.userIds ?? d.value ?? '' })),
    );
    return ownProfileData(ctx);
  }

  @Authorized()
  @Mutation(() => ProfileDataPayload, { description: 'Clears your own values of the listed fields.' })
  async removeProfileData(@Arg('fieldIds', () => [Int]) fieldIds: number[], @Ctx() ctx: GraphQLContext): Promise<ProfileDataPayload> {
    await removeOwnProfileData(ctx.deps, me(ctx), fieldIds);
    return ownProfileData(ctx);
  }
}
