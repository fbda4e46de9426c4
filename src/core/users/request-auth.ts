import type { AppDeps } from '../deps';
import { authenticateApiKey, rememberedAuthentication } from './authenticate';
import type { User } from './model';
import { ApiError, errors } from '../../errors';

/** Reads `Authorization: Basic base64(email:api_key)`; null when the header is absent. */
export function parseBasicAuth(header: string | undefined): { email: string; apiKey: string } | null {
  if (header === undefined || header.trim() === '') return null;
  const [scheme, encoded] = header.trim().split(/\s+/, 2);
  if (scheme.toLowerCase() !== 'basic') {
    throw new ApiError('BAD_REQUEST', 'This endpoint requires HTTP basic authentication.', 400);
  }
  const decoded = Buffer.from(encoded ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) {
    throw new ApiError(
      'UNAUTHORIZED',
      'Invalid authorization header for basic auth',
      401,
      {},
      {
        'WWW-Authenticate': 'Basic realm="zulip"',
      },
    );
  }
  return { email: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1) };
}

export async function authenticateRequest(deps: AppDeps, header: string | undefined): Promise<User> {
  const remembered = header === undefined ? undefined : rememberedAuthentication(deps, header);
  if (remembered) return remembered;
  const credentials = parseBasicAuth(header);
  if (!credentials) throw errors.unauthorized();
  return authenticateApiKey(deps, credentials.email, credentials.apiKey, header);
}
