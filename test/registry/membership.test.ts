import { Prompt, Tool, ToolRegistry } from 'toolwright';
import { isolatedRegistry } from 'toolwright/testing';

describe('membership (mcp and openai registered)', () => {
  let registry: ToolRegistry;
  beforeEach(() => {
    registry = isolatedRegistry({ adapters: ['mcp', 'openai'] });
  });

  const table: Array<[string, () => Function, string[]]> = [
    ['@Tool() → every adapter', () => { @Tool() class A { call() {} } return A; }, ['mcp', 'openai']],
    ["@Tool('mcp') → mcp only", () => { @Tool('mcp') class A { call() {} } return A; }, ['mcp']],
    ["@Tool('mcp', 'openai') → both", () => { @Tool('mcp', 'openai') class A { call() {} } return A; }, ['mcp', 'openai']],
    ['@Tool({ name }) → every adapter', () => { @Tool({ name: 'x' }) class A { call() {} } return A; }, ['mcp', 'openai']],
    ['@Tool({ adapters: { mcp } }) → mcp', () => { @Tool({ adapters: { mcp: { name: 'x' } } }) class A { call() {} } return A; }, ['mcp']],
    ["@Tool('openai', { adapters: { mcp } }) → both", () => { @Tool('openai', { adapters: { mcp: {} } }) class A { call() {} } return A; }, ['mcp', 'openai']],
    ["@Tool({ except: 'openai' }) → every adapter but openai", () => { @Tool({ except: 'openai' }) class A { call() {} } return A; }, ['mcp']],
    ["@Tool('mcp', 'openai', { except: ['openai'] }) → mcp", () => { @Tool('mcp', 'openai', { except: ['openai'] }) class A { call() {} } return A; }, ['mcp']],
    ['@Tool(false) → none', () => { @Tool(false) class A { call() {} } return A; }, []],
    ["@Tool('slack') → unknown key kept, never matches", () => { @Tool('slack') class A { call() {} } return A; }, []],
    ['no @Tool → none', () => { class A { call() {} } return A; }, []],
  ];

  it.each(table)('%s', (_label, declare, expected) => {
    const tool = declare();
    expect(registry.describe(tool).adapters).toEqual(expected);
    for (const key of ['mcp', 'openai']) {
      expect(registry.forAdapter(key).map((d) => d.target)).toEqual(expected.includes(key) ? [tool] : []);
    }
  });

  it('keeps an unregistered key, which starts matching once the adapter is registered', () => {
    @Tool('slack') class Notify { call() {} }
    expect(registry.describe(Notify).adapters).toEqual([]);
    registry.registerAdapter('slack');
    expect(registry.describe(Notify).adapters).toEqual(['slack']);
    expect(registry.forAdapter('slack').map((d) => d.toolName())).toEqual(['notify']);
  });

  it('a subclass inherits its parent’s declaration, and may declare its own', () => {
    @Tool('mcp') class Base { call() {} }
    @Tool('openai') class Own extends Base {}
    class Inherits extends Base {}
    registry.add(Inherits);
    expect(registry.describe(Own).adapters).toEqual(['openai']);
    expect(registry.describe(Inherits).adapters).toEqual(['mcp']);
    expect(registry.forAdapter('mcp').map((d) => d.target)).toEqual([Base, Inherits]);
  });

  it('@Tool(false) on a subclass opts it out of what the parent granted', () => {
    @Tool() class Base { call() {} }
    @Tool(false) class Quiet extends Base {}
    expect(registry.describe(Quiet).adapters).toEqual([]);
    expect(registry.forAdapter('mcp').map((d) => d.target)).toEqual([Base]);
  });

  it('@Prompt(false) (as every member decorator with false) opts a subclass out of the prompt its parent declared', () => {
    @Prompt({ description: 'Review a loan' }) class Review { call() { return 'Review it.'; } }
    @Prompt(false) class QuietReview extends Review {}
    class LoudReview extends Review {}
    registry.add(LoudReview);
    expect(registry.describe(QuietReview).adapters).toEqual([]);
    expect(registry.forAdapter('mcp', { kind: 'prompt' }).map((d) => d.target)).toEqual([LoudReview, Review]);
    // @ts-expect-error the overloads refuse false with anything else; so does the runtime, for JavaScript
    expect(() => Prompt(false, 'mcp')).toThrow('@Prompt(false) opts out of every adapter and cannot be combined with adapter keys or options.');
  });

  it('method tools are members through their own declarations', () => {
    class LoanService {
      @Tool('mcp') status() {}
      @Tool() approve() {}
      helper() {}
    }
    expect(registry.describe(LoanService, 'status').adapters).toEqual(['mcp']);
    expect(registry.describe(LoanService, 'approve').adapters).toEqual(['mcp', 'openai']);
    expect(registry.forAdapter('mcp').map((d) => d.id)).toEqual(['LoanService.approve', 'LoanService.status']);
    expect(registry.forAdapter('openai').map((d) => d.id)).toEqual(['LoanService.approve']);
    expect(() => registry.describe(LoanService, 'helper')).toThrow(
      'LoanService.helper is not a method tool. Decorate it with @Tool(); the method tools of LoanService are status and approve.',
    );
  });

  it('a class tool may name its entry method', () => {
    @Tool({ method: 'execute' }) class Runner { execute() {} }
    const definition = registry.describe(Runner);
    expect(definition.method).toBe('execute');
    expect(definition.kind).toBe('class');
  });

  it('an explicit tools list limits what a registry considers', () => {
    @Tool() class A { call() {} }
    @Tool() class B { call() {} }
    const explicit = new ToolRegistry({ tools: [B] }).registerAdapter('mcp');
    expect(explicit.forAdapter('mcp').map((d) => d.target)).toEqual([B]);
    expect(registry.forAdapter('mcp').map((d) => d.target)).toEqual([A, B]);
  });
});

describe('isolation between tests', () => {
  let registry: ToolRegistry;
  beforeEach(() => {
    registry = isolatedRegistry();
  });

  it('declares a tool', () => {
    @Tool() class FirstTestTool { call() {} }
    expect(registry.forAdapter('mcp').map((d) => d.target)).toEqual([FirstTestTool]);
  });

  it('does not see the previous test’s tool', () => {
    expect(registry.forAdapter('mcp')).toEqual([]);
  });
});
