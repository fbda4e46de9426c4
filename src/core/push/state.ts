import type { StateSlice } from '../register/slice';
import { deviceStatus, PushDevice } from './model';

interface PushDeviceInfo {
  status: string;
  error_code: string | null;
}

/**
 * `push_devices`: the user's E2EE push registrations by push account id, each pending, active or
 * failed (with the service's error code). Clients that find theirs missing or failed register again.
 */
export const pushDevicesSlice: StateSlice = {
  fetchTypes: ['push_device'],
  async fetch(deps, user) {
    const rows = await PushDevice.query(deps.knex).where({ user_id: user.id }).orderBy('push_account_id');
    const devices: Record<string, PushDeviceInfo> = {};
    for (const row of rows) devices[String(row.push_account_id)] = { status: deviceStatus(row), error_code: row.error_code };
    return { push_devices: devices };
  },
  apply(state, event) {
    if (event.type !== 'push_device') return;
    const devices = state.push_devices as Record<string, PushDeviceInfo>;
    devices[event.push_account_id as string] = { status: event.status as string, error_code: (event.error_code as string | undefined) ?? null };
  },
};
