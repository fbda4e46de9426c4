import { Client, fetchExchange, subscriptionExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import type { Client as Socket } from 'graphql-ws';
import { CSRF_HEADER, csrfToken } from './csrf';
import { cacheKeys } from './cache-keys';

/**
 * The app's GraphQL client: queries and mutations over HTTP with the session cookie and the CSRF
 * token, subscriptions over the socket, and Graphcache's normalized cache, so that a user or a
 * message fetched by one view is the same record in every other.
 */
export function createGraphQLClient(socket: Socket): Client {
  return new Client({
    url: '/graphql',
    requestPolicy: 'cache-first',
    // Queries go as POST: the server refuses GETs that carry no preflight-forcing header (CSRF).
    preferGetMethod: false,
    fetchOptions: () => ({ credentials: 'same-origin', headers: { [CSRF_HEADER]: csrfToken() } }),
    exchanges: [
      cacheExchange({ keys: cacheKeys }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: socket.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
}
