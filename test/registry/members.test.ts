import { Complete, describeTool, Expects, Integer, Prompt, Resource, ResourceTemplate, Tool, ToolConflictError, ToolRegistry, ToolVersion } from 'toolwright';
import { isolatedRegistry } from 'toolwright/testing';

/** Members beside tools in the registry: one kind at a time, names and versions per kind, inheritance, tags. */
describe('members in the registry', () => {
  let registry: ToolRegistry;
  beforeEach(() => {
    registry = isolatedRegistry();
  });

  const names = (kind: Parameters<ToolRegistry['forAdapter']>[1] extends infer O ? (O extends { kind?: infer K } ? K : never) : never, allVersions = false) =>
    registry.forAdapter('mcp', { kind, allVersions }).map((d) => `${d.toolName('mcp')}@${d.version}`);

  it('forAdapter enumerates one kind at a time; the default is tools, unchanged', () => {
    @Tool() class Review { call() {} }
    @Prompt() class ReviewPrompt { call() {} }
    @Resource('loans://policy') class Policy { call() {} }
    @ResourceTemplate('loans://applications/{id}') class Application { call() {} }
    @Complete(Application, 'id') class ApplicationIds { call() {} }
    expect(registry.forAdapter('mcp').map((d) => d.target)).toEqual([Review]);
    expect(registry.forAdapter('mcp', { kind: 'tool' }).map((d) => d.target)).toEqual([Review]);
    expect(registry.forAdapter('mcp', { kind: 'prompt' }).map((d) => [d.target, d.member])).toEqual([[ReviewPrompt, 'prompt']]);
    expect(registry.forAdapter('mcp', { kind: 'resource' }).map((d) => [d.target, d.member, d.resource?.uri])).toEqual([[Policy, 'resource', 'loans://policy']]);
    expect(registry.forAdapter('mcp', { kind: 'resource-template' }).map((d) => [d.target, d.resource?.variables])).toEqual([
      [Application, [{ name: 'id', explode: false }]],
    ]);
    const [completion] = registry.forAdapter('mcp', { kind: 'completion' });
    expect([completion.target, completion.member, completion.completes?.argument, completion.completes?.of.target]).toEqual([
      ApplicationIds,
      'completion',
      'id',
      Application,
    ]);
    expect(registry.describe(Review).completes).toBeUndefined();
    expect(registry.describe(Review).resource).toBeUndefined();
  });

  it('names are per kind: a tool and a prompt share one; two prompts of one name conflict', () => {
    @Tool({ name: 'review' }) class ReviewTool { call() {} }
    @Prompt({ name: 'review' }) class ReviewPrompt { call() {} }
    expect(names('tool')).toEqual(['review@1']);
    expect(names('prompt')).toEqual(['review@1']);
    @Prompt({ name: 'review' }) class AnotherReview { call() {} }
    expect(() => registry.forAdapter('mcp', { kind: 'prompt' })).toThrow(ToolConflictError);
    expect(() => registry.forAdapter('mcp', { kind: 'prompt' })).toThrow(
      "Prompts AnotherReview and ReviewPrompt are both 'review' version 1 for adapter 'mcp'. Give one an explicit name (@Prompt({ name })) or a distinct @ToolVersion.",
    );
    expect(names('tool')).toEqual(['review@1']); // the tools are not affected
    void [ReviewTool, ReviewPrompt, AnotherReview];
  });

  it('two completions of one name conflict, and the message says how to rename one', () => {
    @Prompt() @Expects({ applicant: String }) class Review { call() {} @Complete('applicant') applicants() {} }
    @Prompt() @Expects({ applicant: String }) class Decline { call() {} @Complete('applicant') applicants() {} }
    expect(() => registry.forAdapter('mcp', { kind: 'completion' })).toThrow(
      "Completions Decline.applicants and Review.applicants are both 'applicants' version 1 for adapter 'mcp'. " +
        "Rename one (a completion's name is its class or method name), or name it for the adapter: @Complete(…, { adapters: { mcp: { name } } }).",
    );
    void [Review, Decline];
  });

  it('versions group per kind', () => {
    @Prompt() @ToolVersion(1) class ReviewV1 { call() {} }
    @Prompt() @ToolVersion(2) class ReviewV2 { call() {} }
    @Tool() class Review { call() {} }
    expect(names('prompt')).toEqual(['review@2']);
    expect(names('prompt', true)).toEqual(['review@1', 'review@2']);
    expect(registry.versions('mcp', 'review', 'prompt')?.all.map((d) => d.target)).toEqual([ReviewV1, ReviewV2]);
    expect(registry.versions('mcp', 'review')?.all.map((d) => d.target)).toEqual([Review]);
    expect(registry.versions('mcp', 'review', 'resource')).toBeUndefined();
  });

  it('a subclass inherits its parent member declaration; one of its own replaces it', () => {
    @ResourceTemplate('loans://applications/{id}', { mimeType: 'application/json', tags: ['loans'] })
    @Expects({ id: Integer })
    class Application { call() {} }
    @ToolVersion(2) class ApplicationV2 extends Application {}
    @Tool() class ApplicationTool extends Application {}
    const v2 = registry.describe(ApplicationV2);
    expect([v2.member, v2.resource?.uri, v2.resource?.mimeType, v2.tags, v2.version]).toEqual([
      'resource-template',
      'loans://applications/{id}',
      'application/json',
      ['loans'],
      2,
    ]);
    expect(names('resource-template', true)).toEqual(['application@1', 'application@2']);
    expect([registry.describe(ApplicationTool).member, registry.describe(ApplicationTool).tags]).toEqual(['tool', []]);
  });

  it('a service class with resource, template, prompt, completion and tool methods', () => {
    class LoanDesk {
      @Tool() approve() {}
      @Resource('loans://policy', { mimeType: 'text/markdown', size: 120, annotations: { audience: ['user', 'user'], priority: 0.5 } })
      policy() {}
      @ResourceTemplate('loans://applications/{id}') @Expects({ id: Integer }) application() {}
      @Prompt({ description: 'Review an application' }) @Expects({ applicant: String }) review() {}
      @Complete('applicant', { of: 'review' }) applicants() {}
      @Complete('id', { of: 'application' }) applicationIds() {}
    }
    expect(names('tool')).toEqual(['approve@1']);
    expect(registry.forAdapter('mcp', { kind: 'resource' }).map((d) => [d.id, d.resource])).toEqual([
      [
        'LoanDesk.policy',
        { kind: 'resource', uri: 'loans://policy', variables: [], mimeType: 'text/markdown', size: 120, annotations: { audience: ['user'], priority: 0.5 } },
      ],
    ]);
    expect(registry.forAdapter('mcp', { kind: 'prompt' }).map((d) => [d.id, d.description])).toEqual([['LoanDesk.review', 'Review an application']]);
    expect(registry.forAdapter('mcp', { kind: 'completion' }).map((d) => [d.toolName(), d.completes?.argument, d.completes?.of.id])).toEqual([
      ['applicants', 'applicant', 'LoanDesk.review'],
      ['application_ids', 'id', 'LoanDesk.application'],
    ]);
  });

  it('without `of`, a completion beside the class prompt, or beside the one prompt or template method, completes it', () => {
    class Desk { @Prompt() @Expects({ applicant: String }) review() {} @Tool() approve() {} @Complete('applicant') applicants() {} }
    expect(registry.describe(Desk, 'applicants').completes?.of.id).toBe('Desk.review');
    registry = isolatedRegistry();
    @Prompt() @Expects({ applicant: String }) class ReviewLoan { call() {} @Complete('applicant') applicants() {} }
    const [completion] = registry.forAdapter('mcp', { kind: 'completion' });
    expect([completion.id, completion.completes?.of.target, completion.completes?.of.kind]).toEqual(['ReviewLoan.applicants', ReviewLoan, 'class']);
  });

  it('a completion class or method elsewhere names the class, and with `of` one of its several prompt or template methods', () => {
    class Desk { @Prompt() @Expects({ applicant: String }) review() {} @ResourceTemplate('loans://{id}') record() {} }
    class Elsewhere { @Complete(Desk, 'id', { of: 'record' }) ids() {} @Complete(() => Desk, 'applicant', { of: 'review' }) applicants() {} }
    expect(registry.describe(Elsewhere, 'ids').completes?.of.id).toBe('Desk.record');
    expect(registry.describe(Elsewhere, 'applicants').completes?.of.id).toBe('Desk.review');
    class Lost { @Complete(Desk, 'id') ids() {} }
    expect(() => registry.describe(Lost, 'ids').completes).toThrow(
      "Lost.ids: @Complete('id') names Desk, which has several prompts and templates as methods (review, record). Name the one this completes: @Complete(Desk, 'id', { of: 'review' }).",
    );
  });

  it('tags: on every kind, kept once in order, none by default', () => {
    @Tool({ tags: ['billing', 'beta', 'billing', 'a.b:c/d-e_f'] }) class Pay { call() {} }
    @Prompt({ tags: ['beta'] }) class Review { call() {} }
    @Tool() class Plain { call() {} }
    expect(registry.describe(Pay).tags).toEqual(['billing', 'beta', 'a.b:c/d-e_f']);
    expect(Object.isFrozen(registry.describe(Pay).tags)).toBe(true);
    expect(registry.describe(Review).tags).toEqual(['beta']);
    expect(registry.describe(Plain).tags).toEqual([]);
    // describeTool (the default registry) reads the same declaration, for any kind and for methods.
    class Desk { @Complete('q', { of: 'search', tags: ['search'] }) queries() {} @ResourceTemplate('x://{q}', { tags: ['search'] }) search() {} }
    expect(describeTool(Pay).tags).toEqual(['billing', 'beta', 'a.b:c/d-e_f']);
    expect([describeTool(Desk, 'queries').tags, describeTool(Desk, 'queries').member, describeTool(Desk, 'search').member]).toEqual([
      ['search'],
      'completion',
      'resource-template',
    ]);
  });

  it('membership, names and opt-out work for members as for tools', () => {
    @Prompt('openai', { adapters: { mcp: { name: 'loan_review' } } }) class Review { call() {} }
    @Resource('loans://secret', false) class Secret { call() {} }
    @ResourceTemplate('loans://{id}', { except: 'mcp' }) class Loan { call() {} }
    expect(registry.forAdapter('mcp', { kind: 'prompt' }).map((d) => d.toolName('mcp'))).toEqual(['loan_review']);
    expect(registry.forAdapter('openai', { kind: 'prompt' }).map((d) => d.toolName('openai'))).toEqual(['review']);
    expect(registry.forAdapter('mcp', { kind: 'resource' })).toEqual([]);
    expect(registry.forAdapter('mcp', { kind: 'resource-template' })).toEqual([]);
    expect(registry.forAdapter('openai', { kind: 'resource-template' }).map((d) => d.target)).toEqual([Loan]);
    void Secret;
  });
});

/** RFC 6570's examples (sections 1.2 and 3.2, levels 1 to 4) and malformed templates, through @ResourceTemplate. */
describe('RFC 6570 template variables', () => {
  let registry: ToolRegistry;
  beforeEach(() => {
    registry = isolatedRegistry();
  });

  const variablesOf = (template: string): string => {
    @ResourceTemplate(`x://${template}`) class Member { call() {} }
    return registry
      .describe(Member)
      .resource!.variables.map((v) => `${v.name}${v.explode ? '*' : ''}`)
      .join(',');
  };

  it.each([
    // level 1
    ['{var}', 'var'],
    ['{hello}', 'hello'],
    // level 2
    ['{+var}', 'var'],
    ['{+path}/here', 'path'],
    ['here?ref={+path}', 'path'],
    ['X{#var}', 'var'],
    // level 3
    ['map?{x,y}', 'x,y'],
    ['{x,hello,y}', 'x,hello,y'],
    ['{+x,hello,y}', 'x,hello,y'],
    ['{#path,x}/here', 'path,x'],
    ['X{.var}', 'var'],
    ['X{.x,y}', 'x,y'],
    ['{/var,x}/here', 'var,x'],
    ['{;x,y}', 'x,y'],
    ['{;x,y,empty}', 'x,y,empty'],
    ['{?q,lang}', 'q,lang'],
    ['?fixed=yes{&x}', 'x'],
    ['{&x,y,empty}', 'x,y,empty'],
    // level 4
    ['{var:3}', 'var'],
    ['{var:30}', 'var'],
    ['{list*}', 'list*'],
    ['{+path:6}/here', 'path'],
    ['{#path:6}/here', 'path'],
    ['X{.list*}', 'list*'],
    ['www{.dom*}', 'dom*'],
    ['{/segments*}', 'segments*'],
    ['{/list*,path:4}', 'list*,path'],
    ['{;list*}', 'list*'],
    ['{?list*}', 'list*'],
    ['{&keys*}', 'keys*'],
    // names: dots between characters, percent-encoded octets; a repeated variable counts once
    ['{a.b}/{a_1}', 'a.b,a_1'],
    ['{%C3%A9t%C3%A9}', '%C3%A9t%C3%A9'],
    ['{var}/{var}/{+var}', 'var'],
    ['{var:9999}', 'var'],
  ])('%s has the variables %s', (template, expected) => {
    expect(variablesOf(template)).toBe(expected);
  });

  it.each([
    ['{id', "the '{' at position 4 is never closed"],
    ['id}', "it has a '}' at position 6 with no '{' before it"],
    ['{}', 'the expression at position 4 names no variable'],
    ['{+}', 'the expression at position 4 names no variable'],
    ['{{id}}', "the expression at position 4 contains another '{'"],
    ['{a,}', "'' is not a variable name (letters, digits, _ and dots between them)"],
    ['{a-b}', "'a-b' is not a variable name (letters, digits, _ and dots between them)"],
    ['{a.}', "'a.' is not a variable name (letters, digits, _ and dots between them)"],
    ['{a..b}', "'a..b' is not a variable name (letters, digits, _ and dots between them)"],
    ['{=a}', "'=a' is not a variable name (letters, digits, _ and dots between them)"],
    ['{%2}', "'%2' is not a variable name (letters, digits, _ and dots between them)"],
    ['{a*:3}', "'a*' is not a variable name (letters, digits, _ and dots between them)"],
    ['{a:0}', "'a:0' has a prefix length RFC 6570 does not allow (':1' to ':9999')"],
    ['{a:10000}', "'a:10000' has a prefix length RFC 6570 does not allow (':1' to ':9999')"],
    ['{a:x}', "'a:x' has a prefix length RFC 6570 does not allow (':1' to ':9999')"],
    ['{a}/{a*}', "'a' appears both exploded and not"],
  ])('%s is refused: %s', (template, reason) => {
    expect(() => ResourceTemplate(`x://${template}`)).toThrow(`@ResourceTemplate('x://${template}'): not an RFC 6570 URI template: ${reason}.`);
  });
});
