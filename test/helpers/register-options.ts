import { NO_CAPABILITIES, RegisterOptions } from '../../src/realtime/state';

/** POST /register's defaults, for calling a state slice directly. */
export const defaultRegisterOptions: RegisterOptions = {
  applyMarkdown: false,
  clientGravatar: true,
  includeSubscribers: 'false',
  slimPresence: false,
  presenceHistoryLimitDays: 14,
  narrow: [],
  allPublicStreams: false,
  capabilities: NO_CAPABILITIES,
};
