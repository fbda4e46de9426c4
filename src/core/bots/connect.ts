import { registerAccountLifecycleSteps } from '../users/lifecycle';
import { botLifecycleSteps } from './lifecycle';

/** Registers the bots feature's part in other features' actions (see `connectFeatures`). */
export function connectBots(): void {
  registerAccountLifecycleSteps(botLifecycleSteps);
}
