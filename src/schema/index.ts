import 'reflect-metadata';
import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { AuthChecker, buildSchemaSync } from 'type-graphql';
import { errors } from '../errors';
import { ChannelResolver } from '../resolvers/channels';
import { UserResolver } from '../resolvers/user';
import { MarkdownResolver } from '../resolvers/markdown';
import { MessageResolver } from '../resolvers/messages';
import type { GraphQLContext } from './context';

/** Operations marked @Authorized need Basic credentials; the error is REST's 401. */
const authChecker: AuthChecker<GraphQLContext> = ({ context }) => {
  if (!context.user) throw errors.unauthorized();
  return true;
};

export const resolvers = [UserResolver, ChannelResolver, MarkdownResolver, MessageResolver] as const;

let cached: GraphQLSchema | null = null;

export function buildGraphQLSchema(): GraphQLSchema {
  cached ??= buildSchemaSync({ resolvers: [...resolvers], authChecker, validate: false });
  return cached;
}

/** The SDL committed as schema.graphql. */
export function schemaSdl(): string {
  return `${printSchema(lexicographicSortSchema(buildGraphQLSchema()))}\n`;
}
