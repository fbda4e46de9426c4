import { registerOptions } from './events';

/** POST /register's defaults, for calling a state slice directly. */
export const defaultRegisterOptions = registerOptions({ includeSubscribers: 'false' });
