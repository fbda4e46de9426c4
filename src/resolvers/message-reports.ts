import { Arg, Authorized, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import { reportMessage } from '../core/message-reports/actions';
import { MAX_REPORT_DESCRIPTION_LENGTH, REPORT_TYPES } from '../core/message-reports/reasons';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { ReportMessagePayload } from '../schema/message-reports';
import { v } from '../validation/validate';

@Resolver()
export class MessageReportResolver {
  @Authorized()
  @Mutation(() => ReportMessagePayload, {
    description:
      'Reports a message to the moderators: reportType is spam, harassment, inappropriate, norms or other (which needs a description) (REST: POST /messages/{id}/report).',
  })
  async reportMessage(
    @Arg('messageId', () => Int) messageId: number,
    @Arg('reportType') reportType: string,
    @Arg('description', () => String, { nullable: true }) description: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ReportMessagePayload> {
    await reportMessage(ctx.deps, ctx.user as User, messageId, {
      reportType: v.oneOf(REPORT_TYPES)(reportType, 'report_type'),
      description: v.string({ maxLength: MAX_REPORT_DESCRIPTION_LENGTH })(description ?? '', 'description'),
    });
    return Object.assign(new ReportMessagePayload(), { messageId });
  }
}
