/**
 * The dialect law, per provider: every value the provider's schema lets a model send, the runtime
 * accepts. `lawTools()` makes one tool per contract of the corpus (test/fixtures/contracts/corpus.ts);
 * `refusedValues` sends values generated from a dialect's schema (test/helpers/schema-values.ts)
 * through a Toolbox and answers those the runtime refused as invalid input, with why.
 */
import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Expects, Tool } from 'toolwright';
import type { Toolbox } from 'toolwright/toolbox';
import * as corpus from '../fixtures/contracts/corpus';
import { sampleAllowed, type Schema } from './schema-values';

export type { Schema };

export interface LawTool {
  /** The function name (`law_<contract>`). */
  readonly name: string;
  readonly contract: Function;
  readonly tool: Function;
}

/** Contracts of the corpus that are no tool input: output-only ones and enums. */
const NOT_INPUT = new Set(['Receipt', 'Colour', 'Priority']);

let made: LawTool[] | undefined;

/** One tool per input contract of the corpus, made once per test file. */
export function lawTools(): LawTool[] {
  made ??= Object.entries(corpus)
    .filter(([name, value]) => typeof value === 'function' && !NOT_INPUT.has(name))
    .map(([name, contract]) => {
      const tool = { [`Law${name}`]: class { call(): { ok: true } { return { ok: true }; } } }[`Law${name}`];
      Expects(contract as new () => object)(tool);
      Tool({ description: `Takes a ${name}`, adapters: { openai: { name: `law_${name.toLowerCase()}` } } })(tool);
      return { name: `law_${name.toLowerCase()}`, contract: contract as Function, tool };
    });
  return made;
}

/** The ambient values the corpus's WithAmbient contract reads (the toolbox supplies them, never the model). */
export const LAW_AMBIENT = { userId: 'u-1', tenant: 't-1' };

/**
 * A value as the full contract reads it: a `null` the dialect sent for a field the contract leaves
 * optional and not nullable is absent (OpenAI strict mode sends every field, `null` for the ones
 * left out). Walks the plain input schema beside the value.
 */
function asAbsent(value: unknown, schema: Schema, root: Schema): unknown {
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref === '#' ? root : ((root.$defs ?? root.definitions ?? {}) as Record<string, Schema>)[decodeURIComponent(schema.$ref.split('/').pop()!)];
    return target ? asAbsent(value, target, root) : value;
  }
  if (Array.isArray(value)) return schema.items ? value.map((item) => asAbsent(item, schema.items as Schema, root)) : value;
  if (value === null || typeof value !== 'object' || !schema.properties) return value;
  const properties = schema.properties as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === null && !required.has(key) && properties[key] && !allowsNullValue(properties[key])) continue;
    out[key] = properties[key] ? asAbsent(field, properties[key], root) : field;
  }
  return out;
}

function allowsNullValue(schema: Schema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('null') || ((schema.anyOf ?? schema.oneOf ?? []) as Schema[]).some(allowsNullValue);
}

/** One ajv for every full contract (a new one per tool costs more than the values it checks). */
const fullAjv = addFormats(new Ajv2020({ strict: false }));

/** The options of `refusedValues`. */
export interface LawOptions {
  /** How many values to send (default 60). */
  readonly count?: number;
  readonly seed?: number;
  /**
   * The tool's full input schema (`describeFunction(tool).parameters`) when the dialect's schema
   * drops keywords the runtime still checks (the guide lists each): only values the full contract
   * also allows are sent, a `null` for an optional field read as absent.
   */
  readonly full?: Schema;
}

/**
 * Sends values `schema` (the dialect's) allows, as arguments of `name`, through `toolbox`; answers
 * each the runtime refused (the law holds when it is empty) and how many values were sent.
 */
export async function refusedValues(toolbox: Toolbox, name: string, schema: Schema, options: LawOptions = {}): Promise<{ refused: string[]; sent: number }> {
  const { count = 60, seed = 7, full } = options;
  let values = sampleAllowed(schema, count, seed);
  if (full) {
    const validate = fullAjv.compile(full);
    values = values.filter((value) => validate(asAbsent(value, full, full)));
  }
  const records = await toolbox.invokeAll(values.map((value, i) => ({ id: `law-${i}`, name, arguments: value })));
  const refused = records.filter((record) => record.status !== 'completed').map((record) => `${name} ${JSON.stringify(record.arguments)}: ${record.output}`);
  return { refused, sent: values.length };
}
