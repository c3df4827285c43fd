import { Tool, ToolRegistry, ToolVersion } from 'toolwright';
import { isolatedRegistry } from 'toolwright/testing';

describe('versions and the registry', () => {
  let registry: ToolRegistry;
  beforeEach(() => {
    registry = isolatedRegistry();
  });

  it('forAdapter gives the latest version of each tool, sorted by name', () => {
    @Tool() @ToolVersion(1) class ApproveLoanV1 { call() {} }
    @Tool() @ToolVersion(2) class ApproveLoanV2 { call() {} }
    @Tool() class Zeta { call() {} }
    @Tool() class Alpha { call() {} }
    expect(registry.forAdapter('mcp').map((d) => [d.toolName('mcp'), d.version, d.target])).toEqual([
      ['alpha', 1, Alpha],
      ['approve_loan', 2, ApproveLoanV2],
      ['zeta', 1, Zeta],
    ]);
    expect(registry.forAdapter('mcp', { allVersions: true }).map((d) => [d.toolName('mcp'), d.version])).toEqual([
      ['alpha', 1],
      ['approve_loan', 1],
      ['approve_loan', 2],
      ['zeta', 1],
    ]);
    void ApproveLoanV1;
  });

  it('versions() gives one group, or undefined', () => {
    @Tool() @ToolVersion(3) class ApproveLoanV3 { call() {} }
    @Tool() @ToolVersion(1) class ApproveLoanV1 { call() {} }
    const group = registry.versions('mcp', 'approve_loan');
    expect(group?.all.map((d) => d.target)).toEqual([ApproveLoanV1, ApproveLoanV3]);
    expect(group?.latest.target).toBe(ApproveLoanV3);
    expect(registry.versions('mcp', 'nothing_here')).toBeUndefined();
  });

  it('an undeclared version is 1', () => {
    @Tool() class Plain { call() {} }
    expect(registry.describe(Plain).version).toBe(1);
  });

  it('a subclass version joins its parent’s group', () => {
    @Tool({ name: 'approve_loan' }) class ApproveLoan { call() {} }
    @ToolVersion(2) class ApproveLoanNext extends ApproveLoan {}
    expect(registry.versions('mcp', 'approve_loan')?.all.map((d) => [d.target, d.version])).toEqual([
      [ApproveLoan, 1],
      [ApproveLoanNext, 2],
    ]);
  });

  it('enumerating an unregistered adapter names the registered ones', () => {
    expect(() => registry.forAdapter('http')).toThrow(
      "Unknown adapter 'http'. Registered adapters: 'mcp' and 'openai'. Register it with registerAdapter('http'), " +
        'or import its entry point (e.g. toolwright/mcp), before enumerating.',
    );
    expect(() => new ToolRegistry({ isolated: true }).forAdapter('mcp')).toThrow("Unknown adapter 'mcp'. Registered adapters: none.");
  });

  it('two members with the same name and version for one adapter are an error naming both', () => {
    @Tool('mcp', { name: 'search' }) class SearchB { call() {} }
    @Tool('mcp', { name: 'search' }) class SearchA { call() {} }
    const message =
      "Tools SearchA and SearchB are both 'search' version 1 for adapter 'mcp'. " +
      'Give one an explicit name (@Tool({ name })) or a distinct @ToolVersion.';
    expect(() => registry.forAdapter('mcp')).toThrow(message);
    expect(() => registry.versions('mcp', 'search')).toThrow(message);
    void SearchA;
    void SearchB;
  });

  it('the same name in different adapters is fine, and grouping uses the per-adapter name', () => {
    @Tool('mcp', { name: 'search' }) class SearchMcp { call() {} }
    @Tool('openai', { name: 'search' }) class SearchOpenai { call() {} }
    @Tool({ adapters: { mcp: { name: 'find' }, openai: {} } }) class Search { call() {} }
    expect(registry.forAdapter('mcp').map((d) => [d.toolName('mcp'), d.target])).toEqual([
      ['find', Search],
      ['search', SearchMcp],
    ]);
    expect(() => registry.forAdapter('openai')).toThrow("Tools Search and SearchOpenai are both 'search' version 1 for adapter 'openai'.");
  });

  it('a V-suffixed class that only inherits its version is an enumeration error', () => {
    @Tool() @ToolVersion(1) class Refund { call() {} }
    @Tool() class RefundV2 extends Refund {}
    expect(() => registry.forAdapter('mcp')).toThrow(
      'RefundV2: its name ends in V2 but it declares no @ToolVersion of its own (it inherits version 1). Add @ToolVersion(2) to RefundV2.',
    );
  });

  it('a _vN tool without a version beside a versioned group is an orphan', () => {
    @Tool() @ToolVersion(1) class ApproveLoanV1 { call() {} }
    @Tool() @ToolVersion(2) class ApproveLoanV2 { call() {} }
    @Tool() class ApproveLoanV3 { call() {} }
    @Tool() class Unrelated { call() {} }
    const message =
      "ApproveLoanV3 ('approve_loan_v3') looks like version 3 of approve_loan but declares no @ToolVersion. " +
      'Add @ToolVersion(3) so it joins the group, or give it an explicit name.';
    expect(() => registry.forAdapter('mcp')).toThrow(message);
    expect(() => registry.versions('mcp', 'approve_loan')).toThrow(message);
    // versions() checks only what it matched: an unrelated lookup is not derailed.
    expect(registry.versions('mcp', 'unrelated')?.latest.target).toBe(Unrelated);
    void [ApproveLoanV1, ApproveLoanV2, ApproveLoanV3];
  });

  it('a _vN name without a versioned group beside it is just a name', () => {
    @Tool() class OAuthV2 { call() {} }
    expect(registry.forAdapter('mcp').map((d) => d.toolName())).toEqual(['o_auth_v2']);
  });

  it('versions() is not derailed by an unrelated malformed tool', () => {
    @Tool() @ToolVersion(1) class Refund { call() {} }
    @Tool() class RefundV2 extends Refund {}
    @Tool() class Lookup { call() {} }
    expect(registry.versions('mcp', 'lookup')?.latest.target).toBe(Lookup);
    expect(() => registry.versions('mcp', 'refund')).toThrow('RefundV2: its name ends in V2');
  });
});
