import type { Client } from '@urql/core';

/** The session's GraphQL client, set once the session starts (app/session.ts). */
let client: Client | null = null;

export function setGraphQLClient(value: Client): void {
  client = value;
}

export function graphQLClient(): Client {
  if (!client) throw new Error('the session has not started');
  return client;
}
