/**
 * The breaking-change rules of `toolwright check --against` (docs/guide/contract-guard.md, "The
 * rules"), one case per rule, through `toolwright diff before.json after.json --json`: both manifests hold one tool per
 * case, so one run classifies them all. Run from the sources (diff loads no project).
 */
import { DiffReport, ManifestRecord, object, runCli, Schema } from './manifest-diff';

function tool(name: string, changes: Partial<ManifestRecord> = {}): ManifestRecord {
  return {
    name,
    version: 1,
    description: 'A tool',
    hints: [],
    adapters: { mcp: name },
    input: object({ id: { type: 'string' } }),
    output: object({ id: { type: 'string' } }),
    ...changes,
  };
}

interface Case {
  readonly rule: string;
  readonly before: ManifestRecord[];
  readonly after: ManifestRecord[];
  /** The findings of this case's tool: [breaking, path, message]. */
  readonly expected: Array<[boolean, string, string]>;
}

const input = (properties: Record<string, Schema>, required?: string[], extra?: Schema) => ({ input: object(properties, required, extra) });
const output = (properties: Record<string, Schema>, required?: string[]) => ({ output: object(properties, required) });
const one = (name: string, before: Partial<ManifestRecord>, after: Partial<ManifestRecord>) => ({ before: [tool(name, before)], after: [tool(name, after)] });

const CASES: Record<string, Case> = {
  tool_removed: { rule: 'tool-removed', before: [tool('tool_removed')], after: [], expected: [[true, '', 'the tool was removed']] },
  version_removed: {
    rule: 'tool-removed',
    before: [tool('version_removed'), tool('version_removed', { version: 2 })],
    after: [tool('version_removed', { version: 2 })],
    expected: [[true, '', 'version 1 was removed (versions now: 2)']],
  },
  adapter_removed: { rule: 'adapter-removed', ...one('adapter_removed', { adapters: { mcp: 'adapter_removed', openai: 'adapter_removed' } }, {}), expected: [[true, '', "no longer served by the 'openai' adapter"]] },
  adapter_renamed: { rule: 'adapter-renamed', ...one('adapter_renamed', {}, { adapters: { mcp: 'renamed' } }), expected: [[true, '', "its name in 'mcp' changed from adapter_renamed to renamed"]] },
  required_added: {
    rule: 'field-added',
    ...one('required_added', {}, input({ id: { type: 'string' }, note: { type: 'string' } })),
    expected: [[true, 'input.note', 'input field added as required']],
  },
  made_required: {
    rule: 'required',
    ...one('made_required', input({ id: { type: 'string' } }, []), {}),
    expected: [[true, 'input.id', 'now required']],
  },
  input_field_removed: {
    rule: 'field-removed',
    ...one('input_field_removed', input({ id: { type: 'string' }, note: { type: 'string' } }, ['id']), {}),
    expected: [[true, 'input.note', 'input field removed: callers still sending it are refused']],
  },
  input_type_changed: { rule: 'type-changed', ...one('input_type_changed', {}, input({ id: { type: 'number' } })), expected: [[true, 'input.id', 'type changed from string to number']] },
  input_type_narrowed: {
    rule: 'type-changed',
    ...one('input_type_narrowed', input({ id: { type: 'number' } }), input({ id: { type: 'integer' } })),
    expected: [[true, 'input.id', 'type changed from number to integer']],
  },
  input_non_nullable: {
    rule: 'nullability',
    ...one('input_non_nullable', input({ id: { type: ['string', 'null'] } }), {}),
    expected: [[true, 'input.id', 'no longer accepts null']],
  },
  minimum_raised: { rule: 'bounds', ...one('minimum_raised', input({ id: { type: 'number', minimum: 1 } }), input({ id: { type: 'number', minimum: 2 } })), expected: [[true, 'input.id', 'minimum raised from 1 to 2']] },
  maximum_lowered: { rule: 'bounds', ...one('maximum_lowered', input({ id: { type: 'number', maximum: 9 } }), input({ id: { type: 'number', maximum: 5 } })), expected: [[true, 'input.id', 'maximum lowered from 9 to 5']] },
  min_length_added: { rule: 'bounds', ...one('min_length_added', {}, input({ id: { type: 'string', minLength: 3 } })), expected: [[true, 'input.id', 'minLength 3 added']] },
  max_length_lowered: { rule: 'bounds', ...one('max_length_lowered', input({ id: { type: 'string', maxLength: 9 } }), input({ id: { type: 'string', maxLength: 5 } })), expected: [[true, 'input.id', 'maxLength lowered from 9 to 5']] },
  pattern_changed: { rule: 'bounds', ...one('pattern_changed', input({ id: { type: 'string', pattern: '^a' } }), input({ id: { type: 'string', pattern: '^b' } })), expected: [[true, 'input.id', 'pattern changed from "^a" to "^b"']] },
  format_added: { rule: 'bounds', ...one('format_added', {}, input({ id: { type: 'string', format: 'uuid' } })), expected: [[true, 'input.id', 'format "uuid" added']] },
  items_bounds: {
    rule: 'bounds',
    ...one('items_bounds', input({ tags: { type: 'array', items: { type: 'string' }, maxItems: 9 } }), input({ tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 } })),
    expected: [
      [true, 'input.tags', 'minItems 1 added'],
      [true, 'input.tags', 'maxItems lowered from 9 to 5'],
    ],
  },
  multiple_of: { rule: 'bounds', ...one('multiple_of', input({ id: { type: 'number', multipleOf: 2 } }), input({ id: { type: 'number', multipleOf: 3 } })), expected: [[true, 'input.id', 'multipleOf changed from 2 to 3']] },
  enum_value_removed: {
    rule: 'enum',
    ...one('enum_value_removed', input({ id: { type: 'string', enum: ['a', 'b'] } }), input({ id: { type: 'string', enum: ['a'] } })),
    expected: [[true, 'input.id', 'value "b" removed']],
  },
  nested_ref: {
    rule: 'field-added',
    ...one(
      'nested_ref',
      input({ address: { $ref: '#/$defs/Address' } }, ['address'], { $defs: { Address: object({ city: { type: 'string' } }) } }),
      input({ address: { $ref: '#/$defs/Address' } }, ['address'], { $defs: { Address: object({ city: { type: 'string' }, zip: { type: 'string' } }) } }),
    ),
    expected: [[true, 'input.address.zip', 'input field added as required']],
  },
  array_items: {
    rule: 'bounds',
    ...one('array_items', input({ tags: { type: 'array', items: { type: 'string', maxLength: 9 } } }), input({ tags: { type: 'array', items: { type: 'string', maxLength: 5 } } })),
    expected: [[true, 'input.tags[]', 'maxLength lowered from 9 to 5']],
  },
  union_member_removed: {
    rule: 'union',
    ...one('union_member_removed', input({ id: { anyOf: [{ type: 'string' }, { type: 'number' }] } }), input({ id: { anyOf: [{ type: 'string' }, { type: 'boolean' }] } })),
    expected: [
      [true, 'input.id', 'union member number removed'],
      [false, 'input.id', 'union member boolean added'],
    ],
  },
  output_field_removed: { rule: 'field-removed', ...one('output_field_removed', output({ id: { type: 'string' }, at: { type: 'string' } }), {}), expected: [[true, 'output.at', 'output field removed']] },
  output_made_optional: { rule: 'required', ...one('output_made_optional', {}, output({ id: { type: 'string' } }, [])), expected: [[true, 'output.id', 'now optional: it may be missing']] },
  output_made_nullable: {
    rule: 'nullability',
    ...one('output_made_nullable', {}, output({ id: { anyOf: [{ type: 'string' }, { type: 'null' }] } })),
    expected: [[true, 'output.id', 'may now be null']],
  },
  output_type_changed: { rule: 'type-changed', ...one('output_type_changed', {}, output({ id: { type: 'number' } })), expected: [[true, 'output.id', 'type changed from string to number']] },
  output_type_widened: {
    rule: 'type-changed',
    ...one('output_type_widened', output({ n: { type: 'integer' } }), output({ n: { type: 'number' } })),
    expected: [[true, 'output.n', 'type changed from integer to number']],
  },
  output_enum_value_added: {
    rule: 'enum',
    ...one('output_enum_value_added', output({ id: { type: 'string', enum: ['a'] } }), output({ id: { type: 'string', enum: ['a', 'b'] } })),
    expected: [[true, 'output.id', 'value "b" added']],
  },
  output_removed: { rule: 'output-removed', ...one('output_removed', {}, { output: null }), expected: [[true, 'output', 'the tool no longer exposes an output']] },
  // Compatible changes: listed, never failing.
  optional_field_added: {
    rule: 'field-added',
    ...one('optional_field_added', {}, input({ id: { type: 'string' }, note: { type: 'string' } }, ['id'])),
    expected: [[false, 'input.note', 'optional input field added']],
  },
  made_optional: { rule: 'required', ...one('made_optional', {}, input({ id: { type: 'string' } }, [])), expected: [[false, 'input.id', 'now optional']] },
  input_made_nullable: { rule: 'nullability', ...one('input_made_nullable', {}, input({ id: { type: ['string', 'null'] } })), expected: [[false, 'input.id', 'may now be null']] },
  output_field_added: { rule: 'field-added', ...one('output_field_added', {}, output({ id: { type: 'string' }, at: { type: 'string' } })), expected: [[false, 'output.at', 'output field added']] },
  bounds_loosened: {
    rule: 'bounds',
    ...one('bounds_loosened', input({ id: { type: 'string', minLength: 2, maxLength: 5, pattern: '^a' } }), input({ id: { type: 'string', minLength: 1 } })),
    expected: [
      [false, 'input.id', 'minLength lowered from 2 to 1'],
      [false, 'input.id', 'maxLength 5 removed'],
      [false, 'input.id', 'pattern "^a" removed'],
    ],
  },
  input_enum_value_added: {
    rule: 'enum',
    ...one('input_enum_value_added', input({ id: { type: 'string', enum: ['a'] } }), input({ id: { type: 'string', enum: ['a', 'b'] } })),
    expected: [[false, 'input.id', 'value "b" added']],
  },
  raw_keyword_added: {
    rule: 'keywords',
    ...one('raw_keyword_added', {}, input({ id: { type: 'string' } }, undefined, { allOf: [{ required: ['id'] }] })),
    expected: [[true, 'input', 'allOf added']],
  },
  raw_keyword_changed: {
    rule: 'keywords',
    ...one(
      'raw_keyword_changed',
      input({ id: { type: 'string' } }, undefined, { if: { required: ['id'] }, then: { required: ['id'] } }),
      input({ id: { type: 'string' } }, undefined, { if: { required: ['id'] }, then: { required: [] } }),
    ),
    expected: [[true, 'input', 'then changed']],
  },
  raw_keyword_removed: {
    rule: 'keywords',
    ...one('raw_keyword_removed', input({ id: { type: 'string' } }, undefined, { dependentRequired: { id: ['id'] } }), {}),
    expected: [[false, 'input', 'dependentRequired removed']],
  },
  descriptions: {
    rule: 'description',
    ...one('descriptions', {}, { description: 'Another text', input: object({ id: { type: 'string', description: 'The id' } }) }),
    expected: [
      [false, '', 'description changed'],
      [false, 'input.id', 'description changed'],
    ],
  },
  default_changed: {
    rule: 'default',
    ...one('default_changed', input({ id: { type: 'string', default: 'a' } }, []), input({ id: { type: 'string', default: 'b' } }, [])),
    expected: [[false, 'input.id', 'default changed from "a" to "b"']],
  },
  hints_changed: { rule: 'hints', ...one('hints_changed', {}, { hints: ['readOnly'] }), expected: [[false, '', 'hints changed from [] to ["readOnly"]']] },
  adapter_added: { rule: 'adapter-added', ...one('adapter_added', {}, { adapters: { mcp: 'adapter_added', openai: 'adapter_added' } }), expected: [[false, '', "now also served by the 'openai' adapter"]] },
  output_added: { rule: 'output-added', ...one('output_added', { output: null }, {}), expected: [[false, 'output', 'the tool now exposes an output']] },
  tool_added: { rule: 'tool-added', before: [], after: [tool('tool_added')], expected: [[false, '', 'new tool']] },
  version_added: { rule: 'tool-added', before: [tool('version_added')], after: [tool('version_added'), tool('version_added', { version: 2 })], expected: [[false, '', 'new version 2']] },
  shared_def: {
    rule: 'field-added',
    ...one(
      'shared_def',
      input({ billing: { $ref: '#/$defs/Address' }, shipping: { $ref: '#/$defs/Address' } }, undefined, { $defs: { Address: object({ city: { type: 'string' } }) } }),
      input({ billing: { $ref: '#/$defs/Address' }, shipping: { $ref: '#/$defs/Address' } }, undefined, {
        $defs: { Address: object({ city: { type: 'string' }, zip: { type: 'string' } }) },
      }),
    ),
    expected: [
      [true, 'input.billing.zip', 'input field added as required'],
      [true, 'input.shipping.zip', 'input field added as required'],
    ],
  },
  recursive_ref: {
    rule: 'bounds',
    ...one(
      'recursive_ref',
      input({ tag: { $ref: '#/$defs/Tag' } }, ['tag'], { $defs: { Tag: object({ label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Tag' } } }, ['label']) } }),
      input({ tag: { $ref: '#/$defs/Tag' } }, ['tag'], { $defs: { Tag: object({ label: { type: 'string', maxLength: 9 }, children: { type: 'array', items: { $ref: '#/$defs/Tag' } } }, ['label']) } }),
    ),
    expected: [[true, 'input.tag.label', 'maxLength 9 added']],
  },
};

async function diff(before: ManifestRecord[], after: ManifestRecord[]): Promise<{ code: number; out: DiffReport }> {
  const manifest = (tools: ManifestRecord[]) => ({ toolwrightManifest: 1, tools });
  const { code, stdout, stderr } = await runCli(['diff', 'before.json', 'after.json', '--json'], { 'before.json': manifest(before), 'after.json': manifest(after) });
  if (stderr) throw new Error(stderr);
  return { code, out: JSON.parse(stdout) };
}

describe('breaking-change rules (toolwright diff / check --against)', () => {
  let result: { code: number; out: DiffReport };

  beforeAll(async () => {
    const entries = Object.values(CASES);
    result = await diff(
      entries.flatMap((entry) => entry.before),
      entries.flatMap((entry) => entry.after),
    );
  }, 60_000);

  it.each(Object.entries(CASES))('%s', (name, entry) => {
    const found = result.out.changes.filter((finding) => finding.tool === name);
    expect(found.map((finding) => [finding.breaking, finding.path, finding.message])).toEqual(entry.expected);
    expect(new Set(found.map((finding) => finding.rule))).toEqual(new Set([entry.rule]));
  });

  it('exits 1 when any change is breaking, and reports nothing for a tool that did not change', () => {
    expect(result.code).toBe(1);
    expect(result.out.ok).toBe(false);
    const names = new Set(result.out.changes.map((finding) => finding.tool));
    expect([...names].sort()).toEqual(Object.keys(CASES).sort());
  });

  it('exits 0 when every change is compatible', async () => {
    const compatible = Object.values(CASES).filter((entry) => entry.expected.every(([breaking]) => !breaking));
    const { code, out } = await diff(
      compatible.flatMap((entry) => entry.before),
      compatible.flatMap((entry) => entry.after),
    );
    expect(code).toBe(0);
    expect(out.ok).toBe(true);
    expect(out.changes.length).toBeGreaterThan(10);
  }, 60_000);
});
