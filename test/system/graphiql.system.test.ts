import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Response } from 'playwright-core';
import { launchBrowser, watchPage } from '../helpers/browser';
import { SERVER_HOOK_TIMEOUT, startTestServer, type TestServer } from '../helpers/server';

/** GraphiQL as a browser without internet sees it: everything from Parley, introspection included. */
let t: TestServer;
beforeAll(async () => {
  // The page's bundle is made by the build; make it here too, so the test needs no prior build.
  execFileSync(process.execPath, [path.resolve(__dirname, '../../scripts/build-graphiql.js')], { stdio: 'inherit' });
  t = await startTestServer();
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await t.close();
}, SERVER_HOOK_TIMEOUT);

test('GraphiQL loads offline, introspects the schema and runs queries with Basic credentials', async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const watch = watchPage(page);
    const introspection = page.waitForResponse(
      (response: Response) => response.url() === `${t.url}/graphql` && (response.request().postData() ?? '').includes('__schema'),
    );
    const response = await page.goto(`${t.url}/graphql`);
    expect(response?.status()).toBe(200);
    expect(await page.textContent('.parley-hint')).toContain('email and API key');

    // GraphiQL's own introspection query, answered by Parley.
    const answered = await introspection;
    expect(answered.status()).toBe(200);
    const schema = (await answered.json()) as { data: { __schema: { queryType: { name: string }; types: unknown[] } } };
    expect(schema.data.__schema.queryType.name).toBe('Query');
    expect(schema.data.__schema.types.length).toBeGreaterThan(50);

    // A query typed in the editor and run with the execute button, signed in as the owner.
    await page.fill('input[aria-label="Email"]', t.owner.email);
    await page.fill('input[aria-label="API key"]', t.owner.apiKey);
    await page.click('.parley-auth button[type=submit]');
    await page.waitForSelector('.parley-status[data-signed-in="true"]');
    await page.waitForSelector('.graphiql-query-editor .CodeMirror');
    // Page code, as a string: this file is compiled without the DOM's types.
    await page.evaluate(`document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue('{ me { email fullName } }')`);
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(`(document.querySelector('.graphiql-response')?.textContent ?? '').includes('fullName')`);
    const result = await page.textContent('.graphiql-response');
    expect(result).toContain(t.owner.email);

    expect(watch.offMachine).toEqual([]);
    expect(watch.errors).toEqual([]);
  } finally {
    await browser.close();
  }
});
