import { isRowId } from '../../db/ids';
import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import type { User } from '../users/model';

/**
 * POST /register_client_device and POST /remove_client_device, as Zulip takes them: a new device
 * record for the requester (its id in the answer, a device add event to the user's clients), and
 * the removal of one of the requester's own devices (a device remove event). Another user's device
 * is not found, as one that does not exist.
 */
export async function registerClientDevice(deps: AppDeps, user: User): Promise<number> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    const [row] = await uow.trx('client_devices').insert({ realm_id: deps.realmId, user_id: user.id, created_at: new Date() }).returning('id');
    const deviceId = Number(typeof row === 'object' ? row.id : row);
    uow.emit({ type: 'device', op: 'add', device_id: deviceId }, [user.id]);
    return deviceId;
  });
}

export async function removeClientDevice(deps: AppDeps, user: User, deviceId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const removed = isRowId(deviceId) ? await uow.trx('client_devices').where({ id: deviceId, user_id: user.id }).delete().returning('id') : [];
    if (removed.length === 0) throw errors.badRequest('Invalid `device_id`');
    uow.emit({ type: 'device', op: 'remove', device_id: deviceId }, [user.id]);
  });
}
