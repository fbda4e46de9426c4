import { highestReceivedMessageId } from '../../src/core/messages/state';
import { profileDataFor } from '../../src/core/profile-fields/queries';
import { User } from '../../src/core/users/model';
import { ownUserDict } from '../../src/core/users/view';
import type { TestServer } from './server';

/** GET /users/me computed from the database directly, without any of the server's caches. */
export async function freshOwnUser(server: TestServer, userId: number): Promise<Record<string, unknown>> {
  const { knex, config, realmId } = server.server.deps;
  const user = await User.query(knex).findById(userId);
  const profile = (await profileDataFor(knex, realmId, [userId])).get(userId);
  return { result: 'success', msg: '', ...ownUserDict(config, user!, await highestReceivedMessageId(knex, userId), profile) };
}
