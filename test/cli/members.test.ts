/**
 * The command line on a TypeScript project with members beside its tool (test/fixtures/cli/members):
 * `list` shows each kind under its heading, with its URI, template, arguments or what it completes,
 * and tags; `manifest` records them with their contracts; `check --against` guards those contracts.
 * Run as a user runs the built bin.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildPackage, removeBuild, toolwright } from './harness';

let home: string;
let cwd: string;

beforeAll(() => {
  home = buildPackage();
  cwd = path.join(home, 'fixtures', 'members');
}, 120_000);

afterAll(() => removeBuild());

describe('members on the command line', () => {
  it('list: the tools as before, then each kind of member under its heading, with tags', async () => {
    const [all, prompts, bad] = await Promise.all([
      toolwright(['list'], { cwd }),
      toolwright(['list', '--kind', 'prompt'], { cwd }),
      toolwright(['list', '--kind', 'prompts'], { cwd }),
    ]);
    expect([all.code, all.stderr]).toEqual([0, '']);
    expect(all.stdout).toBe(
      [
        'name       version  adapters  hints  tags     description',
        '---------  -------  --------  -----  -------  -------------',
        'get_quote  1        mcp       -      pricing  Quote a price',
        '',
        'Resources',
        'name    version  adapters  uri             mime type      tags  description',
        '------  -------  --------  --------------  -------------  ----  ------------------',
        'policy  1        mcp       loans://policy  text/markdown  docs  The lending policy',
        '',
        'Resource templates',
        'name         version  adapters  template                   mime type         description',
        '-----------  -------  --------  -------------------------  ----------------  --------------------',
        'application  1        mcp       loans://applications/{id}  application/json  One loan application',
        '',
        'Prompts',
        'name    version  adapters  arguments                 tags          description',
        '------  -------  --------  ------------------------  ------------  -------------------------',
        'review  1        mcp       applicant, amount, tone?  review, beta  Review a loan application',
        '',
        'Completions',
        'name        version  adapters  completes',
        '----------  -------  --------  --------------------------',
        'applicants  1        mcp       applicant of prompt review',
        '',
      ].join('\n'),
    );
    expect(prompts.stdout.split('\n')[0]).toBe('Prompts');
    expect(prompts.stdout).not.toContain('get_quote');
    expect([bad.code, bad.stderr]).toEqual([2, "toolwright: --kind must be one of tool, resource, resource-template, prompt and completion; got 'prompts'.\n"]);
  });

  it('call and schema --kind: a prompt with its arguments coerced, a template by its variables, a completion; a member by its name is told its kind', async () => {
    const [prompt, template, completion, schema, unknown] = await Promise.all([
      toolwright(['call', 'review', '--kind', 'prompt', '--args', '{"applicant":"Ada","amount":"5000"}'], { cwd }),
      toolwright(['call', 'application', '--kind', 'resource-template', '--args', '{"id":"42"}'], { cwd }),
      toolwright(['call', 'applicants', '--kind', 'completion', '--args', '{"argument":"applicant","value":"a"}'], { cwd }),
      toolwright(['schema', 'review', '--kind', 'prompt'], { cwd }),
      toolwright(['call', 'review'], { cwd }),
    ]);
    expect([prompt.code, JSON.parse(prompt.stdout)]).toEqual([0, { messages: [{ role: 'user', content: { type: 'text', text: "Review Ada's application for 5000." } }] }]);
    expect([template.code, JSON.parse(template.stdout)]).toEqual([0, { id: 42 }]);
    expect([completion.code, JSON.parse(completion.stdout)]).toEqual([0, ['Ada Lovelace', 'Alan Turing']]);
    expect(JSON.parse(schema.stdout)).toMatchObject({ required: ['applicant', 'amount'] });
    expect([unknown.code, unknown.stderr]).toEqual([2, "toolwright: unknown tool 'review': the tools are get_quote. 'review' is a prompt: pass --kind prompt. Run toolwright list.\n"]);
  });

  it('list --json: one row per member with its kind, tags and the kind’s own facts', async () => {
    const listed = await toolwright(['list', '--json'], { cwd });
    const rows = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((row) => [row.kind, row.name])).toEqual([
      ['tool', 'get_quote'],
      ['resource', 'policy'],
      ['resource-template', 'application'],
      ['prompt', 'review'],
      ['completion', 'applicants'],
    ]);
    expect(rows[0]).toMatchObject({ tags: ['pricing'], id: 'GetQuote' });
    expect(rows[1]).toMatchObject({ uri: 'loans://policy', mimeType: 'text/markdown', tags: ['docs'], id: 'LoanDesk.policy' });
    expect(rows[2]).toMatchObject({ uriTemplate: 'loans://applications/{id}', variables: ['id'], mimeType: 'application/json', tags: [] });
    expect(rows[3]).toMatchObject({
      tags: ['review', 'beta'],
      arguments: [
        { name: 'applicant', required: true, type: 'string', description: null },
        { name: 'amount', required: true, type: 'integer', description: null },
        { name: 'tone', required: false, type: 'string', description: null },
      ],
    });
    expect(rows[4]).toMatchObject({ completes: { kind: 'prompt', name: 'review', argument: 'applicant' } });
  });

  it('manifest records each member with its contract; check --against it is clean, and against an earlier contract reports every break', async () => {
    const out = path.join(home, 'members-manifest.json');
    const written = await toolwright(['manifest', '--out', out], { cwd });
    expect(written.code).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(Object.keys(manifest)).toEqual(['toolwrightManifest', 'tools', 'resources', 'resourceTemplates', 'prompts', 'completions']);
    expect(manifest.prompts).toEqual([
      {
        name: 'review',
        version: 1,
        description: 'Review a loan application',
        hints: [],
        tags: ['beta', 'review'],
        adapters: { mcp: 'review' },
        input: {
          type: 'object',
          properties: { applicant: { type: 'string', minLength: 1 }, amount: { type: 'integer' }, tone: { type: 'string' } },
          required: ['applicant', 'amount'],
          additionalProperties: false,
        },
        output: null,
      },
    ]);
    expect(manifest.resources[0]).toMatchObject({ name: 'policy', uri: 'loans://policy', mimeType: 'text/markdown' });
    expect(manifest.resourceTemplates[0]).toMatchObject({ uriTemplate: 'loans://applications/{id}', input: { required: ['id'] } });
    expect(manifest.completions[0]).toMatchObject({ completes: { kind: 'prompt', name: 'review', argument: 'applicant' } });

    // The contract as it was: the prompt had an optional 'notes' and no 'tone', 'amount' was optional;
    // the template lived at another URI; a resource has since been removed.
    const review = manifest.prompts[0];
    const earlier = {
      ...manifest,
      resources: [...manifest.resources, { ...manifest.resources[0], name: 'rates', uri: 'loans://rates' }],
      resourceTemplates: [{ ...manifest.resourceTemplates[0], uriTemplate: 'loans://apps/{id}' }],
      prompts: [
        {
          ...review,
          input: { ...review.input, properties: { applicant: { type: 'string', minLength: 1 }, amount: { type: 'integer' }, notes: { type: 'string' } }, required: ['applicant'] },
        },
      ],
    };
    const before = path.join(home, 'members-before.json');
    fs.writeFileSync(before, JSON.stringify(earlier));
    const [clean, checked] = await Promise.all([
      toolwright(['check', '--against', out, '--no-drift'], { cwd }),
      toolwright(['check', '--against', before, '--no-drift'], { cwd }),
    ]);
    expect([clean.code, clean.stdout]).toEqual([0, `no breaking changes against ${out}\n`]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe(
      [
        `4 breaking changes against ${before}:`,
        '  ✗ resource rates v1: the resource was removed',
        '  ✗ resource template application v1: its URI template changed from loans://apps/{id} to loans://applications/{id}',
        '  ✗ prompt review v1 arguments.amount: now required',
        '  ✗ prompt review v1 arguments.notes: input field removed: callers still sending it are refused',
        '  → resource template application v1: declare @ToolVersion(2) on a new class for the changed contract and keep version 1 as it was.',
        '  → prompt review v1: declare @ToolVersion(2) on a new class for the changed contract and keep version 1 as it was.',
        '  → a removed resource, template or prompt (or version of one) breaks the clients that use it: keep it (deprecate it in its description) until they have moved.',
        '1 compatible change:',
        '  ✓ prompt review v1 arguments.tone: optional input field added',
        '',
      ].join('\n'),
    );
  });

  it('check with compiler drift reads the members too, and a manifest from before members is still checked', async () => {
    const old = path.join(home, 'members-old.json');
    const tool = { name: 'get_quote', version: 1, description: 'Quote a price', hints: [], adapters: { mcp: 'get_quote' } };
    const listed = JSON.parse((await toolwright(['manifest'], { cwd })).stdout);
    fs.writeFileSync(old, JSON.stringify({ toolwrightManifest: 1, tools: [{ ...tool, input: listed.tools[0].input, output: null }] }));
    const checked = await toolwright(['check', '--against', old, '--json'], { cwd });
    expect(checked.stderr).toBe('');
    const report = JSON.parse(checked.stdout);
    expect(checked.code).toBe(0);
    expect(report.drift.drift).toEqual([]);
    expect(report.drift.checked).toEqual(['ReviewArgs']); // the prompt's DTO, read by the compiler too
    expect(report.changes.map((change: { kind: string; tool: string; rule: string; breaking: boolean }) => [change.kind, change.tool, change.rule, change.breaking])).toEqual([
      ['tool', 'get_quote', 'tags', false],
      ['resource', 'policy', 'member-added', false],
      ['resource-template', 'application', 'member-added', false],
      ['prompt', 'review', 'member-added', false],
      ['completion', 'applicants', 'member-added', false],
    ]);
  });
});
