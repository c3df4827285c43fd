import {
  AmbientContext,
  Description,
  Expects,
  Exposes,
  FailsOn,
  Field,
  SemanticHints,
  Tool,
  ToolVersion,
} from 'toolwright';

/** Every declaration mistake fails at decoration time with a message naming where and what to do. */
describe('declaration errors', () => {
  const cases: Array<[string, () => unknown, string]> = [
    [
      '@Tool(false) combined with a grant',
      () => {
        // @ts-expect-error the overloads refuse false with anything else; so does the runtime, for JavaScript
        @Tool(false, 'mcp') class A { call() {} }
        return A;
      },
      '@Tool(false) opts out of every adapter and cannot be combined with adapter keys or options. Remove false, or remove the other arguments.',
    ],
    [
      '@Tool(false) combined with options',
      () => {
        // @ts-expect-error as above
        @Tool(false, { name: 'x' }) class A { call() {} }
        return A;
      },
      '@Tool(false) opts out of every adapter and cannot be combined',
    ],
    [
      '@Tool twice on one class',
      () => { @Tool() @Tool('mcp') class Twice { call() {} } return Twice; },
      'Twice: @Tool is already declared. Declare it once; a subclass may declare its own.',
    ],
    [
      'a class tool without its entry method',
      () => { @Tool() class NoCall { run() {} } return NoCall; },
      "NoCall: a class tool needs an entry method 'call', and the class has none. Add call(input) or name the entry method with @Tool({ method: '...' }).",
    ],
    [
      'a named entry method that does not exist',
      () => { @Tool({ method: 'execute' }) class Runner { call() {} } return Runner; },
      "Runner: a class tool needs an entry method 'execute', and the class has none.",
    ],
    [
      "'method' on a method tool",
      () => { class S { @Tool({ method: 'x' }) status() {} } return S; },
      "S.status: the 'method' option is for class tools; this @Tool already decorates a method.",
    ],
    [
      'a name with no provider-safe character',
      () => { @Tool({ name: '!!!' }) class A { call() {} } return A; },
      "A: tool name '!!!' has no provider-safe character. Use letters, digits or _ (e.g. approve_loan).",
    ],
    [
      'a per-adapter name with no provider-safe character',
      () => { @Tool({ adapters: { mcp: { name: '---' } } }) class A { call() {} } return A; },
      "A: tool name '---' has no provider-safe character.",
    ],
    [
      'an unknown option',
      () => { @Tool({ descripton: 'typo' } as never) class A { call() {} } return A; },
      "A: unknown @Tool option 'descripton'. Known options: name, description, title, except, adapters, method, timeoutMs, tags, error, success, approval.",
    ],
    [
      'a bag that is not an object',
      () => { @Tool({ adapters: { mcp: 'x' as never } }) class A { call() {} } return A; },
      "A: the options for adapter 'mcp' must be an object (e.g. { name: 'x' }); got 'x'.",
    ],
    [
      'an argument that is neither key, options nor false',
      () => { @Tool(42 as never) class A { call() {} } return A; },
      "@Tool: unexpected argument 42. Pass adapter keys ('mcp'), one options object, or false to opt out.",
    ],
    [
      'an adapter key with spaces',
      () => { @Tool('my adapter') class A { call() {} } return A; },
      "@Tool: 'my adapter' is not an adapter key.",
    ],
    [
      "a malformed 'except'",
      () => { @Tool({ except: [1] as never }) class A { call() {} } return A; },
      "A: @Tool option 'except' must be an adapter key or a list of them; got [1].",
    ],
    [
      'an empty description option',
      () => { @Tool({ description: ' ' }) class A { call() {} } return A; },
      "A: @Tool option 'description' must be a non-empty string; got ' '.",
    ],
    [
      '@Tool on a static method',
      () => { class S { @Tool() static status() {} } return S; },
      '@Tool on static method S.status: tools are instance methods, resolved through DI. Make it an instance method.',
    ],
    [
      '@Tool on a property',
      () => { class S { @(Tool() as never as PropertyDecorator) status = 1; } return S; },
      '@Tool on S.status: it decorates classes and methods, not properties or accessors.',
    ],
    ['@ToolVersion(0)', () => ToolVersion(0), '@ToolVersion must be an integer >= 1 (got 0).'],
    ['@ToolVersion(1.5)', () => ToolVersion(1.5), '@ToolVersion must be an integer >= 1 (got 1.5).'],
    ["@ToolVersion('2')", () => ToolVersion('2' as never), "@ToolVersion must be an integer >= 1 (got '2')."],
    [
      '@ToolVersion twice',
      () => { @ToolVersion(2) @ToolVersion(3) class A {} return A; },
      'A: @ToolVersion is already declared. Declare it once.',
    ],
    [
      'a V2 class declaring version 3 (@Tool above)',
      () => { @Tool() @ToolVersion(3) class ApproveLoanV2 { call() {} } return ApproveLoanV2; },
      'ApproveLoanV2: class name ends in V2 but declares @ToolVersion(3). Rename it to ApproveLoanV3 or drop the suffix.',
    ],
    [
      'a V2 class declaring version 3 (@ToolVersion above)',
      () => { @ToolVersion(3) @Tool() class ApproveLoanV2 { call() {} } return ApproveLoanV2; },
      'ApproveLoanV2: class name ends in V2 but declares @ToolVersion(3).',
    ],
    [
      'a v2 method declaring version 1',
      () => { class S { @Tool() @ToolVersion(1) approveV2() {} } return S; },
      'S.approveV2: method name ends in V2 but declares @ToolVersion(1). Rename it to approveV1 or drop the suffix.',
    ],
    ['an empty @Description', () => Description(''), "@Description needs a non-empty string; got ''."],
    [
      'a description declared twice',
      () => { @Tool({ description: 'a' }) @Description('b') class A { call() {} } return A; },
      'A: the description is declared twice, in @Tool({ description }) and @Description. Keep one.',
    ],
    [
      'an unknown semantic hint',
      () => { @SemanticHints('readonly') class A {} return A; },
      "A: unknown semantic hint 'readonly'. Known hints: readOnly, idempotent and destructive. An adapter can add more with Extensions.registerSemanticHint().",
    ],
    [
      'contradicting hints',
      () => { @SemanticHints('readOnly', 'destructive') class A {} return A; },
      'A: a tool cannot be both readOnly and destructive. Keep the one that is true.',
    ],
    ['no hints', () => { @SemanticHints() class A {} return A; }, 'A: @SemanticHints needs at least one hint.'],
    ['@FailsOn with a non-class', () => FailsOn('Error' as never), "@FailsOn needs an error class as its first argument; got 'Error'."],
    ['@FailsOn with an empty message', () => FailsOn(RangeError, ''), "@FailsOn(RangeError): the message must be a non-empty string; got ''."],
    [
      '@FailsOn twice for one class',
      () => { @FailsOn(RangeError) @FailsOn(RangeError, 'x') class A {} return A; },
      'A: @FailsOn(RangeError) is already declared. Declare it once.',
    ],
    [
      '@Expects(undefined), as a circular import gives',
      () => { @Expects(undefined as never) class A {} return A; },
      'A: @Expects: the contract is undefined. If this is a circular import, pass a thunk: () => MyDto.',
    ],
    [
      '@Expects with a number',
      () => { @Expects(5 as never) class A {} return A; },
      'A: @Expects: expected a DTO class, a thunk () => Dto, or an inline shape object; got 5.',
    ],
    [
      '@Exposes with an empty inline shape (@Expects({}) declares "no input"; an empty output is a mistake)',
      () => { @Exposes({}) class A {} return A; },
      'A: @Exposes: an inline contract needs at least one field. Leave @Exposes out for a tool that exposes nothing.',
    ],
    [
      'an inline field that is neither type nor options',
      () => { @Expects({ query: 'string' as never }) class A {} return A; },
      "A: @Expects field 'query': expected a type (String, Number, Integer, Boolean, Date, a class, [Type]) or field options; got 'string'.",
    ],
    [
      'an inline field with a typo',
      () => { @Expects({ limit: { type: Number, optinal: true } }) class A {} return A; },
      "A: @Expects field 'limit': unknown field option 'optinal'.",
    ],
    [
      'an ambient field in an output shape',
      () => { @Exposes({ id: { type: String, ambient: true } }) class A {} return A; },
      "A: @Exposes field 'id': unknown field option 'ambient'.",
    ],
    [
      '@Expects twice',
      () => { @Expects({ a: String }) @Expects({ b: String }) class A {} return A; },
      'A: @Expects is already declared. Declare it once.',
    ],
    [
      '@Field with an unknown option',
      () => { class Dto { @Field({ requird: true } as never) name!: string; } return Dto; },
      "Dto.name: unknown field option 'requird'.",
    ],
    [
      '@Field with min above max',
      () => { class Dto { @Field({ min: 5, max: 1 }) n!: number; } return Dto; },
      "Dto.n: 'min' (5) is greater than 'max' (1); no value could satisfy both.",
    ],
    [
      '@Field with an empty enum',
      () => { class Dto { @Field({ enum: [] }) n!: string; } return Dto; },
      "Dto.n: 'enum' must be a non-empty list of strings, numbers or booleans; got [].",
    ],
    [
      '@Field with both type and anyOf',
      () => { class Dto { @Field({ type: () => String, anyOf: () => [Number] }) n!: string; } return Dto; },
      "Dto.n: declare either 'type' or 'anyOf', not both.",
    ],
    [
      '@Field with a bad pattern',
      () => { class Dto { @Field({ pattern: '(' }) n!: string; } return Dto; },
      "Dto.n: 'pattern' is not a valid regular expression",
    ],
    [
      '@Field twice',
      () => { class Dto { @Field() @Field() n!: string; } return Dto; },
      'Dto.n: @Field is already declared. Declare it once.',
    ],
    ['@AmbientContext with an empty key', () => AmbientContext({ key: '' }), "@AmbientContext: 'key' must be a non-empty string; got ''."],
    ['@AmbientContext with an unknown option', () => AmbientContext({ name: 'x' } as never), "@AmbientContext: unknown option 'name'. The only option is 'key'."],
  ];

  it.each(cases)('%s', (_label, declare, message) => {
    expect(declare).toThrow(message);
  });

  it('declaration mistakes are plain TypeErrors, not runtime toolwright errors', () => {
    expect(() => ToolVersion(0)).toThrow(TypeError);
  });
});
