import { expandUrlTemplate, parseUrlTemplate } from '../../src/core/linkifiers/template';
import fixtures from './uri-template-fixtures.json';

/** The fixtures are what Zulip's URL template library answers, recorded from it. */
describe('URL templates', () => {
  test('the templates it refuses are refused', () => {
    expect(fixtures.invalid.filter((t) => parseUrlTemplate(t) !== null)).toEqual([]);
  });

  test('the templates it accepts are accepted, with the same variable names', () => {
    for (const [template, names] of fixtures.valid as [string, string[]][]) {
      expect([template, parseUrlTemplate(template)?.variableNames]).toEqual([template, names]);
    }
  });

  test('expansions match byte for byte', () => {
    for (const [template, values, expected, names] of fixtures.expansions as [string, Record<string, string | null>, string, string[]][]) {
      const parsed = parseUrlTemplate(template)!;
      expect([template, values, parsed.variableNames]).toEqual([template, values, names]);
      expect([template, values, expandUrlTemplate(parsed, new Map(Object.entries(values)))]).toEqual([template, values, expected]);
    }
  });
});
