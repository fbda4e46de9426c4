import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { deleteExport, exportConsents, getExports, requestExport } from '../core/exports/actions';
import { EXPORT_TYPE_NAMES, ExportTypeName } from '../core/exports/model';
import { errors } from '../errors';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { ExportConsentType, RealmExportType } from '../schema/exports';
import { deleted, DeletedPayload } from '../schema/payloads';

const me = (ctx: GraphQLContext) => ctx.user as User;

@Resolver(() => RealmExportType)
export class RealmExportResolver {
  @Authorized()
  @Query(() => [RealmExportType], { description: "The organization's data exports, oldest first (administrators)." })
  async realmExports(@Ctx() ctx: GraphQLContext): Promise<RealmExportType[]> {
    return (await getExports(ctx.deps, me(ctx))).map(RealmExportType.from);
  }

  @Authorized()
  @Query(() => [ExportConsentType], { description: 'Which members consent to exports of their private data (administrators).' })
  async exportConsents(@Ctx() ctx: GraphQLContext): Promise<ExportConsentType[]> {
    return (await exportConsents(ctx.deps, me(ctx))).map((c) =>
      Object.assign(new ExportConsentType(), { userId: c.user_id, consented: c.consented, emailAddressVisibility: c.email_address_visibility }),
    );
  }

  @Authorized()
  @Mutation(() => RealmExportType, {
    description:
      'Starts a data export: public, full_with_consent or full_without_consent (both owners only; the latter where owners have access to all content); it is made in the background.',
  })
  async startExport(@Arg('exportType', () => String, { defaultValue: 'public' }) exportType: string, @Ctx() ctx: GraphQLContext): Promise<RealmExportType> {
    if (!EXPORT_TYPE_NAMES.includes(exportType as ExportTypeName)) throw errors.badRequest('Invalid export_type');
    const id = await requestExport(ctx.deps, me(ctx), exportType as ExportTypeName);
    return RealmExportType.from((await getExports(ctx.deps, me(ctx))).find((e) => e.id === id)!);
  }

  @Authorized()
  @Mutation(() => DeletedPayload, { description: "Deletes a finished export's file." })
  async deleteExport(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await deleteExport(ctx.deps, me(ctx), id);
    return deleted(id);
  }
}
