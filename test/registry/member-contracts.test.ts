import { AmbientContext, Complete, DeclarationError, Expects, Field, Integer, Prompt, Resource, ResourceTemplate, Tool, ToolRegistry } from 'toolwright';
import type { MemberKind } from 'toolwright';
import { isolatedRegistry } from 'toolwright/testing';

/**
 * What each member kind asks of its input contract, checked when the registry enumerates the kind:
 * each mistake is a DeclarationError naming the class (or method) and the fix.
 */
describe('member contracts, at enumeration', () => {
  let registry: ToolRegistry;
  beforeEach(() => {
    registry = isolatedRegistry();
  });

  const refused = (kind: MemberKind): string => {
    try {
      registry.forAdapter('mcp', { kind });
    } catch (error) {
      expect(error).toBeInstanceOf(DeclarationError);
      return (error as Error).message;
    }
    throw new Error(`forAdapter('mcp', { kind: '${kind}' }) did not refuse`);
  };

  it('a template field missing for a variable', () => {
    @ResourceTemplate('loans://{id}/{part}') @Expects({ id: Integer }) class LoanPart { call() {} }
    expect(refused('resource-template')).toBe("LoanPart: the fields of its input contract must be exactly the variables of 'loans://{id}/{part}'. Add field 'part'.");
    void LoanPart;
  });

  it('template fields that are not variables (an ambient one is fine)', () => {
    class LoanInput {
      @Field() id!: number;
      @Field() note!: string;
      @Field() more!: string;
      @AmbientContext() officer!: string;
    }
    @ResourceTemplate('loans://{id}') @Expects(LoanInput) class Loan { call() {} }
    expect(refused('resource-template')).toBe(
      "Loan: the fields of its input contract must be exactly the variables of 'loans://{id}'. 'note' and 'more' are not in the template: add {note} to it, make them @AmbientContext, or remove them.",
    );
    void Loan;
  });

  it('missing and extra at once', () => {
    @ResourceTemplate('loans://{id}/{part}') @Expects({ note: String }) class Both { call() {} }
    expect(refused('resource-template')).toBe(
      "Both: the fields of its input contract must be exactly the variables of 'loans://{id}/{part}'. Add fields 'id' and 'part'. 'note' is not in the template: add {note} to it, make it @AmbientContext, or remove it.",
    );
    void Both;
  });

  it('an exploded variable whose field is not an array', () => {
    @ResourceTemplate('files://tree{/segments*}') @Expects({ segments: String }) class Tree { call() {} }
    expect(refused('resource-template')).toBe(
      "Tree: template variable 'segments' is exploded ({segments*}), a list of values, so field 'segments' must be an array of strings, numbers or booleans.",
    );
    void Tree;
  });

  it('a one-value variable whose field is an array, or an object', () => {
    @ResourceTemplate('files://{path}') @Expects({ path: [String] }) class File { call() {} }
    expect(refused('resource-template')).toBe(
      "File: template variable 'path' is one value, so field 'path' must be a string, number, boolean or enum; for a list of values, explode the variable: {path*}.",
    );
    void File;
    registry = isolatedRegistry();
    class Where { @Field() city!: string; }
    @ResourceTemplate('places://{where}') @Expects({ where: Where }) class Place { call() {} }
    expect(refused('resource-template')).toBe("Place: template variable 'where' is one value, so field 'where' must be a string, number, boolean or enum.");
    void Place;
  });

  it('a fixed resource with input (an ambient field is fine)', () => {
    class Who { @AmbientContext() officer!: string; }
    @Resource('loans://mine') @Expects(Who) class Mine { call() {} }
    expect(registry.forAdapter('mcp', { kind: 'resource' }).map((d) => d.target)).toEqual([Mine]);
    @Resource('loans://policy') @Expects({ id: String }) class Policy { call() {} }
    expect(refused('resource')).toBe(
      "Policy: a resource at a fixed URI takes no arguments, and its input contract has 'id'. Make it a @ResourceTemplate with those fields as {variables}, or remove them (ambient fields are fine).",
    );
    void Policy;
  });

  it('a prompt argument that is not a scalar', () => {
    @Prompt() @Expects({ ids: [String] }) class Review { call() {} }
    expect(refused('prompt')).toBe(
      "Review: prompt argument 'ids' is an array; clients send prompt arguments as text, so each must be a string, number, boolean or enum. Flatten it into scalar arguments.",
    );
    void Review;
    registry = isolatedRegistry();
    class Applicant { @Field() name!: string; }
    class Desk { @Prompt() @Expects({ applicant: Applicant }) review() {} }
    expect(refused('prompt')).toBe(
      "Desk.review: prompt argument 'applicant' is an object; clients send prompt arguments as text, so each must be a string, number, boolean or enum. Flatten it into scalar arguments.",
    );
    void Desk;
  });

  it("a class prompt whose entry method takes an input but declares no @Expects (a class resource's may: it takes none)", () => {
    @Prompt() class Review { call(input: { applicant: string }) { return input.applicant; } }
    @Resource('loans://mine') class Mine { call(_input: unknown, context: unknown) { return context; } }
    expect(registry.forAdapter('mcp', { kind: 'resource' }).map((d) => d.target)).toEqual([Mine]);
    expect(refused('prompt')).toBe(
      'Review: its entry method call() takes an input, but the class declares no @Expects, so it would accept no arguments at all. ' +
        'Declare the input contract with @Expects(InputDto) or @Expects({ query: String }); a prompt that takes no input but reads its context ' +
        '(call(_input, context)) declares @Expects({}).',
    );
    void Review;
  });

  it('a completion of a tool, or of a fixed resource', () => {
    @Tool() class ApproveLoan { call() {} }
    @Complete(ApproveLoan, 'amount') class Amounts { call() {} }
    expect(refused('completion')).toBe(
      "Amounts: @Complete('amount') completes ApproveLoan, which is a tool; completions are for prompt arguments and resource template variables.",
    );
    void Amounts;
    registry = isolatedRegistry();
    @Resource('loans://policy') class Policy { call() {} @Complete('section') sections() {} }
    expect(refused('completion')).toBe(
      "Policy.sections: @Complete('section') completes Policy, which is a resource; completions are for prompt arguments and resource template variables. " +
        "In a class with several members, name the method: @Complete('section', { of: 'method' }).",
    );
  });

  it('a completion of an unknown argument or variable', () => {
    @Prompt() @Expects({ applicant: String, amount: Integer }) class Review { call() {} }
    @Complete(Review, 'applicnat') class Applicants { call() {} }
    expect(refused('completion')).toBe("Applicants: @Complete('applicnat') completes Review, which has no argument 'applicnat'. Its arguments: applicant, amount.");
    void Applicants;
    registry = isolatedRegistry();
    @ResourceTemplate('loans://{region}/{id}') class Loan { call() {} }
    @Complete(() => Loan, 'branch') class Branches { call() {} }
    expect(refused('completion')).toBe("Branches: @Complete('branch') completes Loan, which has no variable 'branch'. Its variables: region, id.");
    void Branches;
  });

  it('a completion of a class that declares no prompt or template, or of several without naming one', () => {
    class Plain { call() {} }
    @Complete(Plain, 'x') class Xs { call() {} }
    expect(refused('completion')).toBe(
      "Xs: @Complete('x') names Plain, which has no prompt or resource template (on the class or a method). Declare one, or name the class that has it.",
    );
    void Xs;
    registry = isolatedRegistry();
    class Desk {
      @Prompt() @Expects({ applicant: String }) review() {}
      @Prompt() @Expects({ applicant: String }) decline() {}
      @Complete('applicant') applicants() {}
    }
    expect(refused('completion')).toBe(
      "Desk.applicants: @Complete('applicant') names Desk, which has several prompts and templates as methods (review, decline). " +
        "Name the one this completes: @Complete('applicant', { of: 'review' }).",
    );
    void Desk;
  });

  it('a completion thunk that returns no class', () => {
    @Complete(() => undefined as never, 'x') class Xs { call() {} }
    expect(refused('completion')).toBe("Xs: @Complete('x') names undefined as its prompt or template; it must be a class (or a thunk returning one).");
    void Xs;
  });

  it('a completion class with @Expects', () => {
    @Prompt() @Expects({ applicant: String }) class Review { call() {} }
    @Complete(Review, 'applicant') @Expects({ applicant: String }) class Applicants { call() {} }
    expect(refused('completion')).toBe("Applicants: a completion's input is always the completion request ({ argument, value, context }); remove its @Expects.");
    void Applicants;
  });

  it('an unknown kind, or option', () => {
    expect(() => registry.forAdapter('mcp', { kind: 'tools' as never })).toThrow(
      "forAdapter: kind must be one of 'tool', 'resource', 'resource-template', 'prompt' and 'completion'; got 'tools'.",
    );
    expect(() => registry.forAdapter('mcp', { kinds: 'prompt' } as never)).toThrow("forAdapter: unknown option 'kinds'. Known options: allVersions, kind.");
  });

  it('a malformed member of one kind does not derail enumerating another', () => {
    @Prompt() @Expects({ ids: [String] }) class Broken { call() {} }
    @Tool() class Fine { call() {} }
    expect(registry.forAdapter('mcp').map((d) => d.target)).toEqual([Fine]);
    void Broken;
  });
});
