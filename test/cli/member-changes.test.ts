/**
 * `toolwright check --against` / `diff` guard the members beside tools like tools: a prompt's
 * arguments and a template's variables are contracts, a resource's URI is where clients find it.
 * One case per rule, through `toolwright diff before.json after.json --json` run from the sources
 * (diff loads no project), every case in one run.
 */
import { DiffReport, Finding, ManifestRecord as Member, object, runCli as run } from './manifest-diff';

type Section = 'tools' | 'resources' | 'resourceTemplates' | 'prompts' | 'completions';
type Manifest = { toolwrightManifest: 1 } & Partial<Record<Section, Member[]>>;

const NONE = { type: 'object', properties: {}, additionalProperties: false };

const prompt = (name: string, changes: Partial<Member> = {}): Member => ({
  name,
  version: 1,
  description: 'Review a loan',
  hints: [],
  tags: [],
  adapters: { mcp: name },
  input: object({ applicant: { type: 'string' }, tone: { type: 'string' } }, ['applicant']),
  output: null,
  ...changes,
});
const template = (name: string, changes: Partial<Member> = {}): Member =>
  prompt(name, { uriTemplate: `loans://${name}/{id}`, mimeType: 'application/json', input: object({ id: { type: 'integer' } }), ...changes });
const resource = (name: string, changes: Partial<Member> = {}): Member =>
  prompt(name, { uri: `loans://${name}`, mimeType: 'text/markdown', input: NONE, ...changes });
const completion = (name: string, changes: Partial<Member> = {}): Member =>
  prompt(name, { input: object({ argument: { type: 'string' }, value: { type: 'string' } }), completes: { kind: 'prompt', name: 'review', argument: 'applicant' }, ...changes });

interface Case {
  readonly section: Section;
  readonly before: Member[];
  readonly after: Member[];
  /** [kind, breaking, rule, path, message] of this case's findings. */
  readonly expected: Array<[string, boolean, string, string, string]>;
}

const CASES: Record<string, Case> = {
  prompt_argument_removed: {
    section: 'prompts',
    before: [prompt('prompt_argument_removed')],
    after: [prompt('prompt_argument_removed', { input: object({ applicant: { type: 'string' } }) })],
    expected: [['prompt', true, 'field-removed', 'arguments.tone', 'input field removed: callers still sending it are refused']],
  },
  prompt_argument_made_required: {
    section: 'prompts',
    before: [prompt('prompt_argument_made_required')],
    after: [prompt('prompt_argument_made_required', { input: object({ applicant: { type: 'string' }, tone: { type: 'string' } }) })],
    expected: [['prompt', true, 'required', 'arguments.tone', 'now required']],
  },
  prompt_required_argument_added: {
    section: 'prompts',
    before: [prompt('prompt_required_argument_added')],
    after: [
      prompt('prompt_required_argument_added', {
        input: object({ applicant: { type: 'string' }, tone: { type: 'string' }, amount: { type: 'integer' } }, ['applicant', 'amount']),
      }),
    ],
    expected: [['prompt', true, 'field-added', 'arguments.amount', 'input field added as required']],
  },
  prompt_argument_type_changed: {
    section: 'prompts',
    before: [prompt('prompt_argument_type_changed')],
    after: [prompt('prompt_argument_type_changed', { input: object({ applicant: { type: 'integer' }, tone: { type: 'string' } }, ['applicant']) })],
    expected: [['prompt', true, 'type-changed', 'arguments.applicant', 'type changed from string to integer']],
  },
  prompt_removed: {
    section: 'prompts',
    before: [prompt('prompt_removed')],
    after: [],
    expected: [['prompt', true, 'member-removed', '', 'the prompt was removed']],
  },
  template_changed: {
    section: 'resourceTemplates',
    before: [template('template_changed')],
    after: [template('template_changed', { uriTemplate: 'loans://template_changed/{loanId}', input: object({ loanId: { type: 'integer' } }) })],
    expected: [
      ['resource-template', true, 'uri-changed', '', 'its URI template changed from loans://template_changed/{id} to loans://template_changed/{loanId}'],
      ['resource-template', true, 'field-removed', 'variables.id', 'input field removed: callers still sending it are refused'],
      ['resource-template', true, 'field-added', 'variables.loanId', 'input field added as required'],
    ],
  },
  template_variable_narrowed: {
    section: 'resourceTemplates',
    before: [template('template_variable_narrowed', { input: object({ id: { type: 'string' } }) })],
    after: [template('template_variable_narrowed', { input: object({ id: { type: 'string', format: 'uuid' } }) })],
    expected: [['resource-template', true, 'bounds', 'variables.id', 'format "uuid" added']],
  },
  template_removed: {
    section: 'resourceTemplates',
    before: [template('template_removed'), template('template_removed', { version: 2 })],
    after: [template('template_removed', { version: 2 })],
    expected: [['resource-template', true, 'member-removed', '', 'version 1 was removed (versions now: 2)']],
  },
  resource_uri_changed: {
    section: 'resources',
    before: [resource('resource_uri_changed')],
    after: [resource('resource_uri_changed', { uri: 'loans://elsewhere' })],
    expected: [['resource', true, 'uri-changed', '', 'its URI changed from loans://resource_uri_changed to loans://elsewhere']],
  },
  resource_removed: {
    section: 'resources',
    before: [resource('resource_removed')],
    after: [],
    expected: [['resource', true, 'member-removed', '', 'the resource was removed']],
  },
  // Compatible: listed, never failing.
  prompt_optional_argument_added: {
    section: 'prompts',
    before: [prompt('prompt_optional_argument_added')],
    after: [
      prompt('prompt_optional_argument_added', { input: object({ applicant: { type: 'string' }, tone: { type: 'string' }, urgent: { type: 'boolean' } }, ['applicant']) }),
    ],
    expected: [['prompt', false, 'field-added', 'arguments.urgent', 'optional input field added']],
  },
  prompt_argument_made_optional: {
    section: 'prompts',
    before: [prompt('prompt_argument_made_optional')],
    after: [prompt('prompt_argument_made_optional', { input: object({ applicant: { type: 'string' }, tone: { type: 'string' } }, []) })],
    expected: [['prompt', false, 'required', 'arguments.applicant', 'now optional']],
  },
  prompt_added: { section: 'prompts', before: [], after: [prompt('prompt_added')], expected: [['prompt', false, 'member-added', '', 'new prompt']] },
  template_version_added: {
    section: 'resourceTemplates',
    before: [template('template_version_added')],
    after: [template('template_version_added'), template('template_version_added', { version: 2, uriTemplate: 'loans://v2/{id}' })],
    expected: [['resource-template', false, 'member-added', '', 'new version 2']],
  },
  prompt_tags_changed: {
    section: 'prompts',
    before: [prompt('prompt_tags_changed', { tags: ['beta'] })],
    after: [prompt('prompt_tags_changed', { tags: ['beta', 'review'] })],
    expected: [['prompt', false, 'tags', '', 'tags changed from ["beta"] to ["beta","review"]']],
  },
  resource_mime_type_changed: {
    section: 'resources',
    before: [resource('resource_mime_type_changed')],
    after: [resource('resource_mime_type_changed', { mimeType: 'text/plain' })],
    expected: [['resource', false, 'mime-type', '', 'MIME type changed from text/markdown to text/plain']],
  },
  completion_removed: {
    section: 'completions',
    before: [completion('completion_removed')],
    after: [],
    expected: [['completion', false, 'member-removed', '', 'the completion was removed']],
  },
  completion_retargeted: {
    section: 'completions',
    before: [completion('completion_retargeted')],
    after: [completion('completion_retargeted', { completes: { kind: 'prompt', name: 'review', argument: 'tone' } })],
    expected: [['completion', false, 'completes', '', 'now completes tone of prompt review (was applicant of prompt review)']],
  },
};

function manifestOf(side: 'before' | 'after', cases: Case[]): Manifest {
  const manifest: Manifest = { toolwrightManifest: 1, tools: [] };
  for (const entry of cases) manifest[entry.section] = [...(manifest[entry.section] ?? []), ...entry[side]];
  return manifest;
}

describe('breaking-change rules for resources, templates, prompts and completions', () => {
  let out: DiffReport;
  let code: number;
  let text: string;

  beforeAll(async () => {
    const cases = Object.values(CASES);
    const files = { 'before.json': manifestOf('before', cases), 'after.json': manifestOf('after', cases) };
    const [json, plain] = await Promise.all([run(['diff', 'before.json', 'after.json', '--json'], files), run(['diff', 'before.json', 'after.json'], files)]);
    expect([json.stderr, plain.stderr]).toEqual(['', '']);
    out = JSON.parse(json.stdout);
    code = json.code;
    text = plain.stdout;
  }, 60_000);

  it.each(Object.entries(CASES))('%s', (name, entry) => {
    const found = out.changes.filter((finding) => finding.tool === name);
    expect(found.map((finding) => [finding.kind, finding.breaking, finding.rule, finding.path, finding.message])).toEqual(entry.expected);
  });

  it('exits 1, and the text report names each member with its kind and says what to do', () => {
    expect(code).toBe(1);
    expect(out.ok).toBe(false);
    expect(text).toContain('  ✗ prompt prompt_argument_removed v1 arguments.tone: input field removed: callers still sending it are refused\n');
    expect(text).toContain('  ✗ resource resource_uri_changed v1: its URI changed from loans://resource_uri_changed to loans://elsewhere\n');
    expect(text).toContain(
      '  → resource template template_changed v1: declare @ToolVersion(2) on a new class for the changed contract and keep version 1 as it was.\n',
    );
    expect(text).toContain(
      '  → a removed resource, template or prompt (or version of one) breaks the clients that use it: keep it (deprecate it in its description) until they have moved.\n',
    );
    expect(text).toContain('  ✓ completion completion_removed v1: the completion was removed\n');
    expect(text).not.toContain('a removed tool or version');
  });

  it('a tool and a prompt of one name are compared each with its own kind', async () => {
    const tool = { ...prompt('review'), input: object({ id: { type: 'string' } }) };
    const before = { toolwrightManifest: 1, tools: [tool], prompts: [prompt('review')] };
    const after = { toolwrightManifest: 1, tools: [tool], prompts: [prompt('review', { input: object({ applicant: { type: 'string' } }) })] };
    const { code: exit, stdout } = await run(['diff', 'before.json', 'after.json', '--json'], { 'before.json': before, 'after.json': after });
    expect(exit).toBe(1);
    expect(JSON.parse(stdout).changes.map((finding: Finding) => [finding.kind, finding.tool, finding.path])).toEqual([['prompt', 'review', 'arguments.tone']]);
  }, 60_000);

  it('a manifest written before members (tools only, no tags) is read, and the members are new', async () => {
    const tool = { name: 'ping', version: 1, description: null, hints: [], adapters: { mcp: 'ping' }, input: NONE, output: null };
    const before = { toolwrightManifest: 1, tools: [tool] };
    const after = { toolwrightManifest: 1, tools: [{ ...tool, tags: [] }], resources: [resource('policy')], resourceTemplates: [], prompts: [prompt('review')], completions: [] };
    const { code: exit, stdout, stderr } = await run(['diff', 'before.json', 'after.json', '--json'], { 'before.json': before, 'after.json': after });
    expect([exit, stderr]).toEqual([0, '']);
    expect(JSON.parse(stdout).changes.map((finding: Finding) => [finding.kind, finding.tool, finding.rule, finding.breaking])).toEqual([
      ['resource', 'policy', 'member-added', false],
      ['prompt', 'review', 'member-added', false],
    ]);
  }, 60_000);

  it('a malformed member section is refused, naming it (exit 2)', async () => {
    const files = {
      'before.json': { toolwrightManifest: 1, tools: [], prompts: [{ name: 'review' }] },
      'after.json': { toolwrightManifest: 1, tools: [], resources: 'none' },
    };
    const [record, section] = await Promise.all([run(['diff', 'before.json', 'after.json'], files), run(['diff', 'after.json', 'after.json'], files)]);
    expect([record.code, record.stderr]).toEqual([2, 'toolwright: before.json: prompts[0] is not a prompt record (name, version, adapters, input, output): regenerate it with toolwright manifest.\n']);
    expect([section.code, section.stderr]).toEqual([2, "toolwright: after.json: 'resources' must be a list of resource records: regenerate it with toolwright manifest.\n"]);
  }, 60_000);
});
