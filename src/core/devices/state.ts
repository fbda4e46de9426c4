import type { StateSlice } from '../register/slice';
import { ClientDeviceInfo, ClientDevice, deviceInfo } from './model';

/** `devices`: the user's client devices by id, each with its push registration fields. */
export const clientDevicesSlice: StateSlice = {
  fetchTypes: ['device'],
  async fetch(deps, user) {
    const rows = await ClientDevice.query(deps.knex).where({ user_id: user.id }).orderBy('id');
    const devices: Record<string, ClientDeviceInfo> = {};
    for (const row of rows) devices[String(row.id)] = deviceInfo();
    return { devices };
  },
  apply(state, event) {
    if (event.type !== 'device') return;
    const devices = state.devices as Record<string, ClientDeviceInfo>;
    const key = String(event.device_id);
    if (event.op === 'add') devices[key] ??= deviceInfo();
    else if (event.op === 'remove') delete devices[key];
  },
};
