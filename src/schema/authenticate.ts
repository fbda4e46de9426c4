import type { AppDeps } from '../core/deps';
import { authenticateBearerKey, rememberedAuthentication } from '../core/users/authenticate';
import type { User } from '../core/users/model';
import { authenticateRequest } from '../core/users/request-auth';

/**
 * GraphQL's credentials: Basic as for REST, or `Bearer <api key>` as GraphQL tools send by default.
 * REST keeps to Basic, as Zulip's API does.
 */
export async function authenticateGraphQLRequest(deps: AppDeps, header: string | undefined): Promise<User> {
  const bearer = header === undefined ? null : /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  if (!bearer) return authenticateRequest(deps, header);
  // Remembered under a name no REST header can have, so that REST never accepts it from the cache.
  const remembered = `graphql ${header}`;
  return rememberedAuthentication(deps, remembered) ?? authenticateBearerKey(deps, bearer[1], remembered);
}
