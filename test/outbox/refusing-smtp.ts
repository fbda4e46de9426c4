import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as it reached the SMTP server, refused or accepted. */
export interface SmtpAttempt {
  to: string[];
  subject: string;
  messageId: string;
  accepted: boolean;
  /** When the data arrived (ms since the epoch). */
  at: number;
}

/**
 * A real SMTP server (smtp-server) on loopback that refuses the next `refuseNext` messages with a
 * temporary failure (451) after reading them, then accepts: every attempt is kept, with its
 * Message-ID, so a test sees what a retried send repeated.
 */
export async function startRefusingSmtp(): Promise<{ url: string; attempts: SmtpAttempt[]; refuseNext: number; close(): Promise<void> }> {
  const state = { refuseNext: 0 };
  const attempts: SmtpAttempt[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const accepted = state.refuseNext === 0;
          if (!accepted) state.refuseNext -= 1;
          attempts.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            messageId: parsed.messageId ?? '',
            accepted,
            at: Date.now(),
          });
          if (accepted) return callback();
          const refusal = new Error('Try again later') as Error & { responseCode: number };
          refusal.responseCode = 451;
          callback(refusal);
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    attempts,
    get refuseNext() {
      return state.refuseNext;
    },
    set refuseNext(n: number) {
      state.refuseNext = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
