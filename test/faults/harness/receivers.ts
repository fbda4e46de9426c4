import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { SideEffect } from './checks';

/**
 * The far ends of Parley's side effects, on loopback, each with a switch that makes it fail: a
 * mail server that refuses messages, a webhook service that never answers.
 */

export interface MailAttempt {
  to: string[];
  messageId: string;
  accepted: boolean;
}

export interface MailServer {
  url: string;
  /** While true, every message is refused with a temporary error (451) once it has been read. */
  refusing: boolean;
  attempts: MailAttempt[];
  close(): Promise<void>;
}

export async function startMailServer(): Promise<MailServer> {
  const self: MailServer = { url: '', refusing: false, attempts: [], close: async () => undefined };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const accepted = !self.refusing;
          self.attempts.push({ to: session.envelope.rcptTo.map((r) => r.address), messageId: parsed.messageId ?? '', accepted });
          if (accepted) callback();
          else callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  self.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return self;
}

/** Emails expected by address: how many arrived, and how many arrived again under one Message-ID. */
export function mailEffect(mail: MailServer, addresses: string[]): SideEffect {
  const accepted = mail.attempts.filter((a) => a.accepted && a.to.some((to) => addresses.includes(to)));
  return {
    expected: addresses.length,
    arrived: addresses.filter((address) => accepted.some((a) => a.to.includes(address))).length,
    duplicates: accepted.length - new Set(accepted.map((a) => a.messageId)).size,
  };
}

export interface WebhookCall {
  delivery: string;
  messageId: number;
  answered: boolean;
}

export interface WebhookService {
  url: string;
  /** While true, requests are read and recorded but never answered (the caller times out). */
  stalling: boolean;
  calls: WebhookCall[];
  close(): Promise<void>;
}

export async function startWebhookService(): Promise<WebhookService> {
  const self: WebhookService = { url: '', stalling: false, calls: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const payload = JSON.parse(body) as { message: { id: number } };
      const answered = !self.stalling;
      self.calls.push({ delivery: String(req.headers['x-parley-delivery'] ?? ''), messageId: payload.message.id, answered });
      if (!answered) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ response_not_required: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  self.close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return self;
}

/** Calls expected by message: how many arrived, and how many came again under one delivery id. */
export function webhookEffect(service: WebhookService, messageIds: number[]): SideEffect {
  const calls = service.calls.filter((c) => messageIds.includes(c.messageId));
  return {
    expected: messageIds.length,
    arrived: messageIds.filter((id) => calls.some((c) => c.messageId === id)).length,
    duplicates: calls.length - new Set(calls.map((c) => c.delivery)).size,
  };
}
