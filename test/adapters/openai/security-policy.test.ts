import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isToolwrightError } from 'toolwright';
import { McpSecurityError, McpSecurityPolicy, SENSITIVE_ENV_PATTERNS, Toolbox } from 'toolwright/openai';

/** A command that would leave a marker file if it were ever started. */
function markerCommand() {
  const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-policy-')), 'started');
  return { marker, config: { command: 'node', args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] } };
}

async function denial(run: () => Promise<unknown>): Promise<McpSecurityError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(McpSecurityError);
  expect(isToolwrightError(error)).toBe(true);
  return error as McpSecurityError;
}

describe('fail-closed by default', () => {
  it('omitting the policy allows no command, and nothing is started', async () => {
    const { marker, config } = markerCommand();
    const toolbox = new Toolbox();
    const error = await denial(() => toolbox.addMcpServer('files', config));
    expect([error.server, error.transport, error.rule]).toEqual(['files', 'command', 'allowCommands']);
    expect(error.message).toBe(
      "MCP server 'files' (command transport) denied by the security policy: starting local commands is not allowed. Pass a policy with allowCommands: true (and a commandAllowlist).",
    );
    expect(fs.existsSync(marker)).toBe(false);
    expect(toolbox.names()).toEqual([]);
  });

  it('omitting the policy allows no URL', async () => {
    const error = await denial(() => new Toolbox().addMcpServer('remote', { url: 'https://tools.example.com/mcp' }));
    expect([error.transport, error.rule]).toEqual(['url', 'allowUrls']);
    expect(error.message).toBe(
      "MCP server 'remote' (URL transport) denied by the security policy: reaching servers by URL is not allowed. Pass a policy with allowUrls: true (and a hostAllowlist).",
    );
  });

  it('loading a config file is not an act of trust: no policy, nothing started', async () => {
    const { marker, config } = markerCommand();
    const file = path.join(path.dirname(marker), 'mcp.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { files: config } }));
    const error = await denial(() => new Toolbox().loadMcpConfig(file));
    expect(error.rule).toBe('allowCommands');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('the empty policy is the deny-all policy', () => {
    expect(() => McpSecurityPolicy.denyAll().check('x', { command: 'node' })).toThrow(McpSecurityError);
    expect(() => new McpSecurityPolicy().check('x', { url: 'https://a.example' })).toThrow(McpSecurityError);
  });
});

describe('each rule, allowed and denied', () => {
  const commands = new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['npx', 'node'] });
  const urls = new McpSecurityPolicy({ allowUrls: true, hostAllowlist: ['Tools.Example.com'] });

  const cases: Array<[string, McpSecurityPolicy, Parameters<McpSecurityPolicy['check']>[1], string | null]> = [
    ['a listed bare command', commands, { command: 'npx', args: ['-y', 'server'] }, null],
    ['an unlisted command', commands, { command: 'bash' }, "commandAllowlist: the command 'bash' is not in the allowlist ('npx' and 'node')."],
    ['a path to a listed command', commands, { command: '/usr/bin/node' }, "commandAllowlist: the command '/usr/bin/node' is a path, and the allowlist takes bare names only."],
    ['a relative path', commands, { command: './node' }, "commandAllowlist: the command './node' is a path, and the allowlist takes bare names only."],
    ['any command without an allowlist', new McpSecurityPolicy({ allowCommands: true }), { command: '/opt/bin/server' }, null],
    ['commands allowed, URLs not', commands, { url: 'https://tools.example.com/mcp' }, 'allowUrls: reaching servers by URL is not allowed.'],
    ['https to a listed host, compared case-insensitively', urls, { url: 'https://TOOLS.example.COM/mcp' }, null],
    ['wss to a listed host', urls, { url: 'wss://tools.example.com/mcp' }, null],
    ['an unlisted host', urls, { url: 'https://evil.example.com/mcp' }, "hostAllowlist: the host evil.example.com is not in the allowlist ('tools.example.com')."],
    ['plain http to another machine', new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true }), { url: 'http://tools.example.com/mcp' }, 'scheme: plain http to tools.example.com is refused; use https (plain http is allowed on loopback only, with allowPlainHttpOnLoopback).'],
    ['plain http on loopback without the option', new McpSecurityPolicy({ allowUrls: true }), { url: 'http://127.0.0.1:3000/mcp' }, 'scheme: plain http is refused; use https, or allowPlainHttpOnLoopback: true for a server on this machine.'],
    ['plain http on loopback with the option', new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true }), { url: 'http://localhost:3000/mcp' }, null],
    ['another scheme', new McpSecurityPolicy({ allowUrls: true }), { url: 'ftp://tools.example.com/mcp' }, 'scheme: the scheme ftp: is refused; use https.'],
    ['trusted(): any command', McpSecurityPolicy.trusted(), { command: '/usr/local/bin/anything' }, null],
    ['trusted(): plain http anywhere', McpSecurityPolicy.trusted(), { url: 'http://tools.example.com/mcp' }, null],
  ];

  it.each(cases)('%s', (_label, policy, config, denied) => {
    if (denied === null) {
      expect(() => policy.check('srv', config)).not.toThrow();
      return;
    }
    let error: McpSecurityError | undefined;
    try {
      policy.check('srv', config);
    } catch (e) {
      error = e as McpSecurityError;
    }
    expect(error).toBeInstanceOf(McpSecurityError);
    const [rule, message] = [denied.slice(0, denied.indexOf(':')), denied.slice(denied.indexOf(':') + 2)];
    expect(error!.rule).toBe(rule);
    expect(error!.message).toContain(`MCP server 'srv' (${'command' in config ? 'command' : 'URL'} transport) denied by the security policy: ${message}`);
  });

  it('refuses a path in the allowlist itself, and unknown or malformed options', () => {
    expect(() => new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['/usr/bin/node'] })).toThrow(
      "McpSecurityPolicy: the command allowlist takes bare names (such as 'npx' or 'node'); '/usr/bin/node' has a path separator.",
    );
    expect(() => new McpSecurityPolicy({ allowCommand: true } as never)).toThrow("McpSecurityPolicy: unknown option 'allowCommand'.");
    expect(() => new McpSecurityPolicy({ allowUrls: 'yes' as never })).toThrow("McpSecurityPolicy: 'allowUrls' must be true or false; got 'yes'.");
    expect(() => new Toolbox().addMcpServer('x', { command: 'node' }, { security: { allowCommands: true } as never })).rejects.toThrow(
      "addMcpServer: 'security' must be an McpSecurityPolicy",
    );
  });
});

describe('the environment of a server process', () => {
  const parent = { PATH: '/usr/bin', HOME: '/home/me', OPENAI_API_KEY: 'sk-1', FAKE_API_KEY: 'x', db_password: 'p', GITHUB_ACCESS_TOKEN: 't', LANG: 'C' };

  it('is the parent’s minus sensitive names (case-insensitive), plus everything the server’s config sets', () => {
    const env = new McpSecurityPolicy({ allowCommands: true }).environment({ MY_SERVICE_TOKEN: 'mine', OPENAI_API_KEY: 'server-own' }, parent);
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/me', LANG: 'C', MY_SERVICE_TOKEN: 'mine', OPENAI_API_KEY: 'server-own' });
  });

  it('patterns are configurable, and filtering can be turned off', () => {
    expect(new McpSecurityPolicy({ sensitiveEnvPatterns: ['LANG'] }).environment({}, parent)).not.toHaveProperty('LANG');
    expect(new McpSecurityPolicy({ filterSensitiveEnv: false }).environment({}, parent)).toEqual(parent);
    expect(SENSITIVE_ENV_PATTERNS).toContain('API_KEY');
  });
});

describe('server configs', () => {
  const toolbox = new Toolbox();
  const trusted = { security: McpSecurityPolicy.trusted() };
  const bad: Array<[string, unknown, unknown, string]> = [
    ['a bad alias', 'my server', { command: 'node' }, "addMcpServer: the server alias 'my server' must be letters, digits, '_' or '-'"],
    ['neither command nor url', 'a', {}, "MCP server 'a': give either a command (stdio) or a url (Streamable HTTP), one of them."],
    ['both', 'a', { command: 'node', url: 'https://x.example' }, "MCP server 'a': give either a command (stdio) or a url (Streamable HTTP), not both."],
    ['an unknown key', 'a', { command: 'node', argv: [] }, "MCP server 'a': unknown key 'argv'. Known keys: command, args, env, cwd."],
    ['args that are not strings', 'a', { command: 'node', args: [1] }, "MCP server 'a': 'args' must be a list of strings; got [1]."],
    ['env values that are not strings', 'a', { command: 'node', env: { PORT: 3000 } }, "MCP server 'a': 'env' must be an object of string values"],
    ['an invalid URL', 'a', { url: 'not a url' }, "MCP server 'a': 'url' 'not a url' is not a valid URL."],
    ['the SSE transport', 'a', { type: 'sse', url: 'https://x.example/sse' }, "MCP server 'a': the SSE transport is deprecated and not supported; use a Streamable HTTP url."],
    ['a type that does not match', 'a', { type: 'http', command: 'node' }, "MCP server 'a': type 'http' does not match a command config."],
  ];
  it.each(bad)('refuses %s', async (_label, alias, config, message) => {
    await expect(toolbox.addMcpServer(alias as string, config, trusted)).rejects.toThrow(message);
  });

  it('refuses config files that are missing, not JSON, or of the wrong shape', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-config-'));
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    await expect(toolbox.loadMcpConfig(path.join(dir, 'none.json'), trusted)).rejects.toThrow(`loadMcpConfig: cannot read ${path.join(dir, 'none.json')}`);
    await expect(toolbox.loadMcpConfig(write('broken.json', '{'), trusted)).rejects.toThrow('is not valid JSON');
    await expect(toolbox.loadMcpConfig(write('shape.json', '{"servers":{}}'), trusted)).rejects.toThrow('must hold { "mcpServers": { "<alias>": { … } } }.');
  });
});
