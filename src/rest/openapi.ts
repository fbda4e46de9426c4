import { PARLEY_VERSION, SERVICE_VERSION } from '../version';
import type { Endpoint, Param, ParamKind } from './endpoint';
import { REST_PREFIX, Route } from './router';

/**
 * The OpenAPI 3.1 description of /api/v1, generated from the route table: the same declarations
 * that decode requests, so it cannot drift from what the server accepts.
 */

/** Every `code` an error answer may carry (a test checks the sources throw no other). */
export const ERROR_CODES = [
  'AUTHENTICATION_FAILED',
  'BAD_EVENT_QUEUE_ID',
  'BAD_IMAGE',
  'BAD_NARROW',
  'BAD_REQUEST',
  'CANNOT_DEACTIVATE_GROUP_IN_USE',
  'CANNOT_DEACTIVATE_LAST_USER',
  'CHANNEL_ALREADY_EXISTS',
  'CSRF_FAILED',
  'EXPECTATION_MISMATCH',
  'INTERNAL_SERVER_ERROR',
  'INVALID_BOUNCER_PUBLIC_KEY',
  'INVALID_ENCRYPTED_PUSH_REGISTRATION',
  'INVALID_JSON',
  'INVALID_PUSH_DEVICE_TOKEN',
  'INVALID_REMOTE_PUSH_DEVICE_TOKEN',
  'INVALID_VIDEO_CALL_PROVIDER_TOKEN',
  'INVITATION_FAILED',
  'MISSING_HTTP_EVENT_HEADER',
  'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
  'NOT_FOUND',
  'NO_ACTIVE_PUSH_DEVICE',
  'PASSWORD_TOO_WEAK',
  'PUSH_SERVICE_NOT_CONFIGURED',
  'RATE_LIMIT_HIT',
  'REACTION_ALREADY_EXISTS',
  'REACTION_DOES_NOT_EXIST',
  'REALM_DEACTIVATED',
  'REALM_UPLOAD_QUOTA',
  'REQUEST_EXPIRED',
  'REQUEST_VARIABLE_INVALID',
  'REQUEST_VARIABLE_MISSING',
  'SERVER_NOT_READY',
  'SERVICE_UNAVAILABLE',
  'STORAGE_FULL',
  'STORAGE_UNAVAILABLE',
  'STREAM_DOES_NOT_EXIST',
  'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
  'SYSTEM_GROUP_REQUIRED',
  'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
  'UNAUTHORIZED',
  'UNAUTHORIZED_PRINCIPAL',
  'UNKNOWN_ZOOM_USER',
  'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
] as const;

type Schema = Record<string, unknown>;

/** `/messages/:message_id` → `/api/v1/messages/{message_id}`; `*path` (the rest of the path) too. */
export function openApiPath(path: string): string {
  return REST_PREFIX + path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function valueSchema(kind: ParamKind): Schema {
  switch (kind.type) {
    case 'string':
      return { type: 'string' };
    case 'enum': {
      const values = kind.values ?? [];
      return { type: values.every((value) => typeof value === 'number') ? 'integer' : 'string', enum: [...values] };
    }
    case 'int':
      return { type: 'integer' };
    case 'bool':
      return { type: 'boolean' };
    case 'intList':
      return { type: 'array', items: { type: 'integer' } };
    case 'json':
      return {};
    case 'raw':
      return { type: 'string' };
  }
}

/** Zulip encodes every parameter that is not a plain string as JSON within the form or query. */
function isJsonEncoded(param: Param<unknown>): boolean {
  if (param.source !== 'request') return false;
  const { type, values } = param.kind;
  return ['int', 'bool', 'intList', 'json'].includes(type) || (type === 'enum' && (values ?? []).every((value) => typeof value === 'number'));
}

function paramSchema(param: Param<unknown>): Schema {
  const schema = valueSchema(param.kind);
  if (param.fallback) {
    const value = param.fallback();
    if (value !== undefined) schema.default = value;
  }
  if (param.aliases.length > 0) schema.description = `Also accepted as ${param.aliases.map((alias) => `\`${alias}\``).join(', ')}.`;
  return schema;
}

function queryParameter(name: string, param: Param<unknown>): Schema {
  const schema = paramSchema(param);
  const base = { name, in: param.source === 'path' ? 'path' : 'query', required: param.source === 'path' ? true : param.required };
  return isJsonEncoded(param) ? { ...base, content: { 'application/json': { schema } } } : { ...base, schema };
}

function requestBody(params: [string, Param<unknown>][]): Schema {
  const properties: Record<string, Schema> = {};
  const encoding: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [name, param] of params) {
    properties[name] = paramSchema(param);
    if (isJsonEncoded(param)) encoding[name] = { contentType: 'application/json' };
    if (param.required) required.push(name);
  }
  const schema: Schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  const form = { schema, ...(Object.keys(encoding).length > 0 ? { encoding } : {}) };
  return { required: required.length > 0, content: { 'application/x-www-form-urlencoded': form, 'multipart/form-data': form } };
}

const hasBody = (method: string) => method === 'POST' || method === 'PATCH' || method === 'PUT';

function operation(route: Route, endpoint: Endpoint): Schema {
  const entries = Object.entries(endpoint.params);
  const inPath = entries.filter(([, param]) => param.source === 'path');
  const inRequest = entries.filter(([, param]) => param.source === 'request');
  const parameters = [...inPath, ...(hasBody(route.method) ? [] : inRequest)].map(([name, param]) => queryParameter(name, param));
  const responses: Record<string, Schema> = {
    '200': { $ref: '#/components/responses/Success' },
    '400': { $ref: '#/components/responses/BadRequest' },
  };
  if (endpoint.auth === 'required') responses['401'] = { $ref: '#/components/responses/Unauthorized' };
  if (inPath.length > 0) responses['404'] = { $ref: '#/components/responses/NotFound' };
  responses['429'] = { $ref: '#/components/responses/RateLimited' };
  responses['500'] = { $ref: '#/components/responses/InternalError' };
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[:*]/g, '').replace(/(?:^|[/_-])([a-z0-9])/g, (_, c: string) => c.toUpperCase())}`,
    ...(endpoint.auth === 'none' ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(hasBody(route.method) && inRequest.length > 0 ? { requestBody: requestBody(inRequest) } : {}),
    responses,
  };
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

export function openApiDocument(routes: readonly Route[], serverUrl: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of routes) {
    const key = openApiPath(route.path);
    (paths[key] ??= {})[route.method.toLowerCase()] = operation(route, route.endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parley REST API',
      version: PARLEY_VERSION,
      description: `The Zulip REST API as Parley (${SERVICE_VERSION}) serves it. Parameters are sent as form fields or in the query string; values that are not plain strings are JSON-encoded. Authenticate with HTTP Basic: your email and API key.`,
    },
    servers: [{ url: serverUrl }],
    security: [{ basicAuth: [] }],
    paths,
    components: {
      securitySchemes: { basicAuth: { type: 'http', scheme: 'basic', description: 'email:API key' } },
      schemas: {
        Success: {
          type: 'object',
          required: ['result', 'msg'],
          properties: { result: { const: 'success' }, msg: { type: 'string' }, ignored_parameters_unsupported: { type: 'array', items: { type: 'string' } } },
          additionalProperties: true,
        },
        Error: {
          type: 'object',
          required: ['result', 'msg', 'code'],
          properties: { result: { const: 'error' }, msg: { type: 'string' }, code: { type: 'string', enum: [...ERROR_CODES] } },
          additionalProperties: true,
        },
      },
      responses: {
        Success: {
          description: 'Success; the endpoint’s fields sit beside result and msg',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } },
        },
        BadRequest: errorResponse('A parameter is missing or invalid, or the action is not allowed'),
        Unauthorized: errorResponse('Missing or invalid credentials'),
        NotFound: errorResponse('No such object'),
        RateLimited: errorResponse('Too many requests; retry after the Retry-After header'),
        InternalError: errorResponse('An unexpected failure; the answer carries a request_id found in the server log'),
      },
    },
  };
}
