/**
 * Zulip's own interactive clients, by the lowercase name they send as (`client` parameter or the
 * User-Agent's product name): web, mobile, desktop, terminal.
 */
const INTERACTIVE_CLIENTS = new Set([
  'zulipandroid',
  'zulipios',
  'zulipdesktop',
  'zulipmobile',
  'zulipelectron',
  'zulipterminal',
  'snipe',
  'website',
  'ios',
  'android',
]);

/**
 * Whether a message sent without `read_by_sender` starts read for its sender, as Zulip decides it:
 * only when a person sent it from one of Zulip's interactive clients (or an old desktop app, "desktop
 * app ..."). Integrations posting with a person's API key leave it unread, so the person notices.
 */
export function defaultReadBySender(client: string): boolean {
  const name = client.toLowerCase();
  return INTERACTIVE_CLIENTS.has(name) || name.includes('desktop app');
}
