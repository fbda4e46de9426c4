import type { IncomingMessage, ServerResponse } from 'node:http';
import { isApiUrl } from './router';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type';
const EXPOSED_HEADERS = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';

const isGraphQLUrl = (url: string) => url === '/graphql' || url.startsWith('/graphql?');

/**
 * Cross-origin access to /api/v1 and /graphql for the origins in PARLEY_CORS_ORIGINS (none by
 * default, `*` for any). Credentials travel in the Authorization header, never in cookies, so
 * responses do not allow credentials. Returns a handler that answers preflights itself (true) and
 * adds the headers to other requests; requests without an Origin header cost one property read.
 */
export function corsHandler(origins: readonly string[]): ((req: IncomingMessage, res: ServerResponse) => boolean) | null {
  if (origins.length === 0) return null;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return (req, res) => {
    const origin = req.headers.origin;
    if (origin === undefined) return false;
    const url = req.url ?? '/';
    if (!isApiUrl(url) && !isGraphQLUrl(url)) return false;
    res.setHeader('Vary', 'Origin');
    if (!any && !allowed.has(origin)) return false;
    res.setHeader('Access-Control-Allow-Origin', any ? '*' : origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': '600',
        'Content-Length': '0',
      });
      res.end();
      return true;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    return false;
  };
}
