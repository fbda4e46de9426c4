import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import { cookieHeader, logIn } from './browser-session';

/**
 * The web app's page at /: only for a signed-in browser, with the CSRF token for the app and a policy
 * that runs no inline script; its bundles are cached for good; the images the server's answers name
 * are there.
 */
let ts: TestServer;
let member: TestUser;
const root = path.resolve(__dirname, '../..');

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-webapp.js')]);
  ts = await startTestServer();
  member = await makeUser(ts, 400, { fullName: 'Paula Page' });
}, SERVER_HOOK_TIMEOUT);
afterAll(() => ts.close(), SERVER_HOOK_TIMEOUT);

test('a browser without a session is sent to the login page, and back here after', async () => {
  const res = await fetch(`${ts.url}/`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe('/login/?next=/');
});

test('a signed-in browser gets the app with its CSRF token and a strict policy', async () => {
  const session = await logIn(ts, member);
  const res = await fetch(`${ts.url}/`, { headers: { cookie: cookieHeader(session) }, redirect: 'manual' });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const policy = res.headers.get('content-security-policy')!;
  const directives = new Map(policy.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
  expect(directives.get('script-src')).toEqual(["'self'"]);
  expect(directives.get('default-src')).toEqual(["'none'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  const html = await res.text();
  expect(html).toContain(`<meta name="csrf-token" content="${session.csrftoken}">`);
  // No inline script: every script is a file of this server.
  expect(html).not.toMatch(/<script(?![^>]*\bsrc="\/static\/webapp\/)[^>]*>/);

  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'webapp', 'manifest.json'), 'utf8')) as { script: string };
  expect(html).toContain(`src="${manifest.script}"`);
  const bundle = await fetch(`${ts.url}${manifest.script}`);
  expect(bundle.status).toBe(200);
  expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(bundle.headers.get('content-type')).toMatch(/javascript/);
  expect((await fetch(`${ts.url}/static/webapp/no-such-file.js`)).status).toBe(404);
});

test('the loading placeholder and the default logo are served', async () => {
  for (const image of ['/static/images/loading/loader-black.svg', '/static/images/logo/zulip-org-logo.svg']) {
    const res = await fetch(`${ts.url}${image}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await res.text()).toMatch(/^<svg /);
  }
});
