import { endpoint } from './endpoint';
import { openApiDocument } from './openapi';
import { Route, sendJson } from './router';

/** GET /api/v1/openapi.json, without credentials; built once per server URL. */
export function openApiRoute(routes: readonly Route[]): Route {
  const documents = new Map<string, unknown>();
  return {
    method: 'GET',
    path: '/openapi.json',
    endpoint: endpoint({
      auth: 'none',
      params: {},
      handler: async ({ deps, res }) => {
        const url = `${deps.config.externalUrl}`;
        let document = documents.get(url);
        if (!document) documents.set(url, (document = openApiDocument(routes, url)));
        sendJson(res, 200, document);
      },
    }),
  };
}
