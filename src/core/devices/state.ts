import type { StateSlice } from '../register/slice';
import { ClientDevice, ClientDeviceInfo, deviceInfo } from './model';

/** Fields a `device` update event may carry; those it carries replace the device's. */
const UPDATE_FIELDS = ['push_key_id', 'push_token_id', 'pending_push_token_id', 'push_token_last_updated_timestamp', 'push_registration_error_code'] as const;

/** `devices`: the user's client devices by id, each with its push registration fields. */
export const clientDevicesSlice: StateSlice = {
  fetchTypes: ['device'],
  async fetch(deps, user) {
    const rows = await ClientDevice.query(deps.knex).where({ user_id: user.id }).orderBy('id');
    const devices: Record<string, ClientDeviceInfo> = {};
    for (const row of rows) devices[String(row.id)] = deviceInfo(row);
    return { devices };
  },
  apply(state, event) {
    if (event.type !== 'device') return;
    const devices = state.devices as Record<string, ClientDeviceInfo>;
    const key = String(event.device_id);
    if (event.op === 'add') devices[key] ??= deviceInfo();
    else if (event.op === 'remove') delete devices[key];
    else if (event.op === 'update' && devices[key]) {
      const device = devices[key] as unknown as Record<string, unknown>;
      for (const field of UPDATE_FIELDS) if (field in event) device[field] = event[field];
    }
  },
};
