import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium; `CHROMIUM_PATH` overrides it. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium with every background connection off, so the only requests the browser makes
 * are the page's own (which the tests then check stay on this machine).
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface PageWatch {
  /** Every request URL whose host is not this machine. */
  offMachine: string[];
  /** Console errors and uncaught page errors. */
  errors: string[];
}

const localHosts = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Records the page's requests that leave the machine and its console errors. */
export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { offMachine: [], errors: [] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if ((url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'ws:') && !localHosts.has(url.hostname)) {
      watch.offMachine.push(request.url());
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') watch.errors.push(message.text());
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  return watch;
}
