import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolRegistry } from 'toolwright';

const fixtures = path.join(__dirname, '..', 'fixtures', 'tool-roots');
const root = path.join(fixtures, 'agent_tools');

describe('tool roots', () => {
  let warnings: string[];
  let emitWarning: jest.SpyInstance;
  beforeEach(() => {
    warnings = [];
    emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(((message: string) => {
      warnings.push(message);
    }) as never);
  });
  afterEach(() => emitWarning.mockRestore());

  it('exported action classes under a root are members without @Tool; @Tool(false) and except still apply', () => {
    const registry = new ToolRegistry({ isolated: true }).registerAdapter('mcp', { toolRoots: [root] }).registerAdapter('openai');
    expect(registry.forAdapter('mcp').map((d) => d.toolName())).toEqual(['search_docs', 'summarize']);
    // The root belongs to mcp only; OpenaiOnly is an openai member through its own declaration.
    expect(registry.forAdapter('openai').map((d) => d.toolName())).toEqual(['openai_only']);
  });

  it('a module that fails to load is skipped with a warning naming the file and the error, and keeps nothing', () => {
    const registry = new ToolRegistry({ isolated: true }).registerAdapter('mcp', { toolRoots: [root] });
    const names = registry.forAdapter('mcp').map((d) => d.toolName());
    expect(names).not.toContain('leaked_from_broken_module');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^toolwright: skipped .*agent_tools[\\/]broken\.ts under tool root '.*agent_tools': database URL missing$/);
    // A registry created before the failed load does not see the class it declared either.
    const earlier = new ToolRegistry().registerAdapter('mcp');
    expect(earlier.forAdapter('mcp').map((d) => d.toolName())).not.toContain('leaked_from_broken_module');
  });

  it('a sibling directory that merely shares the prefix is not under the root', () => {
    const registry = new ToolRegistry({ isolated: true }).registerAdapter('mcp', { toolRoots: [root] });
    expect(registry.forAdapter('mcp').map((d) => d.toolName())).not.toContain('not_under_root');
    const sibling = new ToolRegistry({ isolated: true }).registerAdapter('mcp', { toolRoots: [path.join(fixtures, 'agent_tools_extra')] });
    expect(sibling.forAdapter('mcp').map((d) => d.toolName())).toEqual(['not_under_root']);
  });

  it('registering again without roots keeps the roots', () => {
    const registry = new ToolRegistry({ isolated: true }).registerAdapter('mcp', { toolRoots: [root] });
    registry.registerAdapter('mcp');
    expect(registry.forAdapter('mcp').map((d) => d.toolName())).toEqual(['search_docs', 'summarize']);
  });

  it('relative roots are resolved against the working directory and normalized', () => {
    const relative = `./${path.relative(process.cwd(), root)}/nested/../`;
    const registry = new ToolRegistry({ isolated: true }).registerAdapter('mcp', { toolRoots: [relative] });
    expect(registry.forAdapter('mcp').map((d) => d.toolName())).toEqual(['search_docs', 'summarize']);
  });

  it('a root that does not exist is an error at enumeration', () => {
    const registry = new ToolRegistry({ isolated: true }).registerAdapter('mcp', { toolRoots: ['no_such_tools'] });
    expect(() => registry.forAdapter('mcp')).toThrow("Tool root 'no_such_tools' for 'mcp' is not a directory");
  });

  const tooBroad: Array<[string, string]> = [
    ['', 'it is the project root'],
    ['  ', 'it is the project root'],
    ['.', 'it is the project root'],
    ['./', 'it is the project root'],
    ['tools/..', 'it is the project root'],
    ['..', 'it escapes the project with ..'],
    ['../shared/tools', 'it escapes the project with ..'],
    ['tools/../../x', 'it escapes the project with ..'],
    ['/', 'it is the filesystem root'],
    ['src', "'src' holds a whole application, not just tools"],
    ['./app/', "'app' holds a whole application, not just tools"],
    ['packages/api/lib', "'lib' holds a whole application, not just tools"],
    ['dist', "'dist' holds a whole application, not just tools"],
    ['server/actions', "'actions' holds a whole application, not just tools"],
  ];

  it.each(tooBroad)('refuses %j at registerAdapter: %s', (raw, why) => {
    expect(() => new ToolRegistry().registerAdapter('mcp', { toolRoots: [raw] })).toThrow(
      `Tool root '${raw}' for 'mcp' is too broad: ${why}. Point it at a directory that holds only tools, such as agent_tools.`,
    );
  });

  it('refuses a non-string root and a non-list', () => {
    expect(() => new ToolRegistry().registerAdapter('mcp', { toolRoots: [3 as never] })).toThrow(
      "Tool roots for 'mcp' must be directory paths; got 3.",
    );
    expect(() => new ToolRegistry().registerAdapter('mcp', { toolRoots: 'agent_tools' as never })).toThrow(
      "registerAdapter('mcp'): toolRoots must be a list of directories; got 'agent_tools'.",
    );
  });
});

describe('tool roots and baseDir', () => {
  const fixtures = path.join(__dirname, '..', 'fixtures', 'tool-roots');
  let cwd: string;
  beforeEach(() => {
    cwd = process.cwd();
    jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  });
  afterEach(() => {
    process.chdir(cwd);
    jest.restoreAllMocks();
  });

  it('relative roots resolve against baseDir, wherever the process was started', () => {
    process.chdir(os.tmpdir()); // as a desktop client launching the server from elsewhere
    const registry = new ToolRegistry({ isolated: true }).registerAdapter('mcp', { toolRoots: ['agent_tools'], baseDir: fixtures });
    expect(registry.forAdapter('mcp').map((d) => d.toolName())).toEqual(['search_docs', 'summarize']);
  });

  it('without baseDir, against the working directory when the adapter is registered (the error says so and suggests baseDir)', () => {
    process.chdir(os.tmpdir());
    const registry = new ToolRegistry({ isolated: true }).registerAdapter('mcp', { toolRoots: ['agent_tools'] });
    process.chdir(fixtures); // changing directory later does not move the root
    expect(() => registry.forAdapter('mcp')).toThrow(
      `Tool root 'agent_tools' for 'mcp' is not a directory (resolved to ${path.join(fs.realpathSync(os.tmpdir()), 'agent_tools')}, against the ` +
        `working directory ${fs.realpathSync(os.tmpdir())}). Create it or correct the path; to resolve relative roots against your ` +
        "module's directory, pass baseDir: __dirname to registerAdapter.",
    );
  });

  it('a root missing under baseDir is an error naming the root, where it resolved and baseDir', () => {
    const registry = new ToolRegistry({ isolated: true }).registerAdapter('mcp', { toolRoots: ['no_such_tools'], baseDir: fixtures });
    expect(() => registry.forAdapter('mcp')).toThrow(
      `Tool root 'no_such_tools' for 'mcp' is not a directory (resolved to ${path.join(fixtures, 'no_such_tools')}, against baseDir ` +
        `${fixtures}). Create it or correct the path (relative to baseDir).`,
    );
  });

  it('baseDir must be absolute; an unknown option is refused; the broad-path guard still applies to the root as given', () => {
    expect(() => new ToolRegistry().registerAdapter('mcp', { toolRoots: ['agent_tools'], baseDir: 'tools' })).toThrow(
      "registerAdapter('mcp'): baseDir must be an absolute directory path such as __dirname (or path.dirname(fileURLToPath(import.meta.url)) in an ES module); got 'tools'.",
    );
    expect(() => new ToolRegistry().registerAdapter('mcp', { toolroots: ['agent_tools'] } as never)).toThrow(
      "registerAdapter('mcp'): unknown option 'toolroots'. Known options: toolRoots, baseDir.",
    );
    expect(() => new ToolRegistry().registerAdapter('mcp', { toolRoots: ['../tools'], baseDir: fixtures })).toThrow(
      "Tool root '../tools' for 'mcp' is too broad: it escapes the project with ..",
    );
  });
});
