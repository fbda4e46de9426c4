import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { ExportDict } from '../core/exports/view';

@ObjectType('RealmExport', { description: 'A data export of the organization (GET /export/realm).' })
export class RealmExportType {
  @Field(() => ID) id!: number;
  @Field(() => Int, { nullable: true, description: 'Who requested it.' }) actingUserId!: number | null;
  @Field(() => Float, { description: 'UNIX seconds of the request.' }) exportTime!: number;
  @Field(() => Float, { nullable: true }) deletedTimestamp!: number | null;
  @Field(() => Float, { nullable: true }) failedTimestamp!: number | null;
  @Field(() => String, { nullable: true, description: 'Where the finished file is downloaded; null until then, and once deleted or failed.' })
  exportUrl!: string | null;
  @Field({ description: 'Still being made.' }) pending!: boolean;
  @Field(() => String, { description: 'public, full_with_consent (members who consent) or full_without_consent (everyone’s private data).' })
  exportType!: string;

  static from(dict: ExportDict): RealmExportType {
    return Object.assign(new RealmExportType(), {
      id: dict.id,
      actingUserId: dict.acting_user_id,
      exportTime: dict.export_time,
      deletedTimestamp: dict.deleted_timestamp,
      failedTimestamp: dict.failed_timestamp,
      exportUrl: dict.export_url,
      pending: dict.pending,
      exportType: dict.export_type,
    });
  }
}

@ObjectType('ExportConsent', { description: 'Whether a member lets administrators export their private data.' })
export class ExportConsentType {
  @Field(() => Int) userId!: number;
  @Field() consented!: boolean;
  @Field(() => Int, { description: 'Who may see the member’s email address: 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators.' })
  emailAddressVisibility!: number;
}
