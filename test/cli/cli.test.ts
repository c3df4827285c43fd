/**
 * The `toolwright` bin, built and run as a child process the way a user runs it: against the loan
 * desk through the repository's toolwright.config.js (TypeScript through the repository's @swc/core),
 * and against fixture projects in CommonJS, ES modules and TypeScript (test/fixtures/cli).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bin, buildPackage, fixtureCopy, removeBuild, repo, restarted, startUntil, stop, toolwright } from './harness';

let home: string;
const fixture = (name: string) => path.join(home, 'fixtures', name);

beforeAll(() => {
  home = buildPackage();
}, 120_000);

afterAll(() => removeBuild());

async function connectHttp(url: string): Promise<Client> {
  const client = new Client({ name: 'cli-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('the loan desk, from the repository config', () => {
  it('list prints a table of the latest versions, and --json every version for scripts', async () => {
    const [table, listed] = await Promise.all([toolwright(['list'], { cwd: home }), toolwright(['list', '--all-versions', '--json'], { cwd: home })]);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^name\s+version\s+adapters\s+hints\s+description$/);
    expect(table.stdout).toMatch(/^check_credit\s+1\s+mcp, openai\s+readOnly, idempotent\s+Credit score of an applicant$/m);
    expect(table.stdout).not.toContain('\u001b['); // no colours when stdout is not a terminal
    expect(listed.code).toBe(0);
    const tools = JSON.parse(listed.stdout) as Array<{ name: string; version: number; adapters: string[]; hints: string[] }>;
    expect(tools.map((tool) => `${tool.name}@${tool.version}`)).toEqual([
      'approve_loan@1',
      'approve_loan@2',
      'cancel_loan@1',
      'check_credit@1',
      'list_loans@1',
      'loan_status@1',
    ]);
    expect(tools.find((tool) => tool.name === 'cancel_loan')).toMatchObject({ adapters: ['mcp', 'openai'], hints: ['destructive'] });
  });

  it('schema prints a version; call prints the value (exit 0), or the failure on one line (exit 1)', async () => {
    const [v1, ok, failed] = await Promise.all([
      toolwright(['schema', 'approve_loan', '--version', '1'], { cwd: home }),
      toolwright(['call', 'check_credit', '--args', '{"applicant":"Ada Lovelace"}'], { cwd: home }),
      toolwright(['call', 'approve_loan', '--args', '{"loanId":"not-a-uuid","amount":5}', '--ambient', '{"officerId":"o-1"}'], { cwd: home }),
    ]);
    expect(Object.keys(JSON.parse(v1.stdout).properties)).toEqual(['loanId', 'amount']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ score: expect.any(Number), band: expect.any(String) });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe('approve_loan: Could not approve the loan: loanId must be a UUID\n');
  });

  it('manifest writes every tool version, and check against it is clean: no drift, no changes (exit 0)', async () => {
    const out = path.join(home, 'manifest.json');
    const written = await toolwright(['manifest', '--out', out], { cwd: home });
    expect([written.code, written.stderr]).toEqual([0, `toolwright: wrote ${out}\n`]);
    const manifest = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(manifest.tools[0]).toEqual({
      name: 'approve_loan',
      version: 1,
      description: 'Approve a pending loan (standard tier)',
      hints: [],
      tags: [],
      adapters: { mcp: 'approve_loan', openai: 'approve_loan' },
      input: expect.objectContaining({ required: ['loanId', 'amount'] }),
      output: expect.objectContaining({ type: 'object' }),
    });
    const checked = await toolwright(['check', '--against', out, '--json'], { cwd: home });
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    const report = JSON.parse(checked.stdout);
    expect(report).toMatchObject({ ok: true, changes: [], drift: { drift: [] } });
    expect(report.drift.checked).toEqual(expect.arrayContaining(['ApproveLoanV2Input', 'Approval', 'CheckCreditInput', 'CreditReport']));
  });

  it('serve mcp --stdio serves the loan desk to an MCP client, with its server options from the config', async () => {
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin(), 'serve', 'mcp', '--stdio'], cwd: home, stderr: 'pipe' }));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'loan-desk', version: '1.0.0' });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['approve_loan', 'cancel_loan', 'check_credit', 'list_loans', 'loan_status']);
      const result = await client.callTool({ name: 'check_credit', arguments: { applicant: 'Ada Lovelace' } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe('serve http', () => {
  it('serves the loan desk as an HTTP API on a free port, with its OpenAPI document', async () => {
    const { child, match } = await startUntil(['serve', 'http', '--port', '0'], home, /over HTTP on (http:\/\/\S+) /);
    try {
      const document = (await (await fetch(`${match[1]}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
      expect(document.openapi).toMatch(/^3\.1\./);
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/approve_loan/v1', '/api/approve_loan/v2', '/api/check_credit/v1']));
      const response = await fetch(`${match[1]}/check_credit/v1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ applicant: 'Ada Lovelace' }),
      });
      expect(response.status).toBe(200);
    } finally {
      await stop(child);
    }
  });
});

describe('a CommonJS project (toolwright.config.cjs, plain JavaScript)', () => {
  it('lists the latest version and calls an older one with ambient values', async () => {
    const [listed, called] = await Promise.all([
      toolwright(['list', '--json'], { cwd: fixture('cjs') }),
      toolwright(['call', 'echo', '--version', '1', '--args', '{"text":"ab","times":2}', '--ambient', '{"userId":"u-1"}'], { cwd: fixture('cjs') }),
    ]);
    expect(JSON.parse(listed.stdout).map((tool: { name: string; version: number }) => `${tool.name}@${tool.version}`)).toEqual(['echo@2', 'explode@1', 'refuse@1']);
    expect(called.code).toBe(0);
    expect(JSON.parse(called.stdout)).toEqual({ text: 'abab', by: 'u-1' });
  });

  it('schema prints the output schema and the strict projection; call --json prints the whole Result', async () => {
    const cwd = fixture('cjs');
    const [output, strict, result] = await Promise.all([
      toolwright(['schema', 'echo', '--version', '1', '--output'], { cwd }),
      toolwright(['schema', 'echo', '--version', '1', '--strict'], { cwd }),
      toolwright(['call', 'echo', '--json', '--args', '{"text":"a"}'], { cwd }),
    ]);
    expect(JSON.parse(output.stdout)).toMatchObject({ properties: { text: { type: 'string' }, by: { type: ['string', 'null'] } } });
    expect(JSON.parse(strict.stdout)).toMatchObject({ required: ['text', 'times'], properties: { times: { type: ['number', 'null'] } } });
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, outcome: 'success', message: 'Action completed successfully', value: { text: 'a' } });
  });

  it('manifest output is deterministic and ends with a newline', async () => {
    const cwd = fixture('cjs');
    const [a, b] = await Promise.all([toolwright(['manifest'], { cwd }), toolwright(['manifest'], { cwd })]);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout.endsWith('}\n')).toBe(true);
    expect(JSON.parse(a.stdout).tools.map((tool: { name: string; version: number }) => `${tool.name}@${tool.version}`)).toEqual(['echo@1', 'echo@2', 'explode@1', 'refuse@1']);
  });

  it('exits 1 for a failure, 2 for an exception, each with one line', async () => {
    const [failed, exploded, json] = await Promise.all([
      toolwright(['call', 'refuse'], { cwd: fixture('cjs') }),
      toolwright(['call', 'explode'], { cwd: fixture('cjs') }),
      toolwright(['call', 'explode', '--json'], { cwd: fixture('cjs') }),
    ]);
    expect([failed.code, failed.stderr]).toEqual([1, 'refuse: Could not refuse: refused on purpose\n']);
    expect([exploded.code, exploded.stderr]).toEqual([2, 'explode: Something went wrong (kaboom)\n']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, outcome: 'exception', exception: 'kaboom' });
  });

  it('says what to do about an unknown tool, a malformed --args, a missing version and a usage error (exit 2)', async () => {
    const cwd = fixture('cjs');
    const runs = await Promise.all([
      toolwright(['call', 'ecko'], { cwd }),
      toolwright(['call', 'echo', '--args', '{"text": '], { cwd }),
      toolwright(['call', 'echo', '--args', '[1]'], { cwd }),
      toolwright(['schema', 'echo', '--version', '7'], { cwd }),
      toolwright(['schema', 'echo', '--version', 'two'], { cwd }),
      toolwright(['list', '--colour'], { cwd }),
      toolwright(['serve', 'http', '--port', '70000'], { cwd }),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 1, 2, 2, 2, 2]);
    expect(runs[0].stderr).toBe("toolwright: unknown tool 'ecko': the tools are echo, explode and refuse. Run toolwright list.\n");
    expect(runs[1].stderr).toMatch(/^toolwright: --args is not valid JSON \(.+\): pass an object such as '\{"loanId": "…"\}'\.\n$/);
    expect(runs[2].stderr).toMatch(/^echo: .*object/); // the invoker refuses a non-object, as a failure
    expect(runs[3].stderr).toBe('toolwright: echo has no version 7: its versions are 1 and 2.\n');
    expect(runs[4].stderr).toBe("toolwright: --version must be a whole number from 1; got 'two'.\n");
    expect(runs[5].stderr).toBe("toolwright: unknown option '--colour'\n");
    expect(runs[6].stderr).toMatch(/^toolwright: option '--port <port>' argument '70000' is invalid\. a port is a whole number from 0 to 65535/);
    for (const run of runs) expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('serve mcp --http serves on a free port, named from package.json', async () => {
    const { child, match } = await startUntil(['serve', 'mcp', '--http', '--port', '0'], fixture('cjs'), /on (http:\/\/\S+)\n/);
    try {
      const client = await connectHttp(match[1]);
      expect(client.getServerVersion()).toMatchObject({ name: 'cli-fixture-cjs', version: '1.2.3' });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'explode', 'refuse']);
      await client.close();
    } finally {
      await stop(child);
    }
  });

  it('dev restarts the server when a loaded file changes, on the same URL', async () => {
    const dir = fixtureCopy('cjs');
    const { child, match, output } = await startUntil(['dev'], dir, /on (http:\/\/\S+)\n/);
    try {
      const url = match[1];
      let client = await connectHttp(url);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'explode', 'refuse']);
      await client.close();
      const tools = path.join(dir, 'tools.js');
      const renamed = fs.readFileSync(tools, 'utf8').replace("Tool('mcp', { description: 'Always throws' })", "Tool('mcp', { name: 'blow_up', description: 'Always throws' })");
      await restarted(output, () => fs.writeFileSync(tools, renamed));
      expect(output()).toContain('tools.js changed, restarting');
      expect(output()).not.toMatch(/the server (stopped|exited)/); // a restart is no failure
      client = await connectHttp(url);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['blow_up', 'echo', 'refuse']);
      await client.close();
    } finally {
      await stop(child);
    }
  }, 30_000);
});

describe('an ES module project (toolwright.config.mjs)', () => {
  it('lists, prints schemas and calls with arguments on stdin', async () => {
    const cwd = fixture('esm');
    const [listed, schema, called] = await Promise.all([
      toolwright(['list', '--adapter', 'openai', '--json'], { cwd }),
      toolwright(['schema', 'shout', '--output', '--dialect', 'draft-07'], { cwd }),
      toolwright(['call', 'shout'], { cwd, input: '{"text":"hi"}' }),
    ]);
    expect(JSON.parse(listed.stdout)).toEqual([{ name: 'shout', version: 1, adapters: ['mcp', 'openai'], hints: [], description: 'Shout a text', id: 'Shout', kind: 'tool', tags: [] }]);
    expect(JSON.parse(schema.stdout)).toMatchObject({ properties: { text: { type: 'string' } } });
    expect([called.code, JSON.parse(called.stdout)]).toEqual([0, { text: 'HI' }]);
  });

  it('dev restarts when a module imported by a loaded ES module changes', async () => {
    const dir = fixtureCopy('esm');
    fs.mkdirSync(path.join(dir, 'lib'));
    fs.writeFileSync(path.join(dir, 'lib', 'words.js'), "export const DESCRIPTION = 'Shout a text';\n");
    const tools = path.join(dir, 'tools.js');
    fs.writeFileSync(tools, "import { DESCRIPTION } from './lib/words.js';\n" + fs.readFileSync(tools, 'utf8').replace("'Shout a text'", 'DESCRIPTION'));
    const { child, match, output } = await startUntil(['dev'], dir, /on (http:\/\/\S+)\n/);
    try {
      await restarted(output, () => fs.writeFileSync(path.join(dir, 'lib', 'words.js'), "export const DESCRIPTION = 'Shout a text, loudly';\n"));
      const client = await connectHttp(match[1]);
      expect((await client.listTools()).tools.map((tool) => tool.description)).toEqual(['Shout a text, loudly']);
      await client.close();
    } finally {
      await stop(child);
    }
  }, 30_000);

  it('loads a project from --import alone, without a config', async () => {
    const dir = fs.mkdtempSync(path.join(fixture('.'), 'bare-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.copyFileSync(path.join(fixture('esm'), 'tools.js'), path.join(dir, 'tools.js'));
    const missing = await toolwright(['list'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `toolwright: no toolwright.config.js (or .mjs, .cjs, .json) in ${fs.realpathSync(dir)} or above, and no --import: create one exporting { import: ['./src/tools'], adapters: ['mcp'] }, or pass --import <module>.\n`,
    );
    const imported = await toolwright(['list', '--import', './tools.js', '--import', 'toolwright/mcp', '--json'], { cwd: dir });
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout).map((tool: { name: string }) => tool.name)).toEqual(['shout']);
  });
});

describe('an ES module project in TypeScript (through SWC)', () => {
  it('lists and calls its tools, whose output fields take their types from the decorator metadata', async () => {
    const cwd = fixture('esm-ts');
    const [listed, called] = await Promise.all([toolwright(['list', '--json'], { cwd }), toolwright(['call', 'count_words', '--args', '{"text":"one two three"}'], { cwd })]);
    expect(listed.stderr).toBe('');
    expect(JSON.parse(listed.stdout).map((row: { kind: string; name: string }) => `${row.kind} ${row.name}`)).toEqual([
      'tool count_words',
      'tool screen_applicant',
      'prompt review',
      'completion tones',
    ]);
    expect(JSON.parse(listed.stdout)[0]).toEqual({ name: 'count_words', version: 1, adapters: ['mcp'], hints: [], description: 'Count the words of a sentence', id: 'CountWords', kind: 'tool', tags: [] });
    expect([called.code, JSON.parse(called.stdout)]).toEqual([0, { count: 3, longest: 'three' }]);
  });

  it("loads what tsc compiles: a value import of a type-only name (CompletionRequest) typing a decorated parameter, and a class imported only to type a field", async () => {
    const cwd = fixture('esm-ts');
    const [completed, screened] = await Promise.all([
      toolwright(['call', 'tones', '--kind', 'completion', '--args', '{"argument": "tone", "value": "th"}'], { cwd }),
      toolwright(['call', 'screen_applicant', '--args', '{"applicant": {"name": "Ada"}}'], { cwd }),
    ]);
    expect([completed.code, completed.stderr, JSON.parse(completed.stdout)]).toEqual([0, '', ['thorough']]);
    expect([screened.code, JSON.parse(screened.stdout)]).toEqual([0, { greeting: 'Hello, Ada' }]);
  });

  it("runs the command-line guide's `call review --kind prompt` example as it stands", async () => {
    const page = fs.readFileSync(path.join(repo, 'docs', 'guide', 'command-line.md'), 'utf8');
    const args = /`call review --kind prompt --args '([^']+)'`/.exec(page)![1];
    const prompt = await toolwright(['call', 'review', '--kind', 'prompt', '--args', args], { cwd: fixture('esm-ts') });
    expect([prompt.code, prompt.stderr]).toEqual([0, '']);
    expect(JSON.parse(prompt.stdout)).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Review loan l-1 for 5000.' } },
        { role: 'assistant', content: { type: 'text', text: 'I will start with the credit history.' } },
      ],
    });
  });
});

describe('loading a project: the messages', () => {
  it('names the compiler to install for TypeScript, a bad config key, two configs side by side, and the drift peer (exit 2)', async () => {
    // Outside the build, where @swc/core does not resolve; toolwright is linked in.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-bare-'));
    try {
      fs.mkdirSync(path.join(dir, 'node_modules'));
      fs.symlinkSync(home, path.join(dir, 'node_modules', 'toolwright'), 'dir');
      fs.writeFileSync(path.join(dir, 'package.json'), '{"name": "bare"}');
      fs.writeFileSync(path.join(dir, 'tools.ts'), 'export const nothing = 1;\n');
      fs.writeFileSync(path.join(dir, 'toolwright.config.json'), '{ "import": ["./tools.ts"] }');
      const typescript = await toolwright(['list'], { cwd: dir });
      expect([typescript.code, typescript.stderr]).toEqual([
        2,
        'toolwright: tools.ts is TypeScript: install @swc/core in the project (npm install --save-dev @swc/core) so the command can compile it with the decorator metadata toolwright reads (any TypeScript version; ts-node and tsx are not used).\n',
      ]);
      fs.writeFileSync(path.join(dir, 'toolwright.config.json'), '{ "imports": ["./tools.ts"] }');
      const key = await toolwright(['list'], { cwd: dir });
      expect([key.code, key.stderr]).toEqual([2, "toolwright: toolwright.config.json: unknown key 'imports'. Known keys: import, adapters, toolRoots and serve.\n"]);
      fs.writeFileSync(path.join(dir, 'toolwright.config.js'), 'module.exports = {};\n');
      const two = await toolwright(['list'], { cwd: dir });
      expect(two.code).toBe(2);
      expect(two.stderr).toMatch(/has toolwright.config.js and toolwright.config.json: keep one toolwright.config file and delete the others.\n$/);
      fs.rmSync(path.join(dir, 'toolwright.config.json'));
      fs.writeFileSync(path.join(dir, 'toolwright.config.js'), "module.exports = { import: ['./tools.cjs'], adapters: ['mcp'] };\n");
      fs.writeFileSync(path.join(dir, 'tools.cjs'), "const { Tool } = require('toolwright');\nclass Ping { call() {} }\nTool('mcp')(Ping);\nmodule.exports = { Ping };\n");
      const drift = await toolwright(['check'], { cwd: dir });
      expect([drift.code, drift.stderr]).toEqual([
        2,
        'toolwright: compiler drift needs typescript-json-schema: npm install --save-dev typescript-json-schema (or skip this check with --no-drift).\n',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('check, on a TypeScript project whose contract changed without a new version', () => {
  it('reports the drift and every breaking change, says to declare @ToolVersion(2), and exits 1', async () => {
    const cwd = fixture('contract');
    const [text, json] = await Promise.all([toolwright(['check', '--against', 'manifest.json'], { cwd }), toolwright(['check', '--against', 'manifest.json', '--json', '--no-drift'], { cwd })]);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe(
      [
        'compiler drift in 1 field (2 DTO classes compared with the TypeScript compiler):',
        '  ✗ get_quote v1 QuoteInput.note: required: TypeScript says required, the schema says optional',
        '  → make the declaration agree with the TypeScript type (@Field({ type, optional, nullable }), or the type itself).',
        '4 breaking changes against manifest.json:',
        '  ✗ get_quote v1 input.amount: maximum lowered from 1000 to 500',
        '  ✗ get_quote v1 input.currency: input field added as required',
        '  ✗ get_quote v1 output.expiresAt: output field removed',
        '  ✗ ping v1: the tool was removed',
        '  → get_quote v1: declare @ToolVersion(2) on a new class for the changed contract and keep version 1 as it was.',
        '  → a removed tool or version breaks its callers: keep it (deprecate it in its description) until they have moved.',
        '2 compatible changes:',
        '  ✓ get_quote v1: description changed',
        '  ✓ get_quote v1 input.note: optional input field added',
        '',
      ].join('\n'),
    );
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.drift).toBeNull();
    expect(report.changes.filter((change: { breaking: boolean }) => change.breaking).map((change: { rule: string }) => change.rule)).toEqual([
      'bounds',
      'field-added',
      'field-removed',
      'tool-removed',
    ]);
  });

  it('exits 2 when it cannot run: a missing manifest, or nothing to check', async () => {
    const cwd = fixture('contract');
    const [missing, nothing] = await Promise.all([toolwright(['check', '--against', 'nope.json'], { cwd }), toolwright(['check', '--no-drift'], { cwd })]);
    expect([missing.code, missing.stderr]).toEqual([2, 'toolwright: cannot read the manifest nope.json: no such file. Write one with toolwright manifest --out nope.json.\n']);
    expect([nothing.code, nothing.stderr]).toEqual([2, 'toolwright: nothing to check: pass --against manifest.json, or drop --no-drift.\n']);
  });
});

describe('--help', () => {
  it('every command has help, and exits 0', async () => {
    const commands = [[], ['list'], ['schema'], ['call'], ['serve'], ['serve', 'mcp'], ['serve', 'http'], ['dev'], ['manifest'], ['check'], ['diff']];
    const runs = await Promise.all(commands.map((command) => toolwright([...command, '--help'], { cwd: os.tmpdir() })));
    runs.forEach((run, i) => {
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: toolwright${commands[i].map((word) => ` ${word}`).join('')}`));
    });
  });
});
