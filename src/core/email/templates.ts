import type { OutgoingEmail } from './outbox';

/**
 * Every email the server sends, rendered here from plain data: invitations, account emails
 * (password reset, address change, new-login notices, welcome), missed-message notifications and digests. Each has a plain-text part and, except the invitation, an HTML part.
 * Message HTML comes from the Markdown renderer (already sanitized); everything else is escaped.
 */

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** Rendered message HTML as readable text (paragraphs and line breaks kept). */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote|pre|tr)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z0-9]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** An email's HTML part; its title is the subject, so a reader opening it alone knows what it is. */
function page(title: string, bodyHtml: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family: sans-serif; line-height: 1.4">${bodyHtml}</body></html>`;
}

export function invitationEmail(input: {
  to: string;
  link: string;
  referrerName: string;
  referrerEmail: string;
  realmName: string;
  expiryDate: Date | null;
}): OutgoingEmail {
  const expiry = input.expiryDate ? `\nThis invitation expires on ${input.expiryDate.toUTCString()}.\n` : '';
  const text =
    `Hi,\n\n${input.referrerName} (${input.referrerEmail}) has invited you to join ${input.realmName}, ` +
    `a team chat organization.\n\nTo create your account, open this link:\n\n${input.link}\n${expiry}\n` +
    `If you were not expecting this invitation, you can ignore this email.\n`;
  return { to: input.to, subject: `${input.referrerName} invited you to join ${input.realmName}`, text };
}

export function passwordResetEmail(input: { to: string; realmName: string; link: string; validMinutes: number }): OutgoingEmail {
  return {
    to: input.to,
    subject: `Reset your password for ${input.realmName}`,
    text:
      `Somebody (possibly you) requested a new password for your account ${input.to} in ${input.realmName}.\n\n` +
      `Click the link below to choose a new password:\n${input.link}\n\n` +
      `The link works once and expires in ${input.validMinutes} minutes. If you did not request this, you can ignore this email.\n`,
  };
}

export function noAccountEmail(input: { to: string; realmName: string; realmUrl: string; deactivated: boolean }): OutgoingEmail {
  const why = input.deactivated ? 'the account with this address has been deactivated' : 'there is no account with this address';
  return {
    to: input.to,
    subject: `Password reset request for ${input.realmName}`,
    text:
      `Somebody (possibly you) requested a password reset for ${input.to} in ${input.realmName} (${input.realmUrl}), ` +
      `but ${why}. If you did not request this, you can ignore this email.\n`,
  };
}

export function emailChangeConfirmationEmail(input: { to: string; realmName: string; oldEmail: string; link: string }): OutgoingEmail {
  return {
    to: input.to,
    subject: `Verify your new email address for ${input.realmName}`,
    text:
      `We received a request to change the email address for the account ${input.oldEmail} in ${input.realmName} to ${input.to}.\n\n` +
      `Click the link below to confirm the change:\n${input.link}\n\nIf you did not request this, you can ignore this email.\n`,
  };
}

export function emailChangedNoticeEmail(input: { realmName: string; realmUrl: string; oldEmail: string; newEmail: string }): OutgoingEmail {
  return {
    to: input.oldEmail,
    subject: `Email address changed for ${input.realmName}`,
    text:
      `The email address for your account in ${input.realmName} (${input.realmUrl}) has been changed from ${input.oldEmail} to ${input.newEmail}.\n\n` +
      `If you did not make this change, contact your organization's administrators right away.\n`,
  };
}

export interface MissedMessage {
  senderName: string;
  /** Rendered HTML of the message. */
  html: string;
  time: Date;
}

export interface MissedMessagesInput {
  to: string;
  /** The conversation: "#channel > topic", or the other participants of a direct message. */
  conversation: { kind: 'channel'; channel: string; topic: string } | { kind: 'direct'; names: string[] };
  /** Why the user is told (Zulip's triggers), for the closing line. */
  reason: 'direct_message' | 'mentioned' | 'wildcard' | 'followed_topic' | 'channel';
  messages: MissedMessage[];
  includeContent: boolean;
  /** Prefixed to the subject when set. */
  realmName: string | null;
  realmUrl: string;
  conversationUrl: string;
  settingsUrl: string;
  unsubscribeUrl: string;
}

const REASONS: Record<MissedMessagesInput['reason'], string> = {
  direct_message: 'You are receiving this because you received direct messages while you were away.',
  mentioned: 'You are receiving this because you were mentioned while you were away.',
  wildcard: 'You are receiving this because everyone was mentioned in a conversation you take part in.',
  followed_topic: 'You are receiving this because you have email notifications enabled for topics you follow.',
  channel: 'You are receiving this because you have email notifications enabled for this channel.',
};

export function missedMessagesEmail(input: MissedMessagesInput): OutgoingEmail {
  const c = input.conversation;
  const title = c.kind === 'channel' ? `#${c.channel} > ${c.topic}` : c.names.length === 1 ? `DMs with ${c.names[0]}` : `Group DMs with ${c.names.join(', ')}`;
  const subject = `${input.realmName ? `[${input.realmName}] ` : ''}${title}`;
  const count = input.messages.length;

  const textParts: string[] = [];
  const htmlParts: string[] = [];
  if (input.includeContent) {
    for (const m of input.messages) {
      textParts.push(`${m.senderName}:\n${htmlToText(m.html)}`);
      htmlParts.push(`<div style="margin: 12px 0"><b>${escapeHtml(m.senderName)}</b><div>${m.html}</div></div>`);
    }
  } else {
    const senders = [...new Set(input.messages.map((m) => m.senderName))].join(', ');
    const line = `${count} new message${count === 1 ? '' : 's'} from ${senders}. Message content is not included, as set in your notification settings.`;
    textParts.push(line);
    htmlParts.push(`<p>${escapeHtml(line)}</p>`);
  }
  const text =
    `${title}\n\n${textParts.join('\n\n')}\n\n` +
    `Open the conversation: ${input.conversationUrl}\n\n` +
    `${REASONS[input.reason]}\nManage your notification settings: ${input.settingsUrl}\n` +
    `Unsubscribe from missed-message emails: ${input.unsubscribeUrl}\n`;
  const html = page(
    subject,
    `<h3>${escapeHtml(title)}</h3>${htmlParts.join('')}` +
      `<p><a href="${escapeHtml(input.conversationUrl)}">Open the conversation</a></p>` +
      `<p style="color: #666; font-size: small">${escapeHtml(REASONS[input.reason])}<br>` +
      `<a href="${escapeHtml(input.settingsUrl)}">Manage your notification settings</a> · ` +
      `<a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe from missed-message emails</a></p>`,
  );
  return { to: input.to, subject, text, html, headers: { 'List-Unsubscribe': `<${input.unsubscribeUrl}>` } };
}

export interface DigestInput {
  to: string;
  realmName: string;
  realmUrl: string;
  conversations: { title: string; url: string; messageCount: number; senders: string[] }[];
  newChannels: { name: string; url: string }[];
  unsubscribeUrl: string;
}

export function digestEmail(input: DigestInput): OutgoingEmail {
  const subject = `${input.realmName}: what you missed`;
  const describe = (c: DigestInput['conversations'][number]) =>
    `${c.title} (${c.messageCount} message${c.messageCount === 1 ? '' : 's'} from ${c.senders.join(', ')})`;
  const convText = input.conversations.map((c) => `- ${describe(c)}: ${c.url}`);
  const chanText = input.newChannels.map((c) => `- #${c.name}: ${c.url}`);
  const text =
    `Here is what happened in ${input.realmName} while you were away.\n\n` +
    (convText.length ? `Hot conversations:\n${convText.join('\n')}\n\n` : '') +
    (chanText.length ? `New channels:\n${chanText.join('\n')}\n\n` : '') +
    `Open ${input.realmName}: ${input.realmUrl}\n\nUnsubscribe from digest emails: ${input.unsubscribeUrl}\n`;
  const li = (href: string, label: string) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`;
  const html = page(
    subject,
    `<p>Here is what happened in ${escapeHtml(input.realmName)} while you were away.</p>` +
      (input.conversations.length ? `<h3>Hot conversations</h3><ul>${input.conversations.map((c) => li(c.url, describe(c))).join('')}</ul>` : '') +
      (input.newChannels.length ? `<h3>New channels</h3><ul>${input.newChannels.map((c) => li(c.url, `#${c.name}`)).join('')}</ul>` : '') +
      `<p><a href="${escapeHtml(input.realmUrl)}">Open ${escapeHtml(input.realmName)}</a></p>` +
      `<p style="color: #666; font-size: small"><a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe from digest emails</a></p>`,
  );
  return { to: input.to, subject, text, html, headers: { 'List-Unsubscribe': `<${input.unsubscribeUrl}>` } };
}

export interface LoginNoticeInput {
  to: string;
  fullName: string;
  realmName: string;
  realmUrl: string;
  /** Already in the user's time zone and clock style. */
  loginTime: string;
  address: string;
  browser: string;
  os: string;
  unsubscribeUrl: string;
}

/** Sent at each login with a credential, so a login the owner did not make gets noticed. */
export function loginNoticeEmail(input: LoginNoticeInput): OutgoingEmail {
  const device = `${input.browser} on ${input.os}`;
  const resetUrl = `${input.realmUrl}/accounts/password/reset/`;
  const details: [string, string][] = [
    ['When', input.loginTime],
    ['Device', device],
    ['IP address', input.address],
  ];
  const intro = `Your account ${input.to} in ${input.realmName} (${input.realmUrl}) was just used to log in.`;
  const advice =
    "If this was you, there is nothing to do. If you do not recognize this login, change your password right away and tell your organization's administrators.";
  const subject = `New login to ${input.realmName} from ${device}`;
  const text =
    `Hi ${input.fullName},\n\n${intro}\n\n${details.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n` +
    `${advice}\nChange your password: ${resetUrl}\n\n` +
    `Stop receiving emails about new logins: ${input.unsubscribeUrl}\n`;
  const html = page(
    subject,
    `<p>Hi ${escapeHtml(input.fullName)},</p><p>${escapeHtml(intro)}</p>` +
      `<ul>${details.map(([k, v]) => `<li><b>${escapeHtml(k)}:</b> ${escapeHtml(v)}</li>`).join('')}</ul>` +
      `<p>${escapeHtml(advice)}</p><p><a href="${escapeHtml(resetUrl)}">Change your password</a></p>` +
      `<p style="color: #666; font-size: small"><a href="${escapeHtml(input.unsubscribeUrl)}">Stop receiving emails about new logins</a></p>`,
  );
  return {
    to: input.to,
    subject,
    text,
    html,
    headers: { 'List-Unsubscribe': `<${input.unsubscribeUrl}>` },
  };
}

export interface WelcomeInput {
  to: string;
  fullName: string;
  realmName: string;
  realmUrl: string;
}

/** The first email of a new account: where the organization is, how to log in, get the apps and find help. */
export function welcomeEmail(input: WelcomeInput): OutgoingEmail {
  const appsUrl = 'https://zulip.com/apps/';
  const helpUrl = 'https://zulip.com/help/';
  const subject = `Welcome to ${input.realmName}`;
  const text =
    `Hi ${input.fullName},\n\nWelcome to ${input.realmName}! Your account is ready.\n\n` +
    `Organization: ${input.realmName}\nAddress: ${input.realmUrl}\nYour login email: ${input.to}\n\n` +
    `Use it in your browser at ${input.realmUrl}, or with the Zulip apps for desktop and mobile (${appsUrl}): ` +
    `give them ${input.realmUrl} as the organization's address.\n\n` +
    `Getting started and how-to guides: ${helpUrl}\nQuestions about this organization go to its administrators.\n`;
  const html = page(
    subject,
    `<p>Hi ${escapeHtml(input.fullName)},</p><p>Welcome to ${escapeHtml(input.realmName)}! Your account is ready.</p>` +
      `<ul><li><b>Organization:</b> ${escapeHtml(input.realmName)}</li>` +
      `<li><b>Address:</b> <a href="${escapeHtml(input.realmUrl)}">${escapeHtml(input.realmUrl)}</a></li>` +
      `<li><b>Your login email:</b> ${escapeHtml(input.to)}</li></ul>` +
      `<p>Use it in your browser, or with the <a href="${appsUrl}">Zulip apps for desktop and mobile</a>: ` +
      `give them ${escapeHtml(input.realmUrl)} as the organization's address.</p>` +
      `<p><a href="${helpUrl}">Getting started and how-to guides</a>. Questions about this organization go to its administrators.</p>`,
  );
  return { to: input.to, subject, text, html };
}

export interface OnboardingInput extends WelcomeInput {
  /** The one-click link that cancels the rest of these emails. */
  unsubscribeUrl: string;
}

const HELP = 'https://zulip.com/help';

/** The footer of the onboarding emails: why they come, and the link that stops them. */
function onboardingFooter(input: OnboardingInput): { text: string; html: string } {
  const why = `You are getting a few tips by email because you recently joined ${input.realmName}.`;
  return {
    text: `${why}\nStop these onboarding emails: ${input.unsubscribeUrl}\n`,
    html: `<p style="color: #666; font-size: small">${escapeHtml(why)} ` + `<a href="${escapeHtml(input.unsubscribeUrl)}">Stop these onboarding emails</a></p>`,
  };
}

function onboardingEmail(input: OnboardingInput, subject: string, paragraphs: string[], links: [string, string][]): OutgoingEmail {
  const footer = onboardingFooter(input);
  const text =
    `Hi ${input.fullName},\n\n${paragraphs.join('\n\n')}\n\n` +
    `${links.map(([label, url]) => `${label}: ${url}`).join('\n')}\n\n` +
    `Open ${input.realmName}: ${input.realmUrl}\n\n${footer.text}`;
  const html = page(
    subject,
    `<p>Hi ${escapeHtml(input.fullName)},</p>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}` +
      `<ul>${links.map(([label, url]) => `<li><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></li>`).join('')}</ul>` +
      `<p><a href="${escapeHtml(input.realmUrl)}">Open ${escapeHtml(input.realmName)}</a></p>${footer.html}`,
  );
  return { to: input.to, subject, text, html, headers: { 'List-Unsubscribe': `<${input.unsubscribeUrl}>` } };
}

/** A couple of days after joining: how topics keep each channel's conversations apart. */
export function onboardingTopicsEmail(input: OnboardingInput): OutgoingEmail {
  return onboardingEmail(
    input,
    `Making the most of topics in ${input.realmName}`,
    [
      'Every message in a channel belongs to a topic: a short title naming what the conversation is about. ' +
        'Replying within a topic keeps the discussion in one thread, and starting a new topic keeps an unrelated question from getting buried.',
      'Because conversations are kept apart, you can read the topics that matter to you now and come back to the rest later, without losing the thread.',
      'When a conversation wanders off, anyone allowed to can tidy up: rename the topic, or move the messages to another topic or channel.',
    ],
    [
      ['How topics work', `${HELP}/introduction-to-topics`],
      ['Rename a topic', `${HELP}/rename-a-topic`],
      ['Move messages to another topic', `${HELP}/move-content-to-another-topic`],
      ['Move messages to another channel', `${HELP}/move-content-to-another-channel`],
    ],
  );
}

/** What each kind of organization that gets the guide email is told (by the organization's org_type). */
const GUIDE_ADVICE: Record<string, { kind: string; advice: string }> = {
  business: {
    kind: 'a business',
    advice:
      'Teams often give each project, customer or department its own channel, and use a topic for each decision or issue, so that people who were away can catch up quickly.',
  },
  opensource: {
    kind: 'an open-source project',
    advice:
      'Projects often keep a channel for newcomers, one per area of the code, and a topic per issue or pull request, so contributors in every time zone can follow along.',
  },
  education: {
    kind: 'an educational organization',
    advice:
      'Classes often get a channel each, with a topic per assignment or lecture, so questions and answers stay together and students can find them before the next deadline.',
  },
  research: {
    kind: 'a research group',
    advice:
      'Groups often give each project or paper its own channel and keep a topic per experiment or draft, so results and decisions stay easy to find months later.',
  },
  event: {
    kind: 'an event',
    advice:
      'Organizers often make a channel for each track or session and one for logistics, so attendees can follow the talks they care about and ask questions in the right place.',
  },
  community: {
    kind: 'a community',
    advice:
      'Communities often keep a welcome channel for introductions, a channel per interest, and announcements in a channel only moderators post to, so newcomers find their way quickly.',
  },
};

export interface OnboardingGuideInput extends OnboardingInput {
  /** A key of GUIDE_ADVICE. */
  guide: string;
  isAdmin: boolean;
}

/** Some days after joining, for organization types with advice to give: how such organizations set up. */
export function onboardingGuideEmail(input: OnboardingGuideInput): OutgoingEmail {
  const guide = GUIDE_ADVICE[input.guide] ?? GUIDE_ADVICE.business;
  const links: [string, string][] = input.isAdmin
    ? [
        ['Setting up your organization', `${HELP}/getting-your-organization-started-with-zulip`],
        ['Creating channels', `${HELP}/create-a-channel`],
      ]
    : [
        ['Getting started', `${HELP}/getting-started-with-zulip`],
        ['Browsing and joining channels', `${HELP}/introduction-to-channels`],
      ];
  return onboardingEmail(
    input,
    `Ideas for using ${input.realmName}`,
    [
      `${input.realmName} is set up as ${guide.kind}. Here is how organizations like it tend to arrange their conversations.`,
      guide.advice,
      input.isAdmin
        ? 'As an administrator, you can shape this from the start: create the channels people will need and pick which ones newcomers join automatically.'
        : 'Look through the channels you have not joined yet: the one you need may already be there.',
    ],
    links,
  );
}
