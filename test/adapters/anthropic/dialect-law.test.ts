/**
 * The Anthropic dialect: every value a tool's `input_schema` lets the model send, `invoke()` accepts,
 * plain and under strict tool use, over every input contract of the corpus. The strict projection
 * is checked against the provider's own rules: it is a fixed point of `@anthropic-ai/sdk`'s
 * `transformJSONSchema` (the SDK's projection for strict tools: nothing it would drop or move into
 * the description is left), and against the documented limits (closed objects, no recursion, only
 * the formats and `minItems` strict tool use takes). The tool list and the tool results type-check as
 * the SDK's types, GA and beta.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { Toolbox } from 'toolwright/toolbox';
import { toAnthropicTools, toToolResults } from 'toolwright/anthropic';
import { LAW_AMBIENT, lawTools, refusedValues } from '../../helpers/dialect-law';
import type { Schema } from '../../helpers/schema-values';

const tools = lawTools();
const toolbox = new Toolbox(tools.map((tool) => tool.tool), { ambientContext: LAW_AMBIENT });

/** The strict tool of a contract, or the error that refuses it. */
function strictTool(name: string): Anthropic.Tool | Error {
  try {
    return toAnthropicTools(toolbox, { only: [name], strict: true })[0];
  } catch (error) {
    return error as Error;
  }
}

/** Keywords Anthropic's strict tool use takes (its structured-outputs JSON Schema limits). */
const STRICT_KEYWORDS = new Set(['type', 'description', 'title', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'enum', 'const', 'anyOf', 'allOf', '$ref', '$defs', 'format']);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

/** Breaks of the documented rules, by path (empty when the schema keeps them). */
function ruleBreaks(schema: Schema, path = '#'): string[] {
  const breaks: string[] = [];
  for (const [key, value] of Object.entries(schema)) if (!STRICT_KEYWORDS.has(key)) breaks.push(`${path}: ${key}`);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object') && schema.additionalProperties !== false) breaks.push(`${path}: an open object`);
  if (schema.format !== undefined && !STRICT_FORMATS.has(schema.format as string)) breaks.push(`${path}: format ${schema.format}`);
  if (schema.minItems !== undefined && schema.minItems !== 0 && schema.minItems !== 1) breaks.push(`${path}: minItems ${schema.minItems}`);
  if (Array.isArray(schema.enum) && schema.enum.some((value) => value !== null && typeof value === 'object')) breaks.push(`${path}: an enum of objects`);
  const children: Array<[string, unknown]> = [
    ...Object.entries((schema.properties ?? {}) as Record<string, unknown>).map(([key, value]): [string, unknown] => [`${path}/properties/${key}`, value]),
    ...Object.entries((schema.$defs ?? {}) as Record<string, unknown>).map(([key, value]): [string, unknown] => [`${path}/$defs/${key}`, value]),
    ...((schema.anyOf ?? []) as unknown[]).map((value, i): [string, unknown] => [`${path}/anyOf/${i}`, value]),
    ...((schema.allOf ?? []) as unknown[]).map((value, i): [string, unknown] => [`${path}/allOf/${i}`, value]),
    [`${path}/items`, schema.items],
  ];
  for (const [where, child] of children) if (child && typeof child === 'object') breaks.push(...ruleBreaks(child as Schema, where));
  return breaks;
}

describe('the Anthropic dialect', () => {
  it('the tool lists type-check as the SDK types (plain, strict, and with tool search)', () => {
    const plain: Anthropic.Tool[] = toAnthropicTools(toolbox, { only: ['law_scalars'] });
    const strict: Anthropic.Tool[] = toAnthropicTools(toolbox, { only: ['law_scalars'], strict: true });
    const searched: Anthropic.ToolUnion[] = toAnthropicTools(toolbox, { only: ['law_scalars', 'law_nested'], toolSearch: 'bm25', core: ['law_scalars'] });
    expect(plain[0]).toMatchObject({ name: 'law_scalars', description: 'Takes a Scalars' });
    expect(plain[0]).not.toHaveProperty('strict');
    expect(strict[0]).toMatchObject({ name: 'law_scalars', strict: true });
    expect(searched).toEqual([
      expect.not.objectContaining({ defer_loading: true }),
      expect.objectContaining({ name: 'law_nested', defer_loading: true }),
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
    ]);
    // The beta API's types take the same lists, and the results as its tool_result blocks.
    const beta: Anthropic.Beta.BetaToolUnion[] = toAnthropicTools(toolbox, { strict: true, only: ['law_scalars'], toolSearch: 'regex' });
    const results: Anthropic.Beta.BetaToolResultBlockParam[] = toToolResults([]);
    const gaResults: Anthropic.ToolResultBlockParam[] = toToolResults([]);
    expect([beta.length, results.length, gaResults.length]).toEqual([2, 0, 0]);
    expect(toAnthropicTools(toolbox, { only: ['law_scalars'], toolSearch: 'regex' }).at(-1)).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
  });

  it('strict tool use refuses, naming the field, the contracts it cannot express: recursive ones and free-form objects', () => {
    const refused = tools.map((tool) => [tool.name, strictTool(tool.name)] as const).filter(([, made]) => made instanceof Error);
    expect(refused.map(([name, error]) => `${name}: ${(error as Error).message}`).sort()).toEqual([
      expect.stringMatching(/^law_company: toAnthropicTools: law_company's input \$defs\/\w+ is recursive \(.+\), which Anthropic's strict tool use cannot express\. .*strict: false/),
      expect.stringMatching(/^law_employee: toAnthropicTools: law_employee's input \(root\) is recursive \(# → Team → #\)/),
      expect.stringMatching(/^law_floors: toAnthropicTools: law_floors's input attributes is a free-form object/),
      expect.stringMatching(/^law_forest: toAnthropicTools: law_forest's input \$defs\/TreeNode is recursive \(# → TreeNode → TreeNode\)/),
      expect.stringMatching(/^law_team: toAnthropicTools: law_team's input \(root\) is recursive/),
      expect.stringMatching(/^law_treenode: toAnthropicTools: law_treenode's input \(root\) is recursive \(# → #\)/),
    ]);
  });

  const strictTools = tools.filter((tool) => !(strictTool(tool.name) instanceof Error));

  it.each(strictTools.map((tool) => tool.name))('%s: the strict schema keeps the documented rules and is a fixed point of the SDK’s transformJSONSchema', (name) => {
    const schema = (strictTool(name) as Anthropic.Tool).input_schema as Schema;
    expect(ruleBreaks(schema)).toEqual([]);
    expect(transformJSONSchema(schema)).toEqual(schema);
  });

  it.each([false, true])('strict %s: every value the input_schema allows, invoke() accepts', async (strict) => {
    const listed = strict ? strictTools : tools;
    expect(listed.length).toBeGreaterThan(strict ? 15 : 20);
    const refused: string[] = [];
    let sent = 0;
    for (const { name } of listed) {
      const [tool] = toAnthropicTools(toolbox, { only: [name], strict });
      const full = strict ? (toolbox.functions({ only: [name], strict: false })[0].parameters as Schema) : undefined;
      const run = await refusedValues(toolbox, name, tool.input_schema as Schema, { full });
      refused.push(...run.refused);
      sent += run.sent;
    }
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThan(listed.length * 20); // most generated values are sent: the law is not vacuous
  });
});
