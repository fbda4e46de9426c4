import { pythonJsonDump } from './payload';
import type { Integration, WebhookMessage, WebhookRequest } from './types';

/** Any JSON document, shown as a code block (Zulip's "json" integration). */
export const jsonIntegration: Integration = {
  name: 'json',
  displayName: 'JSON',
  allEventTypes: null,
  handle({ payload }: WebhookRequest): WebhookMessage[] {
    return [{ topic: 'JSON', body: `\`\`\`json\n${pythonJsonDump(payload)}\n\`\`\`` }];
  },
};
