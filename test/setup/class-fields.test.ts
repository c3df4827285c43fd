/**
 * DTOs compiled with `useDefineForClassFields` on (TypeScript 7's default, and 5.x's from target
 * ES2022) and off (this repository's setting): with define semantics every declared field is an own
 * property of each instance, set to `undefined` until assigned. Contract building, validation, the
 * class-transformer conversion and the rendered output must not notice. The DTOs are compiled here by
 * the TypeScript compiler with each setting, then loaded with this test's `require` (public entry
 * points only).
 */
import * as ts from 'typescript';
import { Toolbox } from 'toolwright/openai';
import { connectInMemory } from '../helpers/mcp';

const SOURCE = `
import 'reflect-metadata';
import { IsEmail, IsInt, IsOptional, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { injectable } from 'tsyringe';
import { AmbientContext, Expects, Exposes, Field, Integer, Tool, ToolVersion, invoke, inputSchema, outputSchema } from 'toolwright';

export class Address {
  @Field() city: string;
  @Field({ optional: true }) zip?: string;
}

export class Tag {
  @Field() label: string;
}

export class SignupInput {
  @Field({ description: 'Where to write' }) @IsEmail() email: string;
  @Field() @IsInt() @Min(18) age: number;
  @Field({ optional: true }) nickname?: string;
  @Field({ default: 'free' }) plan: string;
  @Field({ nullable: true }) referrer: string | null;
  @Field() @ValidateNested() @Type(() => Address) address: Address;
  @Field({ type: () => [Tag], optional: true }) tags?: Tag[];
  @Field({ type: Date, optional: true }) birthday?: Date;
  @AmbientContext() tenant: string;
}

export class Account {
  @Field() id: string;
  @Field({ type: Integer }) age: number;
  @Field({ optional: true }) nickname?: string;
  @Field() plan: string;
  @Field() address: Address;
  @Field({ type: () => [Tag] }) tags: Tag[];
  @Field({ optional: true }) note?: string;
}

@injectable()
export class Clock {
  now = 'now';
}

@Tool({ description: 'Sign up' })
@ToolVersion(1)
@Expects(SignupInput)
@Exposes(Account)
@injectable()
export class Signup {
  constructor(private readonly clock: Clock) {}
  static seen: unknown[] = [];
  call(input: SignupInput) {
    Signup.seen.push(input);
    const account = new Account();
    account.id = input.tenant + ':' + input.email + ':' + this.clock.now;
    account.age = input.age;
    account.plan = input.plan;
    account.address = input.address;
    account.tags = input.tags ?? [];
    if (input.nickname !== undefined) account.nickname = input.nickname;
    return account;
  }
}

@Tool({ description: 'Sign up, forgetting the plan' })
@Expects(SignupInput)
@Exposes(Account)
export class ForgetfulSignup {
  call(input: SignupInput) {
    const account = new Account();
    account.id = input.email;
    account.age = input.age;
    account.address = input.address;
    account.tags = [];
    return account;
  }
}

export const run = { invoke, inputSchema, outputSchema };
`;

interface Compiled {
  Signup: { seen: unknown[] };
  ForgetfulSignup: object;
  SignupInput: new () => object;
  Address: new () => object;
  run: {
    invoke: typeof import('toolwright').invoke;
    inputSchema: typeof import('toolwright').inputSchema;
    outputSchema: typeof import('toolwright').outputSchema;
  };
}

function compile(useDefineForClassFields: boolean): Compiled {
  const { outputText, diagnostics } = ts.transpileModule(SOURCE, {
    reportDiagnostics: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields,
    },
  });
  expect(diagnostics).toEqual([]);
  const module = { exports: {} as Compiled };
  new Function('require', 'module', 'exports', outputText)(require, module, module.exports);
  return module.exports;
}

const settings = { define: compile(true), assign: compile(false) };

describe.each([
  ['on (define semantics)', true],
  ['off (assignment semantics)', false],
])('useDefineForClassFields %s', (_name, define) => {
  const compiled = define ? settings.define : settings.assign;

  it(`a fresh DTO ${define ? 'has' : 'has no'} own undefined fields`, () => {
    const input = new compiled.SignupInput();
    expect(Object.keys(input)).toEqual(define ? ['email', 'age', 'nickname', 'plan', 'referrer', 'address', 'tags', 'birthday', 'tenant'] : []);
  });

  it('builds the same contract under both settings: no ambient field, required as declared', () => {
    const input = compiled.run.inputSchema(compiled.Signup as never);
    expect(Object.keys(input.properties as object)).toEqual(['email', 'age', 'nickname', 'plan', 'referrer', 'address', 'tags', 'birthday']);
    expect(input.required).toEqual(['email', 'age', 'address']);
    expect(compiled.run.outputSchema(compiled.Signup as never)!.required).toEqual(['id', 'age', 'plan', 'address', 'tags']);
    const other = define ? settings.assign : settings.define;
    expect(input).toEqual(other.run.inputSchema(other.Signup as never));
    expect(compiled.run.outputSchema(compiled.Signup as never)).toEqual(other.run.outputSchema(other.Signup as never));
  });

  it('validates, converts and renders: absent optional fields stay absent, defaults apply, nested DTOs are instances', async () => {
    compiled.Signup.seen.length = 0;
    const result = await compiled.run.invoke(
      compiled.Signup as never,
      { email: 'ada@example.com', age: 36, referrer: null, address: { city: 'London' } },
      { ambientContext: { tenant: 't1' } },
    );
    const account = { id: 't1:ada@example.com:now', age: 36, plan: 'free', address: { city: 'London' }, tags: [] };
    expect(JSON.stringify(result.ok && result.value)).toBe(JSON.stringify(account));
    // Rendered for MCP (checked against the output schema by the SDK's client too) and for function
    // calling: toStrictEqual fails on an own `undefined` key, such as an unset optional output field.
    const mcp = await connectInMemory({ name: 'class-fields', version: '1.0.0', tools: [compiled.Signup as never], ambientContext: () => ({ tenant: 't1' }) });
    try {
      const called = await mcp.client.callTool({ name: 'signup', arguments: { email: 'ada@example.com', age: 36, referrer: null, address: { city: 'London' } } });
      expect([called.isError, called.structuredContent]).toStrictEqual([undefined, account]);
    } finally {
      await mcp.close();
    }
    const record = await new Toolbox([compiled.Signup as never], { ambientContext: { tenant: 't1' } }).invoke({
      id: 'call_1',
      name: 'signup',
      arguments: '{"email":"ada@example.com","age":36,"referrer":null,"address":{"city":"London"}}',
    });
    expect(record.data).toStrictEqual(account);
    const seen = compiled.Signup.seen[0] as Record<string, unknown>;
    expect(seen).toBeInstanceOf(compiled.SignupInput);
    expect(seen.address).toBeInstanceOf(compiled.Address);
    expect([seen.plan, seen.tenant, seen.nickname, 'nickname' in seen ? 'own' : 'absent']).toEqual(['free', 't1', undefined, define ? 'own' : 'absent']);
  });

  it('still refuses bad input field by field, and an output missing a required field', async () => {
    const bad = await compiled.run.invoke(compiled.Signup as never, { email: 'nope', age: 12, referrer: null, address: {} }, { ambientContext: { tenant: 't1' } });
    expect(bad.ok).toBe(false);
    // The schema's problems and class-validator's own (the email) in one answer.
    expect(bad.ok ? [] : bad.fieldErrors.map((error) => error.field).sort()).toEqual(['address.city', 'age', 'email']);
    const badEmail = await compiled.run.invoke(compiled.Signup as never, { email: 'nope', age: 36, referrer: null, address: { city: 'Paris' } }, { ambientContext: { tenant: 't1' } });
    expect(badEmail.ok ? [] : badEmail.fieldErrors.map((error) => error.field)).toEqual(['email']);
    // The output check sees an unset required field as missing, whether it is an own `undefined` or absent.
    const forgetful = await compiled.run.invoke(compiled.ForgetfulSignup as never, { email: 'ada@example.com', age: 36, referrer: null, address: { city: 'Paris' } }, {
      ambientContext: { tenant: 't1' },
      onException: () => undefined,
    });
    expect(forgetful.outcome).toBe('exception');
    expect(forgetful.outcome === 'exception' && String((forgetful.exception as Error).message)).toMatch(/plan/);
  });
});
