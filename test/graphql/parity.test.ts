import { GraphQLObjectType } from 'graphql';
import { routes } from '../../src/rest/routes';
import { buildGraphQLSchema } from '../../src/schema';
import { REST_PARITY } from '../../src/schema/rest-parity';

/** Every REST route has its GraphQL operation over the same action, or a documented exemption. */
const schema = buildGraphQLSchema();
const routeKeys = routes.map((r) => `${r.method} ${r.path}`);

test('every REST route is listed', () => {
  expect(routeKeys.filter((key) => !(key in REST_PARITY))).toEqual([]);
});

test('every listed route still exists', () => {
  expect(Object.keys(REST_PARITY).filter((key) => !routeKeys.includes(key))).toEqual([]);
});

test('every counterpart is an operation of the schema; exemptions give a reason', () => {
  const missing: string[] = [];
  for (const [route, counterpart] of Object.entries(REST_PARITY)) {
    if (counterpart.startsWith('exempt: ')) {
      expect(counterpart.length).toBeGreaterThan('exempt: '.length + 20);
      continue;
    }
    const [root, field] = counterpart.split('.');
    const type = schema.getType(root) as GraphQLObjectType | undefined;
    if (!type || !(field in type.getFields())) missing.push(`${route} -> ${counterpart}`);
  }
  expect(missing).toEqual([]);
});
