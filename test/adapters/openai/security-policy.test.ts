import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isToolwrightError } from 'toolwright';
import { McpSecurityError, McpSecurityPolicy, REFUSED_ENV_VARIABLES, Toolbox } from 'toolwright/openai';

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
    ['a loader variable in env', commands, { command: 'node', env: { NODE_OPTIONS: '--require /tmp/x.js' } }, "allowEnv: its env sets NODE_OPTIONS, which can change what runs or what it trusts. Remove it from the config, or allow it by name with allowEnv: ['NODE_OPTIONS']."],
    ['a variable under a refused prefix, in any case', commands, { command: 'node', env: { ld_preload: '/tmp/x.so' } }, "allowEnv: its env sets ld_preload, which (like every LD_*) can change what runs or what it trusts. Remove it from the config, or allow it by name with allowEnv: ['ld_preload']."],
    ['PATH in env', commands, { command: 'node', env: { PATH: '/attacker:/usr/bin' } }, "allowEnv: its env sets PATH, which can change what runs"],
    ['npm configuration in env (npx would install from another registry)', commands, { command: 'npx', env: { npm_config_registry: 'https://evil.example' } }, 'allowEnv: its env sets npm_config_registry, which (like every NPM_CONFIG_*) can'],
    ['a loader variable allowed by name', new McpSecurityPolicy({ allowCommands: true, allowEnv: ['NODE_OPTIONS'] }), { command: 'node', env: { NODE_OPTIONS: '--max-old-space-size=64', PORT: '1' } }, null],
    ['a refused pattern allowed as listed', new McpSecurityPolicy({ allowCommands: true, allowEnv: ['GIT_*'] }), { command: 'node', env: { GIT_AUTHOR_NAME: 'x' } }, null],
    ['one allowed name does not allow another', new McpSecurityPolicy({ allowCommands: true, allowEnv: ['LD_LIBRARY_PATH'] }), { command: 'node', env: { LD_LIBRARY_PATH: '/opt/lib', LD_PRELOAD: '/tmp/x.so' } }, 'allowEnv: its env sets LD_PRELOAD'],
    ['ordinary variables in env', commands, { command: 'node', env: { NODE_ENV: 'production', GITHUB_TOKEN: 't', HTTPS_PROXY: 'http://proxy:3128' } }, null],
    ['a cwd', commands, { command: 'node', cwd: '/attacker' }, "allowCwd: its config sets cwd '/attacker'. Remove it, or pass a policy with allowCwd: true."],
    ['a cwd with allowCwd', new McpSecurityPolicy({ allowCommands: true, allowCwd: true }), { command: 'node', cwd: '/srv' }, null],
    ['hostAllowlist ::1 and a URL on [::1]', new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['::1'] }), { url: 'http://[::1]:3000/mcp' }, null],
    ['hostAllowlist [::1] and a URL on [0:0::1]', new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['[::1]'] }), { url: 'http://[0:0:0:0:0:0:0:1]:3000/mcp' }, null],
    ['a host with a trailing dot', new McpSecurityPolicy({ allowUrls: true, hostAllowlist: ['tools.example.com.'] }), { url: 'https://Tools.Example.com./mcp' }, null],
    ['::1 listed, 127.0.0.1 asked', new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['::1'] }), { url: 'http://127.0.0.1:3000/mcp' }, "hostAllowlist: the host 127.0.0.1 is not in the allowlist ('::1')."],
    ['plain http to 127.0.0.2 (loopback is 127.0.0.0/8)', new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true }), { url: 'http://127.0.0.2:3000/mcp' }, null],
    ['plain http to an IPv4-mapped loopback address', new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true }), { url: 'http://[::ffff:127.0.0.1]:3000/mcp' }, null],
    ['plain http to a name that merely starts like loopback', new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true }), { url: 'http://127.0.0.1.nip.io/mcp' }, 'scheme: plain http to 127.0.0.1.nip.io is refused'],
    ['plain http to 128.0.0.1', new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true }), { url: 'http://128.0.0.1/mcp' }, 'scheme: plain http to 128.0.0.1 is refused'],
    ['trusted(): any command', McpSecurityPolicy.trusted(), { command: '/usr/local/bin/anything' }, null],
    ['trusted(): any env and cwd', McpSecurityPolicy.trusted(), { command: 'node', env: { NODE_OPTIONS: '-r x', PATH: '.' }, cwd: '/srv' }, null],
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
    expect(() => new McpSecurityPolicy({ allowCwd: 1 as never })).toThrow("McpSecurityPolicy: 'allowCwd' must be true or false; got 1.");
    expect(() => new McpSecurityPolicy({ hostAllowlist: ['https://tools.example.com'] })).toThrow(
      "McpSecurityPolicy: the hostAllowlist takes host names or IP addresses (no scheme, port, path or wildcard); got 'https://tools.example.com'.",
    );
    expect(() => new McpSecurityPolicy({ hostAllowlist: ['*.example.com'] })).toThrow("got '*.example.com'");
    expect(() => new McpSecurityPolicy({ hostAllowlist: ['tools.example.com:443'] })).toThrow("got 'tools.example.com:443'");
    expect(new McpSecurityPolicy({ hostAllowlist: ['[::1]', '::1', 'Tools.Example.COM.', '0:0:0:0:0:0:0:1'] }).hostAllowlist).toEqual(['::1', '::1', 'tools.example.com', '::1']);
    expect(() => new Toolbox().addMcpServer('x', { command: 'node' }, { security: { allowCommands: true } as never })).rejects.toThrow(
      "addMcpServer: 'security' must be an McpSecurityPolicy",
    );
  });
});

describe('server configs', () => {
  const toolbox = new Toolbox();
  const trusted = { security: McpSecurityPolicy.trusted() };
  const bad: Array<[string, unknown, unknown, string]> = [
    ['a bad alias', 'my server', { command: 'node' }, "addMcpServer: the server alias 'my server' must be letters, digits, '_' or '-'"],
    ['neither command nor url', 'a', {}, "MCP server 'a': give either a command (stdio) or a url (Streamable HTTP), one of them."],
    ['both', 'a', { command: 'node', url: 'https://x.example' }, "MCP server 'a': give either a command (stdio) or a url (Streamable HTTP), not both."],
    ['an unknown key', 'a', { command: 'node', argv: [] }, "MCP server 'a': unknown key 'argv'. Known keys: command, args, env, cwd, protocol."],
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

describe('environment options', () => {
  it('the removed blocklist options say the environment is now an allowlist and name passEnv', () => {
    for (const option of [{ sensitiveEnvPatterns: ['TOKEN'] }, { filterSensitiveEnv: false }]) {
      const name = Object.keys(option)[0];
      const message =
        `McpSecurityPolicy: '${name}' was removed: a server's environment is now an allowlist (the SDK's default variables, the config's own env, ` +
        "and what the policy names), so there is nothing to filter. Use passEnv: ['NAME', …] to pass a variable of this process on.";
      expect(() => new McpSecurityPolicy(option as never)).toThrow(new TypeError(message));
      expect(() => McpSecurityPolicy.trusted(option as never)).toThrow(new TypeError(message));
    }
  });

  it('allowEnv takes refused names or listed patterns; an ordinary name points to passEnv', () => {
    expect(() => new McpSecurityPolicy({ allowEnv: ['HTTPS_PROXY'] })).toThrow(
      "McpSecurityPolicy: allowEnv lists 'HTTPS_PROXY', which a server config may set anyway (allowEnv is for the refused variables, REFUSED_ENV_VARIABLES). " +
        "To pass this process's own value on to servers, use passEnv: ['HTTPS_PROXY'].",
    );
    expect(() => new McpSecurityPolicy({ allowEnv: ['LD_PRE*'] })).toThrow(
      "McpSecurityPolicy: 'allowEnv' takes environment variable names (or a pattern of REFUSED_ENV_VARIABLES, such as 'GIT_*'); 'LD_PRE*' is not one: it is a pattern REFUSED_ENV_VARIABLES does not list.",
    );
    expect(() => new McpSecurityPolicy({ passEnv: ['AWS_*'] })).toThrow("McpSecurityPolicy: 'passEnv' takes environment variable names; 'AWS_*' is not one: it is a pattern (passEnv takes exact names).");
    expect(() => new McpSecurityPolicy({ passEnv: ['A=B'] })).toThrow("'A=B' is not one: it has '=', so the process would receive the variable 'A' with the rest of the key in its value.");
    expect(() => new McpSecurityPolicy({ passEnv: 'HTTPS_PROXY' as never })).toThrow("McpSecurityPolicy: 'passEnv' must be a list of non-empty strings; got 'HTTPS_PROXY'.");
    expect(new McpSecurityPolicy({ allowEnv: ['node_options', 'LD_*'] }).allowEnv).toEqual(['NODE_OPTIONS', 'LD_*']);
  });

  it('the refused list names the loader and search-path variables', () => {
    expect(REFUSED_ENV_VARIABLES).toEqual(
      expect.arrayContaining(['PATH', 'NODE_OPTIONS', 'NODE_PATH', 'NODE_EXTRA_CA_CERTS', 'LD_*', 'DYLD_*', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PERL5OPT', 'PERL5LIB', 'RUBYOPT', 'RUBYLIB', 'BASH_ENV', 'ENV', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'GIT_*', 'NPM_CONFIG_*']),
    );
    expect(Object.isFrozen(REFUSED_ENV_VARIABLES)).toBe(true);
  });

  it("the security policy guide's table of refused names (docs/guide/remote-security.md) is the exported list, entry for entry", () => {
    const page = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'docs', 'guide', 'remote-security.md'), 'utf8');
    expect(page).toContain('| steers | refused names |');
    const table = page.slice(page.indexOf('| steers | refused names |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const listed = rows.flatMap((row) => row.split('|')[2].match(/`[^`]+`/g)!.map((name) => name.slice(1, -1)));
    expect(listed).toEqual([...REFUSED_ENV_VARIABLES]);
  });

  it('environment(): the SDK default set, plus passEnv from this process, plus the config env; nothing else', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { HTTPS_PROXY: 'http://proxy:3128', GITHUB_TOKEN: 'ghp_secret', DATABASE_URL: 'postgres://u:p@h/db', HOME: '/home/me', PATH: '/usr/bin:/bin' });
    delete process.env.NO_PROXY;
    try {
      const env = await new McpSecurityPolicy({ passEnv: ['HTTPS_PROXY', 'NO_PROXY'] }).environment({ MY_SERVICE_TOKEN: 'mine', HOME: '/srv/home' });
      const defaults = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].filter((name) => process.env[name] !== undefined);
      expect(Object.keys(env).sort()).toEqual([...new Set([...defaults, 'HTTPS_PROXY', 'MY_SERVICE_TOKEN'])].sort());
      expect(env).toMatchObject({ PATH: '/usr/bin:/bin', HOME: '/srv/home', HTTPS_PROXY: 'http://proxy:3128', MY_SERVICE_TOKEN: 'mine' });
      expect(await McpSecurityPolicy.trusted().environment()).not.toHaveProperty('GITHUB_TOKEN');
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});

describe('a config cannot escape the policy (real processes; nothing injected ever runs)', () => {
  const fixture = path.resolve(__dirname, '..', '..', 'fixtures', 'mcp', 'fixture-server.cjs');
  const commands = new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'] });

  /** An attacker's directory: an executable `node` and a script for --require, each leaving a marker. */
  function attacker() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-attacker-'));
    const ranNode = path.join(dir, 'attacker-node-ran');
    const injected = path.join(dir, 'injected-code-ran');
    fs.writeFileSync(path.join(dir, 'node'), `#!/bin/sh\necho ran > '${ranNode}'\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'x.js'), `require('fs').writeFileSync(${JSON.stringify(injected)}, 'x');\n`);
    return { dir, ranNode, injected, ran: () => fs.existsSync(ranNode) || fs.existsSync(injected) };
  }

  async function withPath<T>(value: string, run: () => Promise<T>): Promise<T> {
    const saved = process.env.PATH;
    process.env.PATH = value;
    try {
      return await run();
    } finally {
      process.env.PATH = saved;
    }
  }

  it('PATH in env cannot pick /attacker/node; even when allowed, the command is found on this process’s PATH', async () => {
    const evil = attacker();
    const config = { command: 'node', args: [fixture], env: { PATH: `${evil.dir}:/usr/bin:/bin` } };
    const error = await denial(() => new Toolbox().addMcpServer('srv', config, { security: commands }));
    expect(error.rule).toBe('allowEnv');
    expect(error.message).toContain("its env sets PATH, which can change what runs or what it trusts. Remove it from the config, or allow it by name with allowEnv: ['PATH'].");
    expect(evil.ran()).toBe(false);

    // Allowed, PATH is the server's own business, but never chooses the binary we start.
    const toolbox = new Toolbox();
    try {
      const security = new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'], allowEnv: ['PATH'] });
      await toolbox.addMcpServer('srv', config, { security });
      expect(toolbox.names()).toContain('mcp__srv__pid');
      expect(fs.existsSync(evil.ranNode)).toBe(false);
    } finally {
      await toolbox.close();
    }
  });

  it('NODE_OPTIONS --require cannot inject code into an allowed node (allowEnv lets it through by name)', async () => {
    const evil = attacker();
    const config = { command: 'node', args: [fixture], env: { NODE_OPTIONS: `--require ${path.join(evil.dir, 'x.js')}` } };
    const error = await denial(() => new Toolbox().addMcpServer('srv', config, { security: commands }));
    expect([error.rule, error.server, error.transport]).toEqual(['allowEnv', 'srv', 'command']);
    expect(error.message).toContain('its env sets NODE_OPTIONS');
    expect(evil.ran()).toBe(false);

    // The control: allowed by name, the same config does run the code, so the refusal above is what stopped it.
    const toolbox = new Toolbox();
    try {
      await toolbox.addMcpServer('srv', config, { security: new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'], allowEnv: ['NODE_OPTIONS'] }) });
      expect(fs.existsSync(evil.injected)).toBe(true);
    } finally {
      await toolbox.close();
    }
  });

  it('LD_PRELOAD (and any LD_*, DYLD_*) is refused; the command never ran', async () => {
    const { marker, config } = markerCommand();
    for (const env of [{ LD_PRELOAD: '/tmp/evil.so' }, { LD_AUDIT: '/tmp/evil.so' }, { DYLD_INSERT_LIBRARIES: '/tmp/evil.dylib' }]) {
      const error = await denial(() => new Toolbox().addMcpServer('srv', { ...config, env }, { security: commands }));
      expect(error.rule).toBe('allowEnv');
      expect(error.message).toContain(`its env sets ${Object.keys(env)[0]}, which (like every ${Object.keys(env)[0].slice(0, 3)}`);
    }
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('cwd with PATH "." cannot run ./node: refused, and even trusted() starts the real node', async () => {
    const evil = attacker();
    const { marker, config } = markerCommand();
    let error = await denial(() => new Toolbox().addMcpServer('srv', { ...config, cwd: evil.dir, env: { PATH: '.' } }, { security: commands }));
    expect(error.rule).toBe('allowEnv');
    error = await denial(() => new Toolbox().addMcpServer('srv', { ...config, cwd: evil.dir }, { security: commands }));
    expect(error.rule).toBe('allowCwd');
    expect(error.message).toContain(`its config sets cwd '${evil.dir}'. Remove it, or pass a policy with allowCwd: true.`);
    expect(fs.existsSync(marker)).toBe(false);
    expect(evil.ran()).toBe(false);

    const toolbox = new Toolbox();
    try {
      await toolbox.addMcpServer('srv', { command: 'node', args: [fixture], cwd: evil.dir, env: { PATH: '.' } }, { security: McpSecurityPolicy.trusted() });
      expect(toolbox.names()).toContain('mcp__srv__pid');
      expect(evil.ran()).toBe(false);
    } finally {
      await toolbox.close();
    }
  });

  it("a command './node' is refused by an allowlist, and without one is taken relative to this process, never to the config's cwd", async () => {
    const evil = attacker();
    const error = await denial(() => new Toolbox().addMcpServer('srv', { command: './node', cwd: evil.dir }, { security: commands }));
    expect(error.rule).toBe('commandAllowlist');
    await expect(new Toolbox().addMcpServer('srv', { command: './node', cwd: evil.dir }, { security: McpSecurityPolicy.trusted() })).rejects.toThrow(
      new TypeError(`MCP server 'srv': the command './node' does not exist (looked for ${path.resolve('node')}).`),
    );
    expect(evil.ran()).toBe(false);
  });

  it('the same attacks through loadMcpConfig: every server is checked before any starts', async () => {
    const evil = attacker();
    const { marker, config } = markerCommand();
    const file = path.join(evil.dir, 'mcp.json');
    const attacks: Array<[Record<string, unknown>, string]> = [
      [{ command: 'node', args: [fixture], env: { PATH: `${evil.dir}:/usr/bin` } }, 'allowEnv'],
      [{ command: 'node', args: [fixture], env: { NODE_OPTIONS: `--require ${path.join(evil.dir, 'x.js')}` } }, 'allowEnv'],
      [{ command: 'node', args: [fixture], env: { LD_PRELOAD: '/tmp/evil.so' } }, 'allowEnv'],
      [{ command: 'node', args: [fixture], cwd: evil.dir }, 'allowCwd'],
      [{ command: './node', args: [fixture] }, 'commandAllowlist'],
    ];
    for (const [attack, rule] of attacks) {
      // The harmless server comes first in the file: it must not have been started either.
      fs.writeFileSync(file, JSON.stringify({ mcpServers: { first: config, attack } }));
      const toolbox = new Toolbox();
      const error = await denial(() => toolbox.loadMcpConfig(file, { security: commands }));
      expect([error.server, error.rule]).toEqual(['attack', rule]);
      expect(toolbox.names()).toEqual([]);
    }
    expect(fs.existsSync(marker)).toBe(false);
    expect(evil.ran()).toBe(false);
  });

  it('a bare command is resolved on this process’s PATH; the absolute path is what starts and what errors name', async () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-bin-'));
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const failing = { command: 'node', args: ['-e', 'process.exit(7)'] };
    await withPath(bin, () =>
      expect(new Toolbox().addMcpServer('srv', failing, { security: commands })).rejects.toThrow(`MCP server 'srv': starting '${path.join(bin, 'node')}' failed:`),
    );
  });

  it('a command missing from PATH, or not executable there, is a clear error; relative PATH entries are skipped', async () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-bin-'));
    fs.writeFileSync(path.join(bin, 'node'), '#!/bin/sh\n', { mode: 0o644 });
    const { marker, config } = markerCommand();
    await withPath(`.:${bin}`, () =>
      expect(new Toolbox().addMcpServer('srv', config, { security: commands })).rejects.toThrow(
        new TypeError(
          `MCP server 'srv': the command 'node' was not found on PATH (searched ${bin}; skipped relative entries '.'; not executable: ${path.join(bin, 'node')}). Install it, or fix the PATH of this process.`,
        ),
      ),
    );
    await expect(new Toolbox().addMcpServer('srv', { command: 'toolwright-no-such-command' }, { security: McpSecurityPolicy.trusted() })).rejects.toThrow(
      "MCP server 'srv': the command 'toolwright-no-such-command' was not found on PATH (searched ",
    );
    await expect(new Toolbox().addMcpServer('srv', { command: bin }, { security: McpSecurityPolicy.trusted() })).rejects.toThrow(
      `MCP server 'srv': the command '${bin}' (${bin}) is not an executable file.`,
    );
    await expect(new Toolbox().addMcpServer('srv', { ...config, cwd: path.join(bin, 'none') }, { security: McpSecurityPolicy.trusted() })).rejects.toThrow(
      `MCP server 'srv': its cwd '${path.join(bin, 'none')}' is not a directory.`,
    );
    expect(fs.existsSync(marker)).toBe(false);
  });
});
