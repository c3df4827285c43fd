/**
 * Remote MCP servers mounted in a Toolbox, against real servers: the loan-desk example over stdio
 * and Streamable HTTP, a third-party server from npm, and a small fixture server.
 */
import 'reflect-metadata';
import * as os from 'node:os';
import * as path from 'node:path';
import { Tool } from 'toolwright';
import { serveHttp, McpHttpHandle } from 'toolwright/mcp';
import { McpSecurityPolicy, Toolbox } from 'toolwright/openai';
import { loanDeskServer } from '../../../examples/loan-desk/server';
import '../../../examples/loan-desk/tools';

const repo = path.resolve(__dirname, '..', '..', '..');
const fixture = path.join(repo, 'test', 'fixtures', 'mcp', 'fixture-server.cjs');
const commands = { security: new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'] }) };
const grace = '0b7e4d21-8c3a-4f19-b6d2-7e5a9c1f3d42';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the loan desk, mounted', () => {
  const toolbox = new Toolbox();
  let http: McpHttpHandle;
  afterAll(async () => {
    await toolbox.close();
    await http?.close();
  });

  it('over stdio, started as a child process: qualified names, copied schemas, calls by wire name', async () => {
    const names = await toolbox.addMcpServer(
      'desk',
      {
        command: 'node',
        args: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'examples/loan-desk/main.ts', '--stdio'],
        cwd: repo,
        env: { LOAN_DESK_OFFICER: 'remote-officer' },
      },
      // The desk's scripts are relative to the repository: a config cwd needs allowCwd.
      { security: new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'], allowCwd: true }) },
    );
    expect(names).toEqual(['mcp__desk__approve_loan', 'mcp__desk__cancel_loan', 'mcp__desk__check_credit', 'mcp__desk__list_loans', 'mcp__desk__loan_status']);
    expect(toolbox.names()).toEqual(names);

    const [approve] = toolbox.schemas({ only: ['mcp__desk__approve_loan'] });
    expect(approve.function.description).toBe('Approve a pending loan, choosing the processing tier');
    expect(approve.function.parameters).toMatchObject({ type: 'object', required: ['loanId', 'amount'], additionalProperties: false });
    // Copied, never shared: editing what was handed out changes nothing later.
    (approve.function.parameters.properties as Record<string, unknown>).loanId = 'tampered';
    expect((toolbox.schemas({ only: ['mcp__desk__approve_loan'] })[0].function.parameters.properties as Record<string, unknown>).loanId).not.toBe('tampered');

    const credit = await toolbox.invoke({ id: 'c1', name: 'mcp__desk__check_credit', arguments: '{"applicant":"Grace Hopper"}' });
    expect(credit).toMatchObject({ status: 'completed', output: '{"score":768,"band":"excellent"}', data: { score: 768, band: 'excellent' } });

    const approved = await toolbox.invoke({ name: 'mcp__desk__approve_loan', arguments: { loanId: grace, amount: 5000 } });
    expect(approved.status).toBe('completed');
    const status = await toolbox.invoke({ name: 'mcp__desk__loan_status', arguments: { loanId: grace } });
    expect(status.data).toMatchObject({ state: 'approved', approvedBy: 'remote-officer' });

    // The server's own failures and input errors reach the model as failed records.
    const refused = await toolbox.invoke({ name: 'mcp__desk__cancel_loan', arguments: { loanId: grace } });
    expect(refused).toMatchObject({ status: 'failed', output: 'Could not cancel the loan: an approved loan cannot be cancelled' });
    const invalid = await toolbox.invoke({ name: 'mcp__desk__approve_loan', arguments: { loanId: 'x', amount: 1 } });
    expect(invalid).toMatchObject({ status: 'failed', output: 'Could not approve the loan: loanId must be a UUID' });
  }, 30_000);

  it('over Streamable HTTP on 127.0.0.1', async () => {
    http = await serveHttp(loanDeskServer, { port: 0 });
    const policy = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });
    const names = await toolbox.addMcpServer('deskhttp', { url: http.url, headers: { 'x-officer-id': 'http-officer' } }, { security: policy });
    expect(names).toContain('mcp__deskhttp__list_loans');
    const list = await toolbox.invoke({ name: 'mcp__deskhttp__list_loans', arguments: { state: 'pending' } });
    expect(list.status).toBe('completed');
    expect((list.data as { loans: unknown[] }).loans.length).toBeGreaterThan(0);
    // Over HTTP the connection negotiates (protocol 'auto'): the loan desk speaks 2026-07-28, stateless.
    expect(http.sessions()).toBe(0);
    // Pinned to 2025-11-25 the same server is reached through a session.
    await toolbox.addMcpServer('desk25', { url: http.url, protocol: '2025-11-25', headers: { 'x-officer-id': 'http-officer' } }, { security: policy });
    const legacy = await toolbox.invoke({ name: 'mcp__desk25__list_loans', arguments: { state: 'pending' } });
    expect(legacy.data).toEqual(list.data);
    expect(http.sessions()).toBe(1);
  });
});

// URL.hostname keeps IPv6 brackets ('[::1]'); the policy compares hosts without them.
const hasIpv6Loopback = Object.values(os.networkInterfaces()).some((addresses) => addresses?.some((a) => a.address === '::1'));

describe('a server on IPv6 loopback', () => {
  (hasIpv6Loopback ? it : it.skip)(
    hasIpv6Loopback ? "hostAllowlist ['::1'] admits http://[::1]:port over real HTTP" : 'skipped: this machine has no IPv6 loopback (::1)',
    async () => {
      const http = await serveHttp(loanDeskServer, { host: '::1', port: 0 });
      const toolbox = new Toolbox();
      try {
        expect(http.url).toMatch(/^http:\/\/\[::1\]:\d+\/mcp$/);
        const security = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['::1'] });
        const names = await toolbox.addMcpServer('v6', { url: http.url }, { security });
        expect(names).toContain('mcp__v6__check_credit');
        const credit = await toolbox.invoke({ name: 'mcp__v6__check_credit', arguments: { applicant: 'Grace Hopper' } });
        expect(credit).toMatchObject({ status: 'completed', data: { score: 768 } });
      } finally {
        await toolbox.close();
        await http.close();
      }
    },
  );
});

describe('a third-party server from npm', () => {
  it('mounts @modelcontextprotocol/server-everything over stdio, lists and calls it', async () => {
    const toolbox = new Toolbox();
    try {
      const entry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
      const names = await toolbox.addMcpServer('everything', { command: 'node', args: [entry, 'stdio'] }, commands);
      expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']));
      const echo = await toolbox.invoke({ name: 'mcp__everything__echo', arguments: { message: 'hello' } });
      expect(echo).toMatchObject({ status: 'completed', output: 'Echo: hello' });
      const sum = await toolbox.invoke({ name: 'mcp__everything__get-sum', arguments: { a: 2, b: 3 } });
      expect(sum.status).toBe('completed');
      expect(sum.output).toContain('5');
    } finally {
      await toolbox.close();
    }
  }, 30_000);
});

describe('the fixture server', () => {
  const fixtureConfig = (env: Record<string, string> = {}) => ({ command: 'node', args: [fixture], env });

  it('the environment is an allowlist: the SDK default set, the config env and passEnv, exactly; no parent secret arrives', async () => {
    const secrets = {
      GITHUB_TOKEN: 'ghp_should_not_leak',
      NPM_TOKEN: 'npm_should_not_leak',
      HF_TOKEN: 'hf_should_not_leak',
      DATABASE_URL: 'postgres://u:p@h/db',
      SSH_AUTH_SOCK: '/tmp/ssh-agent.sock',
      NODE_OPTIONS: '--max-old-space-size=4096',
      HTTPS_PROXY: 'http://proxy.internal:3128',
    };
    const saved = { ...process.env };
    Object.assign(process.env, secrets);
    const toolbox = new Toolbox();
    try {
      const security = new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'], passEnv: ['HTTPS_PROXY', 'NOT_SET_ANYWHERE'] });
      await toolbox.addMcpServer('envcheck', fixtureConfig({ MY_SERVICE_TOKEN: 'configured' }), { security });
      const names = JSON.parse((await toolbox.invoke({ name: 'mcp__envcheck__env', arguments: {} })).output) as string[];
      const sdkDefaults = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].filter((name) => process.env[name] !== undefined);
      expect(sdkDefaults).toContain('PATH');
      expect(names).toEqual([...sdkDefaults, 'HTTPS_PROXY', 'MY_SERVICE_TOKEN'].sort());
      expect(Object.keys(await security.environment({ MY_SERVICE_TOKEN: 'configured' })).sort()).toEqual(names);
    } finally {
      for (const name of Object.keys(secrets)) delete process.env[name];
      Object.assign(process.env, saved);
      await toolbox.close();
    }
  });

  it('maps results: structured content, one text block unwrapped, several as JSON, isError as a failed record', async () => {
    const toolbox = new Toolbox();
    try {
      await toolbox.addMcpServer('fx', fixtureConfig(), commands);
      expect(await toolbox.invoke({ name: 'mcp__fx__echo', arguments: { text: 'hi' } })).toMatchObject({ status: 'completed', output: '{"text":"hi"}', data: { text: 'hi' } });
      expect(await toolbox.invoke({ name: 'mcp__fx__plain', arguments: {} })).toMatchObject({ status: 'completed', output: 'just text' });
      expect((await toolbox.invoke({ name: 'mcp__fx__multi', arguments: {} })).output).toBe('[{"type":"text","text":"one"},{"type":"text","text":"two"}]');
      expect(await toolbox.invoke({ name: 'mcp__fx__refuse', arguments: {} })).toMatchObject({ status: 'failed', output: 'The fixture refuses.' });
      expect(await toolbox.invoke({ name: 'mcp__fx__echo', arguments: '[1]' })).toMatchObject({ status: 'failed', output: 'Invalid tool arguments: arguments must be an object' });
      // A missing `required` means none: the plain tool's schema had neither properties nor required.
      expect(toolbox.schemas({ only: ['mcp__fx__plain'] })[0].function.parameters).toEqual({ type: 'object', properties: {} });
    } finally {
      await toolbox.close();
    }
  });

  it('two servers exposing the same tool name coexist under their aliases; a local tool cannot wear a remote name', async () => {
    // Local names are sanitized, so runs of '_' collapse: no local tool can ever be named like a
    // remote one (mcp__alias__tool), and so a remote tool can never replace a local one.
    @Tool({ adapters: { openai: { name: 'mcp__a__echo' } } })
    class LocalEcho {
      call() {
        return 'local';
      }
    }
    const toolbox = new Toolbox([LocalEcho]);
    try {
      await toolbox.addMcpServer('a', fixtureConfig(), commands);
      await toolbox.addMcpServer('b', fixtureConfig(), commands);
      expect(toolbox.names()).toEqual(expect.arrayContaining(['mcp_a_echo', 'mcp__a__echo', 'mcp__b__echo']));
      expect((await toolbox.invoke({ name: 'mcp_a_echo', arguments: {} })).output).toBe('"local"');
      expect((await toolbox.invoke({ name: 'mcp__a__echo', arguments: { text: 'from a' } })).output).toBe('{"text":"from a"}');
      expect((await toolbox.invoke({ name: 'mcp__b__echo', arguments: { text: 'from b' } })).output).toBe('{"text":"from b"}');
      await expect(toolbox.addMcpServer('a', fixtureConfig(), commands)).rejects.toThrow(
        "addMcpServer: an MCP server is already mounted as 'a'. Pass { update: true } to replace it, or choose another alias.",
      );
      // With update, a server replaces its own earlier mount, in place.
      const before = toolbox.names();
      await toolbox.addMcpServer('a', fixtureConfig(), { ...commands, update: true });
      expect(toolbox.names()).toEqual(before);
    } finally {
      await toolbox.close();
    }
    expect(toolbox.names()).toEqual(['mcp_a_echo']);
  });

  it('all or nothing: one unmountable tool leaves the toolbox unchanged, naming each failure', async () => {
    const toolbox = new Toolbox();
    await toolbox.addMcpServer('good', fixtureConfig(), commands);
    const before = toolbox.names();
    await expect(toolbox.addMcpServer('bad', fixtureConfig({ FIXTURE_TOOLS: 'bad' }), commands)).rejects.toThrow(
      "MCP server 'bad': 2 of its 14 tools cannot be mounted, so none were: 'files.read': its name mcp__bad__files.read has characters other than letters, digits, '_' and '-'; " +
        `'${'x'.repeat(60)}': its name mcp__bad__${'x'.repeat(60)} is 70 characters long; function names are at most 64 and are never truncated (use a shorter server alias).`,
    );
    expect(toolbox.names()).toEqual(before);
    await toolbox.close();
  });

  it('re-establishes a dropped connection once per call; close() ends every connection', async () => {
    const toolbox = new Toolbox();
    await toolbox.addMcpServer('fx', fixtureConfig(), commands);
    const pid = Number((await toolbox.invoke({ name: 'mcp__fx__pid', arguments: {} })).output);
    expect(alive(pid)).toBe(true);
    const crash = await toolbox.invoke({ name: 'mcp__fx__crash', arguments: {} });
    // Not retried: the call may have run (the tool is neither read-only nor idempotent).
    expect(crash.status).toBe('failed');
    expect(crash.output).toMatch(/^The tool 'crash' on MCP server 'fx' could not be reached: .*Connection closed/);
    await eventually(() => !alive(pid));
    const again = Number((await toolbox.invoke({ name: 'mcp__fx__pid', arguments: {} })).output);
    expect(again).not.toBe(pid);
    expect(alive(again)).toBe(true);

    await toolbox.close();
    expect(toolbox.names()).toEqual([]);
    await eventually(() => !alive(again));
    expect(alive(again)).toBe(false);
  });

  it('a read-only tool whose connection drops during the call is retried once on a new connection', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-flaky-')), 'crashed');
    const toolbox = new Toolbox();
    try {
      await toolbox.addMcpServer('fx', fixtureConfig({ FIXTURE_MARKER: marker }), commands);
      const flaky = await toolbox.invoke({ name: 'mcp__fx__flaky', arguments: {} });
      const crashedPid = Number(fs.readFileSync(marker, 'utf8'));
      expect(flaky.status).toBe('completed');
      expect(flaky.output).toMatch(/^answered by \d+$/);
      expect(flaky.output).not.toBe(`answered by ${crashedPid}`);
    } finally {
      await toolbox.close();
    }
  });

  it('loads a config file: every server, all or nothing', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-mcp-config-'));
    const file = path.join(dir, 'mcp.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { one: fixtureConfig(), two: fixtureConfig() } }));
    const toolbox = new Toolbox();
    try {
      const mounted = await toolbox.loadMcpConfig(file, commands);
      expect(Object.keys(mounted)).toEqual(['one', 'two']);
      expect(mounted.one).toContain('mcp__one__echo');
    } finally {
      await toolbox.close();
    }
    // The second server fails to mount: the first is unmounted again.
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { ok: fixtureConfig(), broken: fixtureConfig({ FIXTURE_TOOLS: 'bad' }) } }));
    const other = new Toolbox();
    await expect(other.loadMcpConfig(file, commands)).rejects.toThrow("MCP server 'broken': 2 of its 14 tools cannot be mounted");
    expect(other.names()).toEqual([]);
  });
});
