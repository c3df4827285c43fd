import {
  ClassOrMethodDecorator,
  defineTool,
  Description,
  describeTool,
  Expects,
  Exposes,
  Field,
  Tool,
  ToolDecorator,
  ToolRegistry,
  ToolVersion,
} from 'toolwright';
import { defineAdapterConfig } from 'toolwright/kit';
import { isolatedRegistry } from 'toolwright/testing';

/**
 * Rules that several declarations apply have one definition each: every place that applies a rule
 * accepts and refuses exactly the same things, whichever order the decorators run in.
 */
describe('one rule for adapter keys', () => {
  beforeEach(() => isolatedRegistry());

  const good = ['mcp', 'B2', 'my-adapter', 'x_y', 'a'];
  const bad = ['', 'my adapter', '1mcp', '-x', '_x', 'mcp.v2', 'mcp/http', 'ü', ' mcp'];

  // Every place an adapter key is accepted, each with its own message.
  const places: Array<[string, (key: string) => unknown, (key: string) => string]> = [
    ['@Tool(key)', (key) => Tool(key), (key) => `@Tool: ${JSON.stringify(key).replace(/"/g, "'")} is not an adapter key.`],
    [
      '@Tool({ adapters: { key } })',
      (key) => { @Tool({ adapters: { [key]: {} } }) class A { call() {} } return A; },
      (key) => `A: ${JSON.stringify(key).replace(/"/g, "'")} in 'adapters' is not an adapter key.`,
    ],
    [
      "@Tool({ except: key })",
      (key) => { @Tool({ except: key }) class A { call() {} } return A; },
      (key) => `A: @Tool option 'except' must be an adapter key or a list of them; got ${JSON.stringify(key).replace(/"/g, "'")}.`,
    ],
    [
      'registerAdapter(key)',
      (key) => new ToolRegistry().registerAdapter(key),
      (key) => `registerAdapter: ${JSON.stringify(key).replace(/"/g, "'")} is not an adapter key such as 'mcp'.`,
    ],
    [
      'defineAdapterConfig(key)',
      (key) => defineAdapterConfig(key, {}),
      (key) => `defineAdapterConfig: ${JSON.stringify(key).replace(/"/g, "'")} is not an adapter key such as 'mcp'.`,
    ],
  ];

  it.each(places)('%s accepts the same keys as every other place', (_place, declare) => {
    for (const key of good) expect(() => declare(key)).not.toThrow();
  });

  it.each(places)('%s refuses the same keys as every other place, with its own message', (_place, declare, message) => {
    for (const key of bad) expect(() => declare(key)).toThrow(message(key));
  });

  it('a key that is not a string is refused where the API is untyped', () => {
    expect(() => new ToolRegistry().registerAdapter(42 as never)).toThrow("registerAdapter: 42 is not an adapter key such as 'mcp'.");
    expect(() => defineAdapterConfig(undefined as never, {})).toThrow('defineAdapterConfig: undefined is not an adapter key');
  });
});

describe('one rule for a description declared twice', () => {
  const message = (where: string) => `${where}: the description is declared twice, in @Tool({ description }) and @Description. Keep one.`;

  it('refused whichever of @Tool and @Description runs second, on a class and on a method', () => {
    expect(() => { @Tool({ description: 'a' }) @Description('b') class A { call() {} } return A; }).toThrow(message('A'));
    expect(() => { @Description('b') @Tool({ description: 'a' }) class B { call() {} } return B; }).toThrow(message('B'));
    expect(() => { class S { @Tool({ description: 'a' }) @Description('b') m() {} } return S; }).toThrow(message('S.m'));
    expect(() => { class T { @Description('b') @Tool({ description: 'a' }) m() {} } return T; }).toThrow(message('T.m'));
  });

  it('one description in either place is fine, and a subclass may declare its own', () => {
    @Description('from the decorator') @Tool() class A { call() {} }
    @Tool() @Description('below') class B { call() {} }
    @Tool({ description: 'parent' }) class Parent { call() {} }
    @Description('child') class Child extends Parent {}
    expect([A, B, Child].map((tool) => describeTool(tool).description)).toEqual(['from the decorator', 'below', 'child']);
  });
});

describe('one rule for the version suffix at decoration', () => {
  const message = (where: string, what: string) => `${where}: ${what} name ends in V2 but declares @ToolVersion(3).`;

  it('refused whichever of @Tool and @ToolVersion runs second, on a class and on a method', () => {
    expect(() => { @Tool() @ToolVersion(3) class ApproveV2 { call() {} } return ApproveV2; }).toThrow(message('ApproveV2', 'class'));
    expect(() => { @ToolVersion(3) @Tool() class ApproveV2 { call() {} } return ApproveV2; }).toThrow(message('ApproveV2', 'class'));
    expect(() => { class S { @Tool() @ToolVersion(3) approveV2() {} } return S; }).toThrow(message('S.approveV2', 'method'));
    expect(() => { class S { @ToolVersion(3) @Tool() approveV2() {} } return S; }).toThrow(message('S.approveV2', 'method'));
  });

  it('an explicit name derives nothing, so there is no suffix to check, in either order', () => {
    expect(() => { @Tool({ name: 'approve' }) @ToolVersion(3) class ApproveV2 { call() {} } return ApproveV2; }).not.toThrow();
    expect(() => { @ToolVersion(3) @Tool({ name: 'approve' }) class ApproveV2 { call() {} } return ApproveV2; }).not.toThrow();
    expect(() => { @Tool() @ToolVersion(2) class ApproveV2 { call() {} } return ApproveV2; }).not.toThrow();
  });
});

describe('generated names', () => {
  beforeEach(() => isolatedRegistry());

  it('inline contracts are named after their tool, a method tool as Class_method', () => {
    @Tool() @Expects({ q: String }) @Exposes({ n: Number }) class Search { call() { return { n: 1 }; } }
    class Loans {
      @Tool() @Expects({ id: String }) status() {}
    }
    class Dto { @Field() id!: string; }
    expect(describeTool(Search).inputContract.target.name).toBe('SearchInput');
    expect(describeTool(Search).outputContract?.target.name).toBe('SearchOutput');
    expect(describeTool(Loans, 'status').inputContract.target.name).toBe('Loans_statusInput');
    expect(describeTool(defineTool({ name: 'x', expects: Dto }, () => 1)).inputContract.target.name).toBe('Dto');
  });

  it('defineTool names its class in PascalCase from the sanitized tool name', () => {
    expect(defineTool({ name: 'search docs-now' }, () => 1).name).toBe('SearchDocsNow');
    expect(defineTool({ name: 'approve_loan_v2' }, () => 1).name).toBe('ApproveLoanV2');
  });

  it('@Tool returns the same decorator type as the other class-or-method decorators', () => {
    const decorator: ClassOrMethodDecorator = Tool();
    const same: ToolDecorator = Description('x');
    expect([typeof decorator, typeof same]).toEqual(['function', 'function']);
  });
});
