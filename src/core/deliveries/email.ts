import type { Config } from '../../config';
import { isWelcomeFollowUp, renderWelcomeFollowUp } from '../accounts/welcome-follow-ups';
import { OutgoingEmail, sendEmail } from '../email/outbox';
import type { DeliveryHandler } from './handler';
import { DeliveryFailure } from './handler';
import type { ClaimedDelivery } from './store';

/**
 * Emails from the outbox. Each carries a Message-ID made from the item's key, the same on every
 * attempt, so a mail server or client that sees it twice can tell it is one message. Every failure
 * is retried with backoff, as Zulip's email worker does, until the attempts run out. An onboarding
 * follow-up carries only whom and which: it is written when sent, or skipped (done, nothing sent).
 */
export function messageIdFor(config: Pick<Config, 'externalUrl'>, key: string): string {
  return `<${key}@${new URL(config.externalUrl).hostname}>`;
}

export const emailHandler: DeliveryHandler = {
  maxAttempts: 5,
  async send(deps, item: ClaimedDelivery) {
    const email = isWelcomeFollowUp(item.payload) ? await renderWelcomeFollowUp(deps, item) : (item.payload as unknown as OutgoingEmail);
    if (!email) return null;
    try {
      await sendEmail(deps.config, { ...email, headers: { ...email.headers, 'Message-ID': messageIdFor(deps.config, item.key) } });
    } catch (error) {
      const { responseCode, code } = error as { responseCode?: number; code?: string };
      throw new DeliveryFailure(responseCode ? `SMTP ${responseCode}` : `mail ${code ?? (error as Error).name ?? 'error'}`, true);
    }
    return null;
  },
};
