/**
 * One invalid-input answer names every invalid field, whichever checker found it (the schema, or
 * class-validator for what the schema cannot say), in declaration order, with a wrong type read as
 * the type it must be: a model fixes the whole call in one round trip.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsString, IsUrl, Max, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { configure, Expects, invoke, Invoker, Tool } from 'toolwright';
import { connectInMemory } from '../helpers/mcp';

class LoanApplication {
  @IsString() @MinLength(2) @MaxLength(100) applicant!: string;
  @IsInt() @Max(1_000_000) amount!: number;
  @IsEmail() email!: string;
}

let ran = 0;

@Tool({ name: 'apply_for_loan', description: 'Applies for a loan', error: 'Could not apply' })
@Expects(LoanApplication)
class ApplyForLoan {
  call() {
    ran++;
    return 'applied';
  }
}

const valid = { applicant: 'Ada Lovelace', amount: 5_000, email: 'ada@example.com' };

describe('every invalid field in one answer', () => {
  beforeEach(() => (ran = 0));

  it("the schema's problem and class-validator's together: amount and email", async () => {
    const result = await invoke(ApplyForLoan, { ...valid, amount: 5_000_000, email: 'not-an-email' });
    expect(result.fieldErrors).toEqual([
      { field: 'amount', message: 'amount must not be greater than 1000000', keyword: 'maximum', params: { limit: 1_000_000 } },
      { field: 'email', message: 'email must be an email', keyword: 'format', params: { format: 'email' } },
    ]);
    expect(result.error).toBe('Could not apply: amount must not be greater than 1000000 and email must be an email');
    expect(ran).toBe(0);
  });

  it('a wrong type reads as the type it must be, not as the first constraint declared (@MaxLength)', async () => {
    const result = await invoke(ApplyForLoan, { ...valid, applicant: 42 });
    expect(result.fieldErrors).toEqual([{ field: 'applicant', message: 'applicant must be a string', keyword: 'type', params: { type: 'string' } }]);
  });

  it('in declaration order, whoever found each problem; class-validator never runs on a value of the wrong type', async () => {
    const result = await invoke(ApplyForLoan, { email: 42, amount: 'lots', applicant: 'A' });
    expect(result.fieldErrors?.map((error) => [error.field, error.keyword, error.message])).toEqual([
      ['applicant', 'minLength', 'applicant must be longer than or equal to 2 characters'],
      ['amount', 'type', 'amount must be an integer number'],
      ['email', 'type', 'email must be a string'],
    ]);
    // Found by class-validator (email, first declared) and the schema (count): listed in declaration order.
    class Signup {
      @IsEmail() email!: string;
      @IsInt() @Max(10) seats!: number;
    }
    @Tool({ name: 'sign_up' })
    @Expects(Signup)
    class SignUp {
      call() {}
    }
    expect((await invoke(SignUp, { seats: 11, email: 'nope' })).fieldErrors?.map((error) => error.field)).toEqual(['email', 'seats']);
  });

  it("a type-declaring decorator's own message is kept for a wrong type", async () => {
    class Named {
      @IsString({ message: 'give the name as text' }) @MaxLength(10) name!: string;
    }
    @Tool({ name: 'named' })
    @Expects(Named)
    class NamedTool {
      call() {}
    }
    expect((await invoke(NamedTool, { name: 42 })).fieldErrors?.[0]).toMatchObject({ keyword: 'type', message: 'give the name as text' });
  });

  it("a @ValidateIf condition that cannot read a refused sibling does not turn the answer into a bug report", async () => {
    const reported: unknown[] = [];
    configure({ onException: (error) => reported.push(error) });
    try {
      class Target {
        @IsString() kind!: string;
        @ValidateIf((o: Target) => o.kind.startsWith('web')) @IsUrl({ require_protocol: true }) address!: string;
        @IsEmail() owner!: string;
      }
      @Tool({ name: 'target' })
      @Expects(Target)
      class TargetTool {
        call() {}
      }
      const result = await invoke(TargetTool, { kind: 7, address: 'room 4', owner: 'nobody' });
      expect(result.outcome).toBe('failure');
      expect(result.fieldErrors?.map((error) => error.field)).toEqual(['kind']);
      expect(reported).toEqual([]);
      // A condition that reads fine: class-validator's problems join the schema's.
      const web = await invoke(TargetTool, { kind: 'web', address: 'room 4', owner: 'nobody', extra: 1 });
      expect(web.fieldErrors?.map((error) => error.field)).toEqual(['extra', 'address', 'owner']);
    } finally {
      configure({ onException: undefined });
    }
  });

  describe('nested, past the cap', () => {
    class Contact {
      @IsInt() @Max(10) seats!: number;
      @IsEmail() email!: string;
    }
    class Mailing {
      @ValidateNested({ each: true }) @Type(() => Contact) contacts!: Contact[];
    }
    @Tool({ name: 'mail' })
    @Expects(Mailing)
    class Mail {
      call() {}
    }

    it.each([
      ['compiled', new Invoker()],
      ['generic', new Invoker({ compiled: false })],
    ])('10,000 invalid items, each with a schema and a class-validator problem: twenty listed in order, the rest counted (%s)', async (_, invoker) => {
      const contacts = Array.from({ length: 10_000 }, () => ({ seats: 11, email: 'nope' }));
      const result = await invoker.invoke(Mail, { contacts });
      expect(result.fieldErrors).toHaveLength(21);
      expect(result.fieldErrors?.slice(0, 4).map((error) => error.field)).toEqual(['contacts[0].seats', 'contacts[0].email', 'contacts[1].seats', 'contacts[1].email']);
      expect(result.fieldErrors?.[19].field).toBe('contacts[9].email');
      expect(result.fieldErrors?.[20]).toEqual({ field: 'base', message: 'and 19,980 more problems', keyword: 'truncated', params: { count: 19_980 } });
      expect(JSON.stringify(result).length).toBeLessThan(6_500);
    });

    it('an item of the wrong type is one problem: nothing inside it is checked', async () => {
      const result = await invoke(Mail, { contacts: ['not a contact', { seats: 1, email: 'nope' }] });
      expect(result.fieldErrors?.map((error) => [error.field, error.keyword])).toEqual([
        ['contacts[0]', 'type'],
        ['contacts[1].email', 'format'],
      ]);
    });
  });

  it('Invoker.validate answers the same', async () => {
    const checked = await new Invoker().validate(ApplyForLoan, { ...valid, amount: 5_000_000, email: 'not-an-email' });
    expect(checked.ok ? [] : checked.result.fieldErrors?.map((error) => error.field)).toEqual(['amount', 'email']);
  });

  it('over MCP (SDK Client): the text the model reads names every field, and _meta.fieldErrors lists them', async () => {
    const { client, close } = await connectInMemory({ name: 'loans', version: '1.0.0', tools: [ApplyForLoan] });
    try {
      expect(await client.callTool({ name: 'apply_for_loan', arguments: { ...valid, amount: 5_000_000, email: 'not-an-email' } })).toEqual({
        isError: true,
        content: [{ type: 'text', text: 'Could not apply: amount must not be greater than 1000000 and email must be an email' }],
        _meta: {
          fieldErrors: [
            { field: 'amount', message: 'amount must not be greater than 1000000' },
            { field: 'email', message: 'email must be an email' },
          ],
        },
      });
      const wrongType = await client.callTool({ name: 'apply_for_loan', arguments: { ...valid, applicant: 42 } });
      expect(wrongType.content).toEqual([{ type: 'text', text: 'Could not apply: applicant must be a string' }]);
    } finally {
      await close();
    }
  });
});
