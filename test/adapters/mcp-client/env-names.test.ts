/**
 * Issue 23, finding 1: an env key that is not a plain variable name. Node's spawn writes each
 * variable as `KEY=value`, so a key `NODE_OPTIONS=--require` with the value `/x/evil.js` reaches the
 * child as NODE_OPTIONS=--require=/x/evil.js. Every refused variable is tried in every other
 * spelling (case, whitespace, NUL, '=', empty) through the policy, admission, a config file and the
 * Toolbox; a marker file proves the command never ran.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { admitMcpServer, loadMcpConfig, McpSecurityError, McpSecurityPolicy, REFUSED_ENV_VARIABLES } from 'toolwright/mcp-client';
import { Toolbox } from 'toolwright/openai';

const fixture = path.resolve(__dirname, '..', '..', 'fixtures', 'mcp', 'fixture-server.cjs');
const commands = new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'] });

/** A command that leaves a marker file if it is ever started. */
function markerCommand() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-env-names-'));
  const marker = path.join(dir, 'started');
  return { dir, marker, config: { command: 'node', args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] } };
}

/** An attacker's script for --require: it leaves a marker when it runs. */
function evilScript() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-evil-'));
  const ran = path.join(dir, 'evil-ran');
  const script = path.join(dir, 'evil.js');
  fs.writeFileSync(script, `require('fs').writeFileSync(${JSON.stringify(ran)}, 'x');\n`);
  return { script, ran: () => fs.existsSync(ran) };
}

/** One concrete name per refused entry: a pattern such as 'LD_*' stands for 'LD_X'. */
const REFUSED_NAMES = REFUSED_ENV_VARIABLES.map((entry) => (entry.endsWith('*') ? `${entry.slice(0, -1)}X` : entry));

/** Spellings that are not a plain name: never admitted, under any policy. */
const MALFORMED: Array<[string, (name: string) => string, string]> = [
  ['a leading space', (name) => ` ${name}`, 'it has whitespace'],
  ['a trailing space', (name) => `${name} `, 'it has whitespace'],
  ['a trailing tab', (name) => `${name}\t`, 'it has whitespace'],
  ['a trailing newline', (name) => `${name}\n`, 'it has whitespace'],
  ['a trailing NUL', (name) => `${name}\0`, 'it has a NUL byte'],
  ['a NUL inside', (name) => `${name.slice(0, 2)}\0${name.slice(2)}`, 'it has a NUL byte'],
  ["'=' and an option", (name) => `${name}=--require`, "it has '=', so the process would receive the variable"],
  ["a trailing '='", (name) => `${name}=`, "it has '=', so the process would receive the variable"],
  ["a leading '='", (name) => `=${name}`, "it has '='"],
];

/** Spellings that are the same variable on a case-insensitive platform: refused like the name itself. */
const CASED: Array<[string, (name: string) => string]> = [
  ['lower case', (name) => name.toLowerCase()],
  ['mixed case', (name) => name.charAt(0) + name.slice(1).toLowerCase()],
];

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('the attack: an env key with "="', () => {
  it('NODE_OPTIONS=--require as a key is refused before anything starts; the injected file never runs', async () => {
    const evil = evilScript();
    const config = { command: 'node', args: [fixture], env: { 'NODE_OPTIONS=--require': evil.script } };
    const toolbox = new Toolbox();
    try {
      await expect(toolbox.addMcpServer('srv', config, { security: commands })).rejects.toThrow(
        new TypeError(
          `MCP server 'srv': the env key 'NODE_OPTIONS=--require' is not a variable name: it has '=', so the process would receive the variable 'NODE_OPTIONS' ` +
            "with the rest of the key in its value. A name is letters, digits and '_', not starting with a digit: write the bare name as the key and everything else in its value.",
        ),
      );
      // Even the policy that trusts every command and variable does not take a key that is not a name.
      await expect(toolbox.addMcpServer('srv', config, { security: McpSecurityPolicy.trusted() })).rejects.toThrow("the env key 'NODE_OPTIONS=--require' is not a variable name");
      expect(toolbox.names()).toEqual([]);
    } finally {
      await toolbox.close();
    }
    expect(evil.ran()).toBe(false);

    // The control: the same injection spelled as the variable itself, and allowed by name, does run.
    const allowed = new Toolbox();
    try {
      const security = new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'], allowEnv: ['NODE_OPTIONS'] });
      await allowed.addMcpServer('srv', { command: 'node', args: [fixture], env: { NODE_OPTIONS: `--require=${evil.script}` } }, { security });
      expect(evil.ran()).toBe(true);
    } finally {
      await allowed.close();
    }
  });

  it('NODE_PATH=… and the same keys from a config file (loadMcpConfig) are refused; nothing starts', async () => {
    const evil = evilScript();
    const { dir, marker, config } = markerCommand();
    const file = path.join(dir, 'mcp.json');
    for (const env of [{ 'NODE_OPTIONS=--require': evil.script }, { 'NODE_PATH=/tmp/evil-modules:': 'x' }]) {
      fs.writeFileSync(file, JSON.stringify({ mcpServers: { first: config, attack: { ...config, env } } }));
      await expect(loadMcpConfig(file)).rejects.toThrow(`MCP server 'attack': the env key '${Object.keys(env)[0]}' is not a variable name: it has '='`);
      const toolbox = new Toolbox();
      await expect(toolbox.loadMcpConfig(file, { security: McpSecurityPolicy.trusted() })).rejects.toThrow(TypeError);
      expect(toolbox.names()).toEqual([]);
    }
    expect(fs.existsSync(marker)).toBe(false);
    expect(evil.ran()).toBe(false);
  });
});

describe('every refused variable, in every spelling', () => {
  const allowEverything = new McpSecurityPolicy({ allowCommands: true, allowEnv: [...REFUSED_ENV_VARIABLES] });

  it(`covers the whole exported list (${REFUSED_ENV_VARIABLES.length} entries)`, () => {
    expect(REFUSED_NAMES.length).toBe(REFUSED_ENV_VARIABLES.length);
    expect(REFUSED_NAMES.length).toBeGreaterThan(40);
  });

  it('a malformed spelling is refused by the policy, by admission and by every policy, trusted() included', () => {
    const { marker, config } = markerCommand();
    for (const name of REFUSED_NAMES) {
      for (const [how, spell, problem] of MALFORMED) {
        const key = spell(name);
        const env = { [key]: '/tmp/evil' };
        for (const security of [commands, allowEverything, McpSecurityPolicy.trusted()]) {
          const byPolicy = thrown(() => security.check('srv', { ...config, env }));
          expect([how, name, byPolicy]).toEqual([how, name, expect.any(TypeError)]);
          expect((byPolicy as Error).message).toMatch(/^MCP server 'srv': the env key (['"]).+\1 is not a variable name: /);
          expect((byPolicy as Error).message).toContain(`is not a variable name: ${problem}`);
          const byAdmission = thrown(() => admitMcpServer('srv', { ...config, env }, { security }));
          expect([how, name, (byAdmission as Error).message]).toEqual([how, name, (byPolicy as Error).message]);
        }
      }
    }
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a different case is the same variable: refused unless allowed, the message saying why', () => {
    for (const name of REFUSED_NAMES) {
      for (const [how, spell] of CASED) {
        const key = spell(name);
        const error = thrown(() => commands.check('srv', { command: 'node', env: { [key]: '/tmp/evil' } }));
        expect([how, key, error]).toEqual([how, key, expect.any(McpSecurityError)]);
        expect((error as McpSecurityError).rule).toBe('allowEnv');
        expect((error as Error).message).toContain(`its env sets ${key}, which (`);
        // Allowed by its listed name (or pattern), every case of it is allowed: it is one variable.
        expect(() => allowEverything.check('srv', { command: 'node', env: { [key]: 'x' } })).not.toThrow();
      }
    }
    expect(thrown(() => commands.check('srv', { command: 'node', env: { node_options: '--require x' } }))).toHaveProperty(
      'message',
      "MCP server 'srv' (command transport) denied by the security policy: its env sets node_options, which (as NODE_OPTIONS: names are compared without case, " +
        "as Windows reads them) can change what runs or what it trusts. Remove it from the config, or allow it by name with allowEnv: ['node_options'].",
    );
  });

  it('the empty key is refused everywhere', async () => {
    const { dir, marker, config } = markerCommand();
    const env = { '': 'x' };
    const message = "MCP server 'srv': the env key '' is not a variable name: it is empty.";
    expect(() => commands.check('srv', { ...config, env })).toThrow(message);
    expect(() => McpSecurityPolicy.trusted().check('srv', { ...config, env })).toThrow(message);
    expect(() => admitMcpServer('srv', { ...config, env }, { security: commands })).toThrow(message);
    const file = path.join(dir, 'mcp.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { srv: { ...config, env } } }));
    await expect(loadMcpConfig(file)).rejects.toThrow(message);
    await expect(McpSecurityPolicy.trusted().environment(env)).rejects.toThrow("McpSecurityPolicy.environment: the env key '' is not a variable name: it is empty.");
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('through a config file: every spelling of every refused variable, loaded and mounted; nothing starts', async () => {
    const { dir, marker, config } = markerCommand();
    const file = path.join(dir, 'mcp.json');
    let refused = 0;
    for (const name of REFUSED_NAMES) {
      for (const spell of [(n: string) => n, ...CASED.map(([, s]) => s), ...MALFORMED.map(([, s]) => s)]) {
        const key = spell(name);
        // The harmless server comes first in the file: it must not have started either.
        fs.writeFileSync(file, JSON.stringify({ mcpServers: { first: config, attack: { ...config, env: { [key]: '/tmp/evil' } } } }));
        const toolbox = new Toolbox();
        const error = await toolbox.loadMcpConfig(file, { security: commands }).then(() => undefined, (e: unknown) => e);
        expect([key, error instanceof McpSecurityError || error instanceof TypeError]).toEqual([key, true]);
        expect([key, (error as Error).message]).toEqual([key, expect.stringContaining("MCP server 'attack'")]);
        expect(toolbox.names()).toEqual([]);
        refused++;
      }
    }
    expect(refused).toBe(REFUSED_NAMES.length * (1 + CASED.length + MALFORMED.length));
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('every other place a name enters the environment', () => {
  it('passEnv and allowEnv take plain names only, in every spelling the config check refuses', () => {
    for (const option of ['passEnv', 'allowEnv'] as const) {
      for (const [, spell, problem] of MALFORMED) {
        const name = spell('NODE_OPTIONS');
        const error = thrown(() => new McpSecurityPolicy({ [option]: [name] }));
        expect([option, name, error]).toEqual([option, name, expect.any(TypeError)]);
        expect((error as Error).message).toContain(`McpSecurityPolicy: '${option}' takes environment variable names`);
        expect((error as Error).message).toContain(`is not one: ${problem}`);
      }
      expect(() => new McpSecurityPolicy({ [option]: [''] })).toThrow("McpSecurityPolicy: '" + option + "' must be a list of non-empty strings");
    }
    expect(() => new McpSecurityPolicy({ passEnv: ['1PASSWORD'] })).toThrow("'1PASSWORD' is not one: it starts with a digit.");
    expect(() => new McpSecurityPolicy({ passEnv: ['HTTPS-PROXY'] })).toThrow("'HTTPS-PROXY' is not one: it has characters other than letters, digits and '_'.");
    // passEnv names this process's variables exactly: on POSIX `https_proxy` is its own variable (curl reads it).
    expect(new McpSecurityPolicy({ passEnv: ['https_proxy', 'HTTPS_PROXY'] }).passEnv).toEqual(['https_proxy', 'HTTPS_PROXY']);
  });

  it("environment() refuses an own key that is not a name, whoever calls it", async () => {
    const policy = McpSecurityPolicy.trusted();
    await expect(policy.environment({ 'NODE_OPTIONS=--require': '/tmp/evil.js' })).rejects.toThrow(
      "McpSecurityPolicy.environment: the env key 'NODE_OPTIONS=--require' is not a variable name: it has '='",
    );
    await expect(policy.environment({ 'PATH\0': '/tmp' })).rejects.toThrow('McpSecurityPolicy.environment: the env key "PATH\\u0000" is not a variable name: it has a NUL byte.');
    expect(await policy.environment({ MY_TOKEN: 'x' })).toMatchObject({ MY_TOKEN: 'x' });
  });
});
