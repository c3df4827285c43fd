import { Complete, DeclarationError, Prompt, Resource, ResourceTemplate, Tool } from 'toolwright';

const TAG_RULE =
  "must be a list of tags (letters, digits and - _ . : /, starting with a letter or digit, up to 64 characters), e.g. ['billing', 'beta']";
const URI_RULE = 'must be a URI with a scheme and no spaces (up to 2048 characters)';

/**
 * Every declaration mistake of @Resource, @ResourceTemplate, @Prompt, @Complete and the `tags`
 * option fails when the class is declared, with a DeclarationError naming where and what to do.
 */
describe('member declaration errors', () => {
  const cases: Array<[string, () => unknown, string]> = [
    ['@Resource without a scheme', () => Resource('policy'), `@Resource: the first argument ${URI_RULE}, e.g. 'loans://policy'; got 'policy'.`],
    ['@Resource with a space', () => Resource('loans://the policy'), `@Resource: the first argument ${URI_RULE}, e.g. 'loans://policy'; got 'loans://the policy'.`],
    ['@Resource with a number', () => Resource(42 as never), `@Resource: the first argument ${URI_RULE}, e.g. 'loans://policy'; got 42.`],
    [
      '@Resource with {variables}',
      () => Resource('loans://applications/{id}'),
      "@Resource('loans://applications/{id}'): a URI with {variables} is a template. Declare it with @ResourceTemplate('loans://applications/{id}').",
    ],
    [
      '@ResourceTemplate without a scheme',
      () => ResourceTemplate('{id}'),
      "@ResourceTemplate: the first argument must be a URI template with a scheme and no spaces (up to 2048 characters), e.g. 'loans://applications/{id}'; got '{id}'.",
    ],
    [
      '@ResourceTemplate with no variables',
      () => ResourceTemplate('loans://policy'),
      "@ResourceTemplate('loans://policy') has no {variables}. A fixed URI is a resource: declare it with @Resource('loans://policy').",
    ],
    [
      '@ResourceTemplate with an unclosed brace',
      () => ResourceTemplate('loans://{id'),
      "@ResourceTemplate('loans://{id'): not an RFC 6570 URI template: the '{' at position 8 is never closed.",
    ],
    [
      '@ResourceTemplate with an invalid variable name',
      () => ResourceTemplate('loans://{loan-id}'),
      "@ResourceTemplate('loans://{loan-id}'): not an RFC 6570 URI template: 'loan-id' is not a variable name (letters, digits, _ and dots between them).",
    ],
    [
      '@ResourceTemplate with two values nothing in a URI separates',
      () => ResourceTemplate('repo://{+path}{var}'),
      "@ResourceTemplate('repo://{+path}{var}'): URIs cannot be matched against it: '{var}' follows '{+path}' with nothing between them, " +
        "so nothing in a URI tells where one value ends: put a literal between them ('{+path}-{var}') or give the second an operator ('{+path}{/var}').",
    ],
    [
      '@ResourceTemplate with two lists in one unnamed expression',
      () => ResourceTemplate('files://{/a*,b*}'),
      "@ResourceTemplate('files://{/a*,b*}'): URIs cannot be matched against it: '{/a*,b*}' explodes two variables in one expression, " +
        'so nothing in a URI tells where one list ends: give each its own expression with a literal between them.',
    ],
    [
      'a mimeType that is not a MIME type',
      () => { @Resource('loans://policy', { mimeType: 'markdown' }) class Policy { call() {} } return Policy; },
      "Policy: @Resource option 'mimeType' must be a MIME type such as 'text/markdown'; got 'markdown'.",
    ],
    [
      'a mimeType on a template that is empty',
      () => { @ResourceTemplate('loans://{id}', { mimeType: '' }) class Loan { call() {} } return Loan; },
      "Loan: @ResourceTemplate option 'mimeType' must be a non-empty string; got ''.",
    ],
    [
      'a negative size',
      () => { @Resource('loans://policy', { size: -1 }) class Policy { call() {} } return Policy; },
      "Policy: @Resource option 'size' must be a whole number of bytes (0 or more); got -1.",
    ],
    [
      'a fractional size',
      () => { @Resource('loans://policy', { size: 1.5 }) class Policy { call() {} } return Policy; },
      "Policy: @Resource option 'size' must be a whole number of bytes (0 or more); got 1.5.",
    ],
    [
      'a size on a template (its size is not known in advance)',
      () => { @ResourceTemplate('loans://{id}', { size: 10 } as never) class Loan { call() {} } return Loan; },
      "Loan: unknown @ResourceTemplate option 'size'. Known options: name, description, title, except, adapters, method, timeoutMs, tags, mimeType, annotations, cache.",
    ],
    [
      'a priority above 1',
      () => { @Resource('loans://policy', { annotations: { priority: 2 } }) class Policy { call() {} } return Policy; },
      "Policy: @Resource option 'annotations' must be { audience?: ('user' | 'assistant')[], priority?: a number from 0 to 1 }; got {\"priority\":2}.",
    ],
    [
      'an unknown audience',
      () => { @ResourceTemplate('loans://{id}', { annotations: { audience: ['bot'] } as never }) class Loan { call() {} } return Loan; },
      "Loan: @ResourceTemplate option 'annotations' must be { audience?: ('user' | 'assistant')[], priority?: a number from 0 to 1 }; got {\"audience\":[\"bot\"]}.",
    ],
    [
      'an unknown annotation',
      () => { @Resource('loans://policy', { annotations: { lastModified: 'x' } as never }) class Policy { call() {} } return Policy; },
      "Policy: @Resource option 'annotations' must be { audience?: ('user' | 'assistant')[], priority?: a number from 0 to 1 }; got {\"lastModified\":\"x\"}.",
    ],
    [
      'a class resource without its entry method',
      () => { @Resource('loans://policy') class Policy { read() {} } return Policy; },
      "Policy: a class resource needs an entry method 'call', and the class has none. Add call(input) or name the entry method with @Resource(uri, { method: '...' }).",
    ],
    [
      'a class prompt without its entry method',
      () => { @Prompt() class Review { run() {} } return Review; },
      "Review: a class prompt needs an entry method 'call', and the class has none. Add call(input) or name the entry method with @Prompt({ method: '...' }).",
    ],
    [
      "'method' on a method template",
      () => { class Desk { @ResourceTemplate('loans://{id}', { method: 'x' }) loan() {} } return Desk; },
      "Desk.loan: the 'method' option is for class resource templates; this @ResourceTemplate already decorates a method.",
    ],
    [
      'an option of another decorator on @Prompt',
      () => { @Prompt({ mimeType: 'text/plain' } as never) class Review { call() {} } return Review; },
      "Review: unknown @Prompt option 'mimeType'. Known options: name, description, title, except, adapters, method, timeoutMs, tags.",
    ],
    ['tags that are not a list', () => { @Tool({ tags: 'billing' as never }) class Pay { call() {} } return Pay; }, `Pay: @Tool option 'tags' ${TAG_RULE}; got 'billing'.`],
    ['a tag with a space', () => { @Prompt({ tags: ['ok', 'has space'] }) class Review { call() {} } return Review; }, `Review: @Prompt option 'tags' ${TAG_RULE}; 'has space' is not one.`],
    ['a tag that is not a string', () => { @Resource('loans://p', { tags: [1 as never] }) class P { call() {} } return P; }, `P: @Resource option 'tags' ${TAG_RULE}; 1 is not one.`],
    ['a tag starting with a dash', () => { class S { @Complete('a', { tags: ['-x'] }) c() {} } return S; }, `S.c: @Complete option 'tags' ${TAG_RULE}; '-x' is not one.`],
    ['a tag past 64 characters', () => { @Tool({ tags: ['x'.repeat(65)] }) class T { call() {} } return T; }, `T: @Tool option 'tags' ${TAG_RULE}; '${'x'.repeat(65)}' is not one.`],
    [
      'two member decorators on one class',
      () => { @Prompt() @Resource('loans://policy') class Policy { call() {} } return Policy; },
      'Policy: it is already declared with @Resource, and a class or method is one member. Move the @Prompt to a method of its own (or another class).',
    ],
    [
      'a tool that is also a prompt, on a method',
      () => { class Desk { @Prompt() @Tool() review() {} } return Desk; },
      'Desk.review: it is already declared with @Tool, and a class or method is one member. Move the @Prompt to a method of its own (or another class).',
    ],
    [
      '@Prompt twice',
      () => { @Prompt() @Prompt() class Review { call() {} } return Review; },
      'Review: @Prompt is already declared. Declare it once; a subclass may declare its own.',
    ],
    [
      '@Complete with an empty argument name',
      () => Complete(''),
      "@Complete: name the argument or variable completed, e.g. @Complete('applicant') or @Complete(ReviewLoan, 'applicant'); got ''.",
    ],
    [
      '@Complete(Class) without the argument',
      () => { class Review {} return Complete(Review, undefined as never); },
      "@Complete: name the argument or variable completed, e.g. @Complete('applicant') or @Complete(ReviewLoan, 'applicant'); got undefined.",
    ],
    [
      '@Complete with a number',
      () => Complete(42 as never),
      "@Complete: the first argument is the argument's name ('applicant') or the class of the prompt or template (ReviewLoan, or () => ReviewLoan); got 42.",
    ],
    ['@Complete with options that are not an object', () => Complete('applicant', 'review' as never), "@Complete('applicant'): the last argument must be an options object; got 'review'."],
    [
      "'of' naming no method",
      () => { class Desk { @Prompt() review() {} @Complete('applicant', { of: 'reveiw' }) applicants() {} } return Desk; },
      "Desk.applicants: @Complete option 'of' names 'reveiw', which is not a method of Desk. Name the prompt or template method.",
    ],
    [
      "'of' naming a property",
      () => { class Desk { review = 'x'; @Complete('applicant', { of: 'review' }) applicants() {} } return Desk; },
      "Desk.applicants: @Complete option 'of' names 'review', which is not a method of Desk. Name the prompt or template method.",
    ],
    [
      "'of' that is not a string",
      () => { class Desk { @Complete('applicant', { of: 1 as never }) applicants() {} } return Desk; },
      "Desk.applicants: @Complete option 'of' must be a non-empty string; got 1.",
    ],
    [
      'a name on a completion (it has none of its own)',
      () => { class Desk { @Complete('applicant', { name: 'x' } as never) applicants() {} } return Desk; },
      "Desk.applicants: unknown @Complete option 'name'. Known options: except, adapters, method, timeoutMs, tags, of.",
    ],
  ];

  it.each(cases)('%s', (_label, declare, message) => {
    let thrown: unknown;
    try {
      declare();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DeclarationError);
    expect((thrown as Error).message).toBe(message);
  });

  it('a URI past 2048 characters is refused, and the message quotes only its start', () => {
    expect(() => Resource(`loans://${'a'.repeat(2040)}`)).not.toThrow();
    let message = '';
    try {
      Resource(`loans://${'a'.repeat(2041)}`);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.startsWith(`@Resource: the first argument ${URI_RULE}, e.g. 'loans://policy'; got 'loans://aaa`)).toBe(true);
    expect(message.endsWith("…'.")).toBe(true);
    expect(message.length).toBeLessThan(400);
  });
});
