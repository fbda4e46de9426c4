import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import type { ModernPresence } from '../core/presence/format';

@ObjectType('PresenceEntry', { description: "One user's presence." })
export class PresenceEntryType {
  @Field(() => Int) userId!: number;
  @Field(() => Float, { description: 'UNIX time the user was last reported actually present.' }) activeTimestamp!: number;
  @Field(() => Float, { description: 'UNIX time any client of the user was last connected.' }) idleTimestamp!: number;

  static from(userId: number, entry: ModernPresence): PresenceEntryType {
    return Object.assign(new PresenceEntryType(), {
      userId,
      activeTimestamp: entry.active_timestamp,
      idleTimestamp: entry.idle_timestamp,
    });
  }
}

@ObjectType('PresenceSnapshot', { description: 'Presence of the organization, or the part changed since an update id.' })
export class PresenceSnapshotType {
  @Field(() => Float, { description: 'Pass as lastUpdateId next time to get only newer changes; -1 when nothing was returned and none was passed.' })
  presenceLastUpdateId!: number;
  @Field(() => Float, { nullable: true, description: 'When the data was read (UNIX seconds); null for a ping.' })
  serverTimestamp!: number | null;
  @Field(() => [PresenceEntryType]) presences!: PresenceEntryType[];

  static from(presences: Record<string, ModernPresence>, lastUpdateId: number, serverTimestamp: number | null): PresenceSnapshotType {
    return Object.assign(new PresenceSnapshotType(), {
      presenceLastUpdateId: lastUpdateId,
      serverTimestamp,
      presences: Object.entries(presences).map(([id, entry]) => PresenceEntryType.from(Number(id), entry)),
    });
  }
}

@InputType()
export class UpdatePresenceInput {
  @Field({ description: '"active" or "idle".' }) status!: string;
  @Field(() => Float, { nullable: true, description: 'The presenceLastUpdateId last received; -1 to fetch everything.' })
  lastUpdateId?: number;
  @Field(() => Int, { nullable: true, description: 'How many days of history to fetch (default 14).' }) historyLimitDays?: number;
  @Field({ nullable: true, defaultValue: false }) newUserInput?: boolean;
  @Field({ nullable: true, defaultValue: false, description: 'Only report; return no presence data.' }) pingOnly?: boolean;
}
