/**
 * The example application, started as a child process exactly as a client would start it: over
 * stdio (a desktop client's launch), over Streamable HTTP (`npm start`), and with signed tokens
 * (`npm start -- --auth`, tokens minted by `npm run loan-desk:token`).
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as ts from 'typescript';

const repo = path.resolve(__dirname, '..', '..');
const node = ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'examples/loan-desk/main.ts'];
const ada = '6f1c9a52-3b0e-4c52-9a8e-1f2d3c4b5a60';
const grace = '0b7e4d21-8c3a-4f19-b6d2-7e5a9c1f3d42';
const alan = 'c3a5e7f9-1b2d-4e6f-8a0c-2d4f6b8e0a13';

/** Starts the example with these arguments; resolves with the URL it prints and everything it printed. */
function start(args: string[], env: Record<string, string> = {}): { child: ChildProcess; ready: Promise<{ url: string; out: () => string }> } {
  const child = spawn(process.execPath, [...node, ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  const ready = new Promise<{ url: string; out: () => string }>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving MCP on (http:\/\/\S+)/.exec(out);
      if (match) setTimeout(() => resolve({ url: match[1], out: () => out }), 50); // the lines after it, too
    });
    child.once('exit', (code) => reject(new Error(`the example exited with ${code}: ${out}`)));
  });
  return { child, ready };
}

async function connect(url: string, headers: Record<string, string>): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'loan-desk-http', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('the loan desk over stdio', () => {
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...node, '--stdio'],
      cwd: repo,
      env: { ...(process.env as Record<string, string>), LOAN_DESK_OFFICER: 'officer-42' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'loan-desk-test', version: '1.0.0' });
    await client.connect(transport);
  }, 30_000);

  afterAll(() => client?.close());

  it('prints its table to stderr and lists the latest version of each tool', async () => {
    expect(stderr).toContain('approve_loan  2');
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.annotations ?? null, t._meta ?? null])).toEqual([
      ['approve_loan', null, { toolVersion: 2 }],
      ['cancel_loan', { readOnlyHint: false, destructiveHint: true }, null],
      ['check_credit', { readOnlyHint: true, idempotentHint: true }, null],
      ['list_loans', { readOnlyHint: true, idempotentHint: true }, null],
      ['loan_status', { readOnlyHint: true, idempotentHint: true }, null],
    ]);
    const approve = tools.find((t) => t.name === 'approve_loan')!;
    expect(Object.keys(approve.inputSchema.properties ?? {})).toEqual(['loanId', 'amount', 'tier']); // officerId is ambient
  });

  it('runs a lending workflow: credit check, approval by the officer from the server’s context, status', async () => {
    const credit = await client.callTool({ name: 'check_credit', arguments: { applicant: 'Ada Lovelace' } });
    expect(credit.structuredContent).toEqual({ score: 812, band: 'excellent' });

    const approved = await client.callTool({ name: 'approve_loan', arguments: { loanId: ada, amount: '24000', tier: 'express' } });
    expect(approved.isError).toBeFalsy();
    expect(approved.structuredContent).toMatchObject({ tier: 'express', approvalId: expect.any(String) });

    const status = await client.callTool({ name: 'loan_status', arguments: { loanId: ada } });
    expect(status.structuredContent).toEqual({ loanId: ada, applicant: 'Ada Lovelace', amount: 24000, state: 'approved', approvedBy: 'officer-42' });
  });

  it('answers failures, invalid input and smuggled ambient values as tool errors', async () => {
    expect(await client.callTool({ name: 'approve_loan', arguments: { loanId: alan, amount: 100 } })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Could not approve the loan: the applicant’s credit score is too low' }],
    });
    expect(await client.callTool({ name: 'approve_loan', arguments: { loanId: grace, amount: 2_000_000, officerId: 'me' } })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Could not approve the loan: unknown input: officerId and amount must not be greater than 1000000' }],
    });
    expect(await client.callTool({ name: 'cancel_loan', arguments: { loanId: ada } })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Could not cancel the loan: an approved loan cannot be cancelled' }],
    });
  });

  it('serves its lending policy, loan records, the review prompt and their completions', async () => {
    expect(stderr).toMatch(/loan_record +resource-template +loans:\/\/loans\/\{id\}/);
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      { uri: 'loans://policy', name: 'lending_policy', title: 'Lending policy', description: 'The rules every loan approval follows', mimeType: 'text/markdown' },
    ]);
    const policy = await client.readResource({ uri: 'loans://policy' });
    expect(policy.contents).toEqual([{ uri: 'loans://policy', mimeType: 'text/markdown', text: expect.stringContaining('# Lending policy') }]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.name, t.uriTemplate])).toEqual([['loan_record', 'loans://loans/{id}']]);
    const record = await client.readResource({ uri: `loans://loans/${grace}` });
    expect(JSON.parse((record.contents[0] as { text: string }).text)).toEqual({ id: grace, applicant: 'Grace Hopper', amount: 180000, state: 'pending' });
    // The template's variable is checked by the same DTO rules as the tools' input.
    await expect(client.readResource({ uri: 'loans://loans/not-a-uuid' })).rejects.toThrow(/id must be a UUID/);
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: 'review_loan',
        title: 'Review a loan',
        description: 'Asks the model to review a pending loan against the lending policy',
        arguments: [{ name: 'applicant', description: 'The applicant whose pending loan to review', required: true }],
      },
    ]);
    const review = await client.getPrompt({ name: 'review_loan', arguments: { applicant: 'Grace Hopper' } });
    expect(review.messages.map((m) => [m.role, m.content.type])).toEqual([['user', 'resource'], ['user', 'text']]);
    expect(review.messages[1].content).toMatchObject({ text: expect.stringContaining(`Review the pending loan ${grace}`) });
    const applicants = await client.complete({ ref: { type: 'ref/prompt', name: 'review_loan' }, argument: { name: 'applicant', value: 'g' } });
    expect(applicants.completion.values).toEqual(['Grace Hopper']);
    const ids = await client.complete({ ref: { type: 'ref/resource', uri: 'loans://loans/{id}' }, argument: { name: 'id', value: '0b' } });
    expect(ids.completion.values).toEqual([grace]);
  });
});

describe('the loan desk over Streamable HTTP (npm start)', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const started = start(['--port', '0'], { LOAN_DESK_OFFICER: '' }); // unset: the default development identity
    child = started.child;
    url = (await started.ready).url;
  }, 30_000);

  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('serves on 127.0.0.1 without a token, as the development identity; an x-officer-id header changes nothing', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client, transport } = await connect(url, { 'x-officer-id': 'mallory' });
    try {
      const approved = await client.callTool({ name: 'approve_loan', arguments: { loanId: grace, amount: 150000 } });
      expect(approved.structuredContent).toMatchObject({ tier: 'standard' });
      const status = await client.callTool({ name: 'loan_status', arguments: { loanId: grace } });
      expect(status.structuredContent).toMatchObject({ state: 'approved', approvedBy: 'officer-on-duty' });
      const list = await client.callTool({ name: 'list_loans', arguments: { state: 'pending' } });
      expect((list.structuredContent as { loans: Array<{ applicant: string }> }).loans.map((l) => l.applicant)).toEqual(['Ada Lovelace', 'Alan Turing']);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('serves the HTTP API on the same port at /api: curl-style calls, problems, the docs page', async () => {
    const api = url.replace(/\/mcp$/, '/api');
    const post = (tool: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${api}/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const approved = await post('approve_loan/v2', { loanId: ada, amount: 20000, tier: 'express' }, { 'x-officer-id': 'mallory' });
    expect([approved.status, await approved.json()]).toEqual([200, { approvalId: expect.any(String), approvedAt: expect.any(String), tier: 'express' }]);
    const status = await fetch(`${api}/loan_status/v1?loanId=${ada}`);
    expect(await status.json()).toMatchObject({ state: 'approved', approvedBy: 'officer-on-duty' });
    const invalid = await post('approve_loan/v1', { loanId: 'nope', amount: 0 });
    expect([invalid.status, invalid.headers.get('content-type')]).toEqual([422, 'application/problem+json; charset=utf-8']);
    expect(((await invalid.json()) as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual(['loanId', 'amount']);
    const again = await post('cancel_loan/v1', { loanId: ada });
    expect([again.status, ((await again.json()) as { detail: string }).detail]).toEqual([422, 'Could not cancel the loan: an approved loan cannot be cancelled']);
    const document = (await (await fetch(`${api}/openapi.json`)).json()) as { paths: Record<string, { post: { deprecated?: boolean } }> };
    expect(Object.keys(document.paths)).toEqual([
      '/api/approve_loan/v1',
      '/api/approve_loan/v2',
      '/api/cancel_loan/v1',
      '/api/check_credit/v1',
      '/api/list_loans/v1',
      '/api/loan_status/v1',
    ]);
    expect(document.paths['/api/approve_loan/v1'].post.deprecated).toBe(true);
    const docs = await fetch(`${api}/docs`);
    expect([docs.status, docs.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  });

  it('generates a typed client from /api/openapi.json (openapi-typescript + openapi-fetch) that compiles and calls the desk', async () => {
    const api = url.replace(/\/mcp$/, '/api');
    const origin = new URL(url).origin;
    fs.mkdirSync(path.join(repo, '.tmp'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(repo, '.tmp', 'typed-client-'));
    try {
      fs.writeFileSync(path.join(dir, 'openapi.json'), await (await fetch(`${api}/openapi.json`)).text());
      await promisify(execFile)(process.execPath, [path.join(repo, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), 'openapi.json', '-o', 'api.d.ts'], { cwd: dir });
      const client = `
        import createClient from 'openapi-fetch';
        import type { paths } from './api';

        export async function run(baseUrl: string) {
          const desk = createClient<paths>({ baseUrl });
          const credit = await desk.POST('/api/check_credit/v1', { body: { applicant: 'Alan Turing' } });
          if (!credit.data) throw new Error('check_credit failed');
          const score: number = credit.data.score;
          const band: 'poor' | 'fair' | 'good' | 'excellent' = credit.data.band;
          const pending = await desk.GET('/api/list_loans/v1', { params: { query: { state: 'pending' } } });
          const applicants: string[] = (pending.data?.loans ?? []).map((loan) => loan.applicant);
          const refused = await desk.POST('/api/approve_loan/v2', { body: { loanId: 'not-a-uuid', amount: 5 } });
          const fields: string[] = (refused.error?.errors ?? []).map((error) => error.field);
          return { score, band, applicants, status: refused.response.status, fields };
        }`;
      const wrong = `
        import createClient from 'openapi-fetch';
        import type { paths } from './api';
        const desk = createClient<paths>({ baseUrl: '' });
        void desk.POST('/api/check_credit/v1', { body: { applicant: 42 } });
        void desk.POST('/api/check_credit/v2', { body: { applicant: 'Ada' } });`;
      fs.writeFileSync(path.join(dir, 'client.ts'), client);
      fs.writeFileSync(path.join(dir, 'wrong.ts'), wrong);
      const options: ts.CompilerOptions = {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        esModuleInterop: true,
        skipLibCheck: true,
        types: [],
        outDir: dir,
      };
      const diagnostics = (file: string, emit: boolean) => {
        const program = ts.createProgram([path.join(dir, file)], options);
        const found = [...ts.getPreEmitDiagnostics(program)].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        if (emit) program.emit();
        return found;
      };
      expect(diagnostics('client.ts', true)).toEqual([]);
      // The types are the contract: a wrong field type and an unknown version do not compile.
      const errors = diagnostics('wrong.ts', false);
      expect(errors).toHaveLength(2);
      expect(errors[0]).toMatch(/number.*not assignable to type 'string'/);
      const run = `require('./client.js').run(${JSON.stringify(origin)}).then((r) => process.stdout.write(JSON.stringify(r)))`;
      const { stdout } = await promisify(execFile)(process.execPath, ['-e', run], { cwd: dir });
      expect(JSON.parse(stdout)).toEqual({ score: 540, band: 'poor', applicants: expect.arrayContaining(['Alan Turing']), status: 422, fields: ['loanId'] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the loan desk with signed tokens (npm start -- --auth)', () => {
  let child: ChildProcess;
  let url: string;
  let printed: string;
  const tokens: Record<'writer' | 'reader' | 'elsewhere' | 'stranger', string> = { writer: '', reader: '', elsewhere: '', stranger: '' };
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'loan-desk-keys-'));
  const env = { LOAN_DESK_KEYS_DIR: keys };

  /** `npm run -s loan-desk:token -- …`, run as docs/guide/mcp-auth.md ("Try it with the loan desk") shows it. */
  async function mint(args: string[], keysDir = keys): Promise<string> {
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'loan-desk:token', '--', ...args], {
      cwd: repo,
      env: { ...process.env, LOAN_DESK_KEYS_DIR: keysDir },
    });
    return stdout.trim();
  }

  beforeAll(async () => {
    const started = start(['--auth', '--port', '0'], env);
    child = started.child;
    const ready = await started.ready;
    url = ready.url;
    printed = ready.out();
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'loan-desk-other-'));
    [tokens.writer, tokens.reader, tokens.elsewhere, tokens.stranger] = await Promise.all([
      mint(['--sub', 'officer-7', '--scope', 'loans:read loans:write', '--audience', url, '--expires', '10m']),
      mint(['--sub', 'auditor-1', '--scope', 'loans:read', '--audience', url]),
      mint(['--sub', 'officer-7', '--scope', 'loans:write', '--audience', 'http://127.0.0.1:1/mcp']),
      mint(['--sub', 'officer-7', '--scope', 'loans:write', '--audience', url], other), // another development key
    ]);
    fs.rmSync(other, { recursive: true, force: true });
  }, 90_000);

  afterAll(() => {
    child?.kill('SIGTERM');
    fs.rmSync(keys, { recursive: true, force: true });
  });

  it('prints how to mint a token, and keeps its development key out of reach', () => {
    expect(printed).toContain(`npm run -s loan-desk:token -- --sub officer-7 --scope "loans:read loans:write" --audience ${url}`);
    expect(fs.statSync(path.join(keys, 'signing-key.json')).mode & 0o077).toBe(0);
  });

  it('refuses a request without a token, pointing to its metadata document', async () => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(response.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(response.headers.get('www-authenticate') ?? '')![1];
    expect(await (await fetch(metadataUrl)).json()).toMatchObject({ resource: url, scopes_supported: ['loans:read', 'loans:write'] });
  });

  it('approves as the token’s subject; an x-officer-id header has no effect', async () => {
    const { client, transport } = await connect(url, { Authorization: `Bearer ${tokens.writer}`, 'x-officer-id': 'mallory' });
    try {
      const approved = await client.callTool({ name: 'approve_loan', arguments: { loanId: ada, amount: 1000 } });
      expect(approved.isError).toBeFalsy();
      const status = await client.callTool({ name: 'loan_status', arguments: { loanId: ada } });
      expect(status.structuredContent).toMatchObject({ state: 'approved', approvedBy: 'officer-7' });
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('a read-only token sees no write tools and cannot call them', async () => {
    const { client, transport } = await connect(url, { Authorization: `Bearer ${tokens.reader}` });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['check_credit', 'list_loans', 'loan_status']);
      await expect(client.callTool({ name: 'cancel_loan', arguments: { loanId: alan } })).rejects.toThrow('MCP error -32602: Unknown tool: cancel_loan');
      const status = await client.callTool({ name: 'loan_status', arguments: { loanId: alan } });
      expect(status.structuredContent).toMatchObject({ state: 'pending' });
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('guards the HTTP API at /api with the same tokens: 401 without one; a reader neither sees nor reaches the write tools', async () => {
    const api = url.replace(/\/mcp$/, '/api');
    const none = await fetch(`${api}/check_credit/v1?applicant=Ada`);
    expect([none.status, none.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    const stranger = await fetch(`${api}/check_credit/v1?applicant=Ada`, { headers: { authorization: `Bearer ${tokens.stranger}` } });
    expect(stranger.status).toBe(401);
    const write = await fetch(`${api}/cancel_loan/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.reader}`, 'content-type': 'application/json' },
      body: JSON.stringify({ loanId: alan }),
    });
    expect([write.status, ((await write.json()) as { detail: string }).detail]).toEqual([
      404,
      'No such endpoint: POST /api/cancel_loan/v1. The API is described at /api/openapi.json.',
    ]);
    const document = (await (await fetch(`${api}/openapi.json`, { headers: { authorization: `Bearer ${tokens.reader}` } })).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths)).toEqual(['/api/check_credit/v1', '/api/list_loans/v1', '/api/loan_status/v1']);
    const read = await fetch(`${api}/loan_status/v1?loanId=${alan}`, { headers: { authorization: `Bearer ${tokens.reader}` } });
    expect([read.status, ((await read.json()) as { state: string }).state]).toEqual([200, 'pending']);
  });

  it('refuses a token for another server, and one signed with another key', async () => {
    for (const token of [tokens.elsewhere, tokens.stranger]) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
        body: '{}',
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });
});
