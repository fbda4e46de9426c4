import type { IncomingHttpHeaders } from 'node:http';
import type { Json } from './payload';

/** One message an integration makes of a request: its topic (channel messages) and content. */
export interface WebhookMessage {
  topic: string;
  body: string;
  /** The event it reports, for the only_events / exclude_events filters. */
  eventType?: string;
}

export interface WebhookRequest {
  payload: Json;
  headers: IncomingHttpHeaders;
  /** The URL's parameters (stream, topic, branches, ...). */
  params: Record<string, string>;
  /** Whether the URL names the topic, in which case titles go into the messages instead (Zulip's include_title). */
  includeTitle: boolean;
}

export interface Integration {
  /** The name in /api/v1/external/<name>. */
  name: string;
  /** How Zulip names it in its messages and errors. */
  displayName: string;
  /** The event types only_events / exclude_events can name; null when it reports no types. */
  allEventTypes: string[] | null;
  /** Messages to send; none for events that are valid but not reported. */
  handle(request: WebhookRequest): WebhookMessage[];
}
