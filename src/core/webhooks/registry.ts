import { github } from './github';
import { gitlab } from './gitlab';
import { grafana } from './grafana';
import { jsonIntegration } from './json';
import { slackIncoming } from './slack-incoming';
import type { Integration } from './types';

/** Every incoming-webhook integration, by the name in /api/v1/external/<name>. */
export const INTEGRATIONS: ReadonlyMap<string, Integration> = new Map(
  [github, gitlab, grafana, jsonIntegration, slackIncoming].map((integration) => [integration.name, integration]),
);
