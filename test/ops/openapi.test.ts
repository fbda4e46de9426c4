import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { SERVER_HOOK_TIMEOUT, startTestServer, TestServer } from '../helpers/server';
import { routes } from '../../src/rest/routes';
import { ERROR_CODES, openApiPath } from '../../src/rest/openapi';

let ts: TestServer;
let document: any;

beforeAll(async () => {
  ts = await startTestServer();
  const res = await fetch(`${ts.url}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  document = await res.json();
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

describe('GET /api/v1/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document, served without credentials', async () => {
    expect(document.openapi).toBe('3.1.0');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-openapi-')), 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(document));
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [path.resolve(__dirname, '../../scripts/validate-openapi.js'), file]);
      expect(stdout.trim()).toBe('valid OpenAPI 3.1.0');
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
    expect(document.servers).toEqual([{ url: ts.server.deps.config.externalUrl }]);
  });

  test('describes every route of the route table with its method', () => {
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes) {
      const operation = document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      expect({ route: `${route.method} ${route.path}`, described: operation !== undefined }).toEqual({
        route: `${route.method} ${route.path}`,
        described: true,
      });
    }
    const described = Object.values(document.paths).reduce((n: number, item: any) => n + Object.keys(item).length, 0);
    expect(described).toBe(routes.length);
  });

  test('parameters carry their types, required flags, defaults and enums', () => {
    // GET /messages: query parameters, JSON-encoded ones as application/json.
    const getMessages = document.paths['/api/v1/messages'].get;
    const byName = Object.fromEntries(getMessages.parameters.map((p: any) => [p.name, p]));
    expect(byName.num_before).toMatchObject({ in: 'query', required: false, content: { 'application/json': { schema: { type: 'integer' } } } });
    expect(byName.anchor).toMatchObject({ in: 'query' });
    // A path parameter.
    const patch = document.paths['/api/v1/messages/{message_id}'].patch;
    expect(patch.parameters).toContainEqual({ name: 'message_id', in: 'path', required: true, schema: { type: 'integer' } });
    expect(patch.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    // A form body: required fields, enums and defaults.
    const send = document.paths['/api/v1/messages'].post.requestBody.content['application/x-www-form-urlencoded'];
    expect(send.schema.required).toEqual(expect.arrayContaining(['type', 'content']));
    expect(send.schema.properties.type).toMatchObject({ type: 'string', enum: expect.arrayContaining(['stream', 'private', 'direct']) });
    expect(send.schema.properties.read_by_sender).toMatchObject({ type: 'boolean' });
    expect(send.encoding.read_by_sender).toEqual({ contentType: 'application/json' });
    const drafts = document.paths['/api/v1/drafts'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(drafts.properties.drafts.default).toEqual([]);
    // Authentication: Basic everywhere except the endpoints that need none.
    expect(document.security).toEqual([{ basicAuth: [] }]);
    expect(document.paths['/api/v1/server_settings'].get.security).toEqual([]);
    expect(document.paths['/api/v1/openapi.json'].get.security).toEqual([]);
    expect(document.paths['/api/v1/users/me'].get.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
  });

  test('the envelope and every error code the server can answer with', () => {
    const { Success, Error: ErrorSchema } = document.components.schemas;
    expect(Success.properties.result).toEqual({ const: 'success' });
    expect(ErrorSchema.required).toEqual(['result', 'msg', 'code']);
    const thrown = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts')) for (const m of fs.readFileSync(file, 'utf8').matchAll(/ApiError\(\s*'([A-Z_]+)'/g)) thrown.add(m[1]);
      }
    };
    walk(path.resolve(__dirname, '../../src'));
    expect(thrown.size).toBeGreaterThan(10);
    for (const code of thrown) expect(ERROR_CODES).toContain(code);
    expect(ErrorSchema.properties.code.enum).toEqual([...ERROR_CODES]);
  });
});
