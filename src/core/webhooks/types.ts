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

/**
 * One optional URL parameter offered when generating the integration's URL (Zulip's url_options).
 * `inputType` is the kind of form input it maps to: text for a value, checkbox for a switch.
 */
export interface UrlOption {
  key: string;
  label: string;
  inputType: 'text' | 'checkbox';
}

export interface Integration {
  /** The name in /api/v1/external/<name>. */
  name: string;
  /** How Zulip names it in its messages and errors. */
  displayName: string;
  /** The event types only_events / exclude_events can name; null when it reports no types. */
  allEventTypes: string[] | null;
  /** The optional URL parameters it reads; none when omitted. */
  urlOptions?: readonly UrlOption[];
  /** Messages to send; none for events that are valid but not reported. */
  handle(request: WebhookRequest): WebhookMessage[];
}
