import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { realmLinkifiers } from '../core/linkifiers/cache';
import { topicLinks } from '../core/linkifiers/topic-links';
import type { GraphQLContext } from '../schema/context';
import { MessageType } from '../schema/messages';
import { TopicLinkType } from '../schema/topic-links';

@Resolver(() => MessageType)
export class MessageTopicLinksResolver {
  @FieldResolver(() => [TopicLinkType], { description: "Links in the topic (REST's topic_links), in the topic's order." })
  async topicLinks(@Root() message: MessageType, @Ctx() ctx: GraphQLContext): Promise<TopicLinkType[]> {
    if (message.topic === '') return [];
    const links = topicLinks(message.topic, await realmLinkifiers(ctx.deps.knex, ctx.deps.realmId));
    return links.map((link) => Object.assign(new TopicLinkType(), link));
  }
}
