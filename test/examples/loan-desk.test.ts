/**
 * The example application, started as a child process exactly as a client would start it: over
 * stdio (a desktop client's launch) and over Streamable HTTP (`npm start`).
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const repo = path.resolve(__dirname, '..', '..');
const node = ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'examples/loan-desk/main.ts'];
const ada = '6f1c9a52-3b0e-4c52-9a8e-1f2d3c4b5a60';
const grace = '0b7e4d21-8c3a-4f19-b6d2-7e5a9c1f3d42';
const alan = 'c3a5e7f9-1b2d-4e6f-8a0c-2d4f6b8e0a13';

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
});

describe('the loan desk over Streamable HTTP (npm start)', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    child = spawn(process.execPath, [...node, '--port', '0'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /serving MCP on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`the example exited with ${code}: ${out}`)));
    });
  }, 30_000);

  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('serves on 127.0.0.1 and takes the officer id from the request', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-officer-id': 'officer-from-header' } } });
    const client = new Client({ name: 'loan-desk-http', version: '1.0.0' });
    await client.connect(transport);
    try {
      const approved = await client.callTool({ name: 'approve_loan', arguments: { loanId: grace, amount: 150000 } });
      expect(approved.structuredContent).toMatchObject({ tier: 'standard' });
      const status = await client.callTool({ name: 'loan_status', arguments: { loanId: grace } });
      expect(status.structuredContent).toMatchObject({ state: 'approved', approvedBy: 'officer-from-header' });
      const list = await client.callTool({ name: 'list_loans', arguments: { state: 'pending' } });
      expect((list.structuredContent as { loans: Array<{ applicant: string }> }).loans.map((l) => l.applicant)).toEqual(['Ada Lovelace', 'Alan Turing']);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});
