import fs from 'node:fs';
import path from 'node:path';
import nodemailer, { Transporter } from 'nodemailer';
import type { Config } from '../../config';

/**
 * Outgoing email. With SMTP_URL set it goes out through that server; otherwise each message is
 * appended to DATA_DIR/outbox.jsonl, where the operator can read it (`listOutbox`).
 */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
}

export interface OutboxEntry extends OutgoingEmail {
  from: string;
  /** ISO 8601. */
  date: string;
}

export function outboxPath(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'outbox.jsonl');
}

const transports = new Map<string, Transporter>();

function smtpTransport(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

export async function sendEmail(config: Config, email: OutgoingEmail): Promise<void> {
  if (config.smtpUrl) {
    await smtpTransport(config.smtpUrl).sendMail({ from: config.emailFrom, ...email });
    return;
  }
  const entry: OutboxEntry = { date: new Date().toISOString(), from: config.emailFrom, ...email };
  await fs.promises.mkdir(config.dataDir, { recursive: true });
  await fs.promises.appendFile(outboxPath(config), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
}

/** Every message written to the outbox, oldest first (for the operator's CLI). */
export function listOutbox(config: Pick<Config, 'dataDir'>): OutboxEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(outboxPath(config), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as OutboxEntry);
}
