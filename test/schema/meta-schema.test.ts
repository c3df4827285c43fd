/**
 * Every schema the corpus and the example application produce, in every dialect and projection,
 * validates against its dialect's meta-schema and compiles under ajv's strict mode.
 */
import 'reflect-metadata';
import { schemaOf, ToolRegistry } from 'toolwright';
import * as corpus from '../fixtures/contracts/corpus';
import { checked } from '../helpers/schema';
import '../../examples/loan-desk/tools';

const dtos = (Object.values(corpus) as unknown[]).filter((value): value is Function => typeof value === 'function' && !!value.prototype);
const dialects = ['2020-12', 'draft-07'] as const;

describe('meta-schema validity', () => {
  it.each(dialects)('every corpus schema is valid %s, in both directions', (dialect) => {
    let count = 0;
    for (const dto of dtos) {
      for (const direction of ['input', 'output'] as const) {
        checked(schemaOf(dto, { dialect, direction }), dialect);
        count++;
        if (dto !== corpus.Floors) {
          checked(schemaOf(dto, { dialect, direction, strict: true }), dialect);
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(80);
  });

  it.each(dialects)('every example tool schema is valid %s', (dialect) => {
    const registry = new ToolRegistry().registerAdapter('mcp');
    const tools = registry.forAdapter('mcp', { allVersions: true });
    expect(tools.length).toBe(6);
    for (const tool of tools) {
      checked(tool.inputSchema({ dialect }), dialect);
      checked(tool.inputSchema({ dialect, strict: true }), dialect);
      checked(tool.outputSchema({ dialect }), dialect);
    }
  });
});
