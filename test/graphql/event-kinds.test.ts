import fs from 'node:fs';
import path from 'node:path';
import { GraphQLInterfaceType, GraphQLEnumType } from 'graphql';
import { UnitOfWork } from '../../src/db/unit-of-work';
import { eventKinds } from '../../src/realtime/event-kinds';
import { buildGraphQLSchema } from '../../src/schema';
import { typeNameOf } from '../../src/schema/event-types';

/**
 * An event kind cannot reach REST queues without a GraphQL type: emitting checks the kind table
 * the GraphQL types are generated from, and every literal kind in the sources is in that table.
 */
const schema = buildGraphQLSchema();

test('every listed kind has its GraphQL type implementing Event, and an EventKind value', () => {
  const iface = schema.getType('Event') as GraphQLInterfaceType;
  const implementations = schema
    .getImplementations(iface)
    .objects.map((t) => t.name)
    .sort();
  expect(implementations).toEqual(eventKinds.map(typeNameOf).sort());
  const values = (schema.getType('EventKind') as GraphQLEnumType)
    .getValues()
    .map((v) => v.value)
    .sort();
  expect(values).toEqual([...eventKinds].sort());
});

test('emitting a kind the table does not list fails the action', () => {
  const uow = new UnitOfWork(null as never, 1);
  expect(() => uow.emit({ type: 'not_a_kind' as never }, [1])).toThrow('event kind not_a_kind is not listed in src/realtime/event-kinds.ts');
  uow.emit({ type: 'alert_words', alert_words: [] }, [1]);
  expect(uow.deliveries).toHaveLength(1);
});

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

test('every event kind written literally in the sources is listed', () => {
  const found = new Map<string, string>();
  for (const file of sources(path.join(__dirname, '../../src/core'))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/emit\(\{\s*(?:\.\.\.[^,]+,\s*)?type: '([a-z_]+)'/g)) found.set(match[1], file);
    for (const match of text.matchAll(/_EVENT = '([a-z_]+)'/g)) found.set(match[1], file);
  }
  expect(found.size).toBeGreaterThan(10);
  const unlisted = [...found].filter(([kind]) => !(eventKinds as string[]).includes(kind));
  expect(unlisted).toEqual([]);
});
