import {
  buildSchema,
  getNamedType,
  GraphQLArgument,
  GraphQLInputType,
  GraphQLObjectType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { schemaSdl } from '../../src/schema';
import { Rng } from './fuzz-values';

/**
 * GraphQL requests generated from the schema the server builds: every query and mutation field,
 * called with arguments of the wrong type, out of range or hostile (inline or as variables), plus
 * bodies that are not GraphQL at all.
 */
export interface GraphQLBody {
  /** The raw request body (JSON, usually). */
  body: string;
  label: string;
}

const TEXTS = ['', 'x', 'a\u0000b', '😀', '"quoted"', 'a'.repeat(20_000), '{"operator":"is"}', 'newest', '99999999999'];
const INTS = [1, 2, 0, -1, 2147483647, 2147483648, 99999999999, 1.5];

function randomValue(rng: Rng, type: GraphQLInputType, depth = 0): unknown {
  if (isNonNullType(type)) return rng.chance(0.05) ? null : randomValue(rng, type.ofType, depth);
  if (rng.chance(0.05)) return null;
  if (isListType(type)) return Array.from({ length: rng.int(depth > 2 ? 1 : 4) }, () => randomValue(rng, type.ofType, depth + 1));
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) if (rng.chance(0.7) && depth < 4) out[field.name] = randomValue(rng, field.type, depth + 1);
    if (rng.chance(0.1)) out.unknownField = 1;
    return out;
  }
  if (isEnumType(type)) return rng.chance(0.8) ? rng.pick(type.getValues()).name : 'NOT_A_VALUE';
  if (isScalarType(type)) {
    // Often the right kind, sometimes another.
    const kind = rng.chance(0.8) ? type.name : rng.pick(['Int', 'String', 'Boolean', 'Float']);
    if (kind === 'Int' || kind === 'Float') return rng.pick(INTS);
    if (kind === 'Boolean') return rng.chance(0.5);
    if (kind === 'JSON' || kind === 'JSONObject') return rng.pick([{}, [], { a: [1, { b: 'a\u0000' }] }, 'x', 5]);
    return rng.pick(TEXTS);
  }
  return null;
}

/** A value written inline in the document (input objects as `{a: 1}`, enums bare). */
function literal(value: unknown, type: GraphQLInputType): string {
  if (isNonNullType(type)) return literal(value, type.ofType);
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, isListType(type) ? type.ofType : type)).join(', ')}]`;
  const named = getNamedType(type);
  if (isEnumType(named) && typeof value === 'string') return /^[_A-Za-z][_0-9A-Za-z]*$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'object') {
    const fields = isInputObjectType(named) ? named.getFields() : {};
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${literal(v, fields[k]?.type ?? named)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

const MALFORMED: GraphQLBody[] = [
  { body: 'not json', label: 'not JSON' },
  { body: '[]', label: 'empty batch' },
  { body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]), label: 'batch' },
  { body: JSON.stringify({ query: 5 }), label: 'query not a string' },
  { body: JSON.stringify({ query: '{' }), label: 'syntax error' },
  { body: JSON.stringify({ query: '{ __typename }', variables: 'x' }), label: 'variables not an object' },
  { body: JSON.stringify({ query: '{ __typename }', operationName: 7 }), label: 'operationName not a string' },
  { body: JSON.stringify({ query: `{ ${'a: __typename '.repeat(5000)} }` }), label: 'many aliases' },
  { body: JSON.stringify({ query: `query ${'{ __typename '.repeat(2000)}${'}'.repeat(2000)}` }), label: 'deep selection' },
  { body: JSON.stringify({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } } }), label: 'persisted query' },
  { body: JSON.stringify({ query: 'subscription { events { id } }' }), label: 'subscription over HTTP' },
  { body: JSON.stringify({ query: '{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }' }), label: 'introspection' },
];

export class GraphQLGenerator {
  private readonly fields: { operation: 'query' | 'mutation'; name: string; args: readonly GraphQLArgument[]; leaf: boolean }[] = [];

  constructor(private readonly rng: Rng) {
    const schema = buildSchema(schemaSdl());
    for (const [operation, root] of [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
    ] as const) {
      for (const field of Object.values((root as GraphQLObjectType | null)?.getFields() ?? {})) {
        // Deactivating the organization would leave every later operation refused, testing nothing.
        if (field.name === 'deactivateRealm') continue;
        this.fields.push({ operation, name: field.name, args: field.args, leaf: isLeafType(getNamedType(field.type)) });
      }
    }
  }

  /** How many requests cover every field once. */
  get fieldCount(): number {
    return this.fields.length + MALFORMED.length;
  }

  next(i: number): GraphQLBody {
    if (i % this.fieldCount >= this.fields.length) return MALFORMED[(i % this.fieldCount) - this.fields.length];
    const field = this.fields[i % this.fieldCount];
    const rng = this.rng;
    const asVariables = rng.chance(0.5);
    const declarations: string[] = [];
    const variables: Record<string, unknown> = {};
    const args: string[] = [];
    for (const arg of field.args) {
      if (!isNonNullType(arg.type) && rng.chance(0.4)) continue;
      const value = randomValue(rng, arg.type);
      if (asVariables) {
        declarations.push(`$${arg.name}: ${String(arg.type)}`);
        variables[arg.name] = value;
        args.push(`${arg.name}: $${arg.name}`);
      } else {
        args.push(`${arg.name}: ${literal(value, arg.type)}`);
      }
    }
    const call = `${field.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${field.leaf ? '' : ' { __typename }'}`;
    const query = `${field.operation}${declarations.length > 0 ? `(${declarations.join(', ')})` : ''} { ${call} }`;
    return { body: JSON.stringify({ query, variables }), label: `${field.operation} ${field.name}` };
  }
}
