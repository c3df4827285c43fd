/**
 * The holes the differential test (./differential.property.test.ts) was written for, one by one, so
 * each has a name when it comes back: a DTO shared with a NestJS controller is never looser in a
 * tool than in the controller, and the schema shown never asserts a format the runtime does not mean
 * (`@IsEmail`'s and `@IsUrl`'s formats are annotations: class-validator checks those values).
 */
import 'reflect-metadata';
import {
  ArrayUnique,
  IsDate,
  IsEmail,
  IsInt,
  IsNumber,
  IsString,
  IsUrl,
  IsUUID,
  isURL,
  Matches,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  validate,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { plainToInstance, Type } from 'class-transformer';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Expects, inputSchema, invoke, schemaOf, Tool } from 'toolwright';
import { isolatedRegistry } from 'toolwright/testing';

beforeAll(() => isolatedRegistry());

/** A tool over a DTO that hands back what it received. */
function echo(Dto: new () => object): Function {
  @Tool({ name: `echo_${Dto.name}`, description: 'echo' })
  @Expects(Dto)
  class Echo {
    call(input: object) {
      return { ...input };
    }
  }
  return Echo;
}

/** A DTO's schema, derived for the first time, and the warnings deriving it gave. */
function schemaAndWarnings(Dto: Function): [ReturnType<typeof schemaOf>, string[]] {
  const warnings: string[] = [];
  const spy = jest.spyOn(process, 'emitWarning').mockImplementation(((message: string) => warnings.push(message)) as never);
  try {
    return [schemaOf(Dto), warnings];
  } finally {
    spy.mockRestore();
  }
}

describe('@IsUrl and @IsEmail options are enforced (SSRF)', () => {
  class Fetch {
    @IsUrl({ protocols: ['https'], require_protocol: true, host_whitelist: ['api.example.com'] }) url!: string;
  }
  const FetchTool = echo(Fetch);

  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO', 'http://api.example.com/', 'https://169.254.169.254/', 'https://evil.com/'])(
    'refuses %s with class-validator’s message, as a format problem',
    async (url) => {
      const result = await invoke(FetchTool, { url });
      expect(result.ok).toBe(false);
      expect(result.fieldErrors).toEqual([{ field: 'url', keyword: 'format', params: { format: 'url' }, message: 'url must be a URL address' }]);
    },
  );

  it('accepts what the options allow, and shows format uri as an annotation only', async () => {
    expect((await invoke(FetchTool, { url: 'https://api.example.com/v1' })).value).toEqual({ url: 'https://api.example.com/v1' });
    expect(inputSchema(FetchTool).properties).toEqual({ url: { type: 'string', format: 'uri', minLength: 1 } });
  });

  it('@IsEmail: a host whitelist holds; an IP domain is refused; an internationalised domain is accepted as class-validator accepts it', async () => {
    class Invite {
      @IsEmail({ host_whitelist: ['example.com'] }) to!: string;
    }
    class Contact {
      @IsEmail() email!: string;
    }
    const InviteTool = echo(Invite);
    const ContactTool = echo(Contact);
    expect((await invoke(InviteTool, { to: 'a@evil.com' })).ok).toBe(false);
    expect((await invoke(InviteTool, { to: 'a@example.com' })).ok).toBe(true);
    expect((await invoke(ContactTool, { email: 'a@127.0.0.1' })).ok).toBe(false);
    expect((await invoke(ContactTool, { email: 'a@bücher.de' })).ok).toBe(true);
  });
});

describe('re-checks reach nested classes and array items', () => {
  class Hook {
    @IsUrl({ protocols: ['https'], require_protocol: true }) target!: string;
  }
  class Subscription {
    @ValidateNested() @Type(() => Hook) primary!: Hook;
    @ValidateNested({ each: true }) @Type(() => Hook) more!: Hook[];
  }
  const SubscribeTool = echo(Subscription);

  it('refuses a file: URL two levels down, naming its path', async () => {
    const ok = { primary: { target: 'https://example.com/a' }, more: [{ target: 'https://example.com/b' }] };
    expect((await invoke(SubscribeTool, ok)).ok).toBe(true);
    const nested = await invoke(SubscribeTool, { ...ok, more: [{ target: 'https://example.com/b' }, { target: 'file:///etc/passwd' }] });
    expect(nested.fieldErrors).toEqual([{ field: 'more[1].target', keyword: 'format', params: { format: 'url' }, message: 'more[1].target must be a URL address' }]);
  });
});

describe('a custom constraint under a built-in name is not the built-in', () => {
  function IsUrlOfOurs(): PropertyDecorator {
    return (object, propertyName) =>
      registerDecorator({
        name: 'isUrl',
        target: object.constructor,
        propertyName: propertyName as string,
        validator: { validate: (value: unknown) => value === 'internal:home' },
      });
  }
  @ValidatorConstraint({ name: 'isUUID' })
  class TicketId implements ValidatorConstraintInterface {
    validate(value: unknown) {
      return typeof value === 'string' && /^T-\d+$/.test(value);
    }
  }

  it('registered as isUrl: it runs, format uri never replaces it, and the warning says what it is', async () => {
    const warnings: string[] = [];
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(((message: string) => warnings.push(message)) as never);
    class Link {
      @IsString() @IsUrlOfOurs() href!: string;
    }
    const LinkTool = echo(Link);
    schemaOf(Link);
    spy.mockRestore();
    expect(warnings).toContain(
      "toolwright: Link.href uses a custom constraint registered as 'isUrl', which JSON Schema cannot express. It is checked at run time only.",
    );
    expect(schemaOf(Link).properties).toEqual({ href: { type: 'string', minLength: 1 } });
    expect((await invoke(LinkTool, { href: 'internal:home' })).ok).toBe(true);
    const refused = await invoke(LinkTool, { href: 'https://example.com/' });
    expect(refused.ok).toBe(false);
    expect(refused.fieldErrors?.[0]).toMatchObject({ field: 'href', keyword: 'isUrl' });
  });

  /** A decorator registered under a built-in's name, with a check of its own. */
  function Ours(name: string, check: (value: unknown) => boolean): PropertyDecorator {
    return (object, propertyName) =>
      registerDecorator({ name, target: object.constructor, propertyName: propertyName as string, validator: { validate: check } });
  }
  // Both answer as isEmail() and isURL() do on the probes that tell built-ins apart; each is stricter.
  const OurEmail = () => Ours('isEmail', (value) => typeof value === 'string' && /^[a-z.]+@example\.com$/.test(value));
  const OurUrl = () => Ours('isUrl', (value) => typeof value === 'string' && isURL(value) && value.includes('example.com'));

  it('one registered as isEmail or isUrl that answers as the built-in on its probes still decides on the compiled path (no fast check stands in)', async () => {
    class Signup {
      @IsString() @OurEmail() email!: string;
      @IsString() @OurUrl() home!: string;
    }
    const SignupTool = echo(Signup);
    const good = { email: 'ada@example.com', home: 'https://example.com/ada' };
    expect((await invoke(SignupTool, good)).ok).toBe(true);
    // Valid to class-validator's isEmail and isURL, refused by these two.
    const refused = await invoke(SignupTool, { email: 'a.b+tag@gmail.com', home: 'https://www.google.com/search?q=x#y' });
    expect(refused.fieldErrors?.map((error) => [error.field, error.keyword])).toEqual([
      ['email', 'format'],
      ['home', 'format'],
    ]);
  });

  it('a constraint class named isUUID: it runs, and format uuid is not shown', async () => {
    class Ticket {
      @IsString() @Validate(TicketId) id!: string;
    }
    const TicketTool = echo(Ticket);
    expect(schemaOf(Ticket).properties).toEqual({ id: { type: 'string', minLength: 1 } });
    expect((await invoke(TicketTool, { id: 'T-42' })).ok).toBe(true);
    expect((await invoke(TicketTool, { id: '123e4567-e89b-12d3-a456-426614174000' })).ok).toBe(false);
  });
});

describe('a built-in is recognised per use: no verdict stands in for another use', () => {
  /** A constraint registered as 'min' that answers as @Min only when its limit is 1; with any other it wants 42. */
  @ValidatorConstraint({ name: 'min' })
  class MinWhenOne implements ValidatorConstraintInterface {
    validate(value: unknown, args?: ValidationArguments) {
      return args?.constraints[0] === 1 ? typeof value === 'number' && value >= 1 : value === 42;
    }
  }
  const AtLeast =
    (limit: number): PropertyDecorator =>
    (object, propertyName) =>
      registerDecorator({ name: 'min', target: object.constructor, propertyName: propertyName as string, constraints: [limit], validator: MinWhenOne });
  /** Registered as 'min' with @Min(1)'s constraints, after a real @Min(1): it refuses what is over 20. */
  const MinUpTo20 = (): PropertyDecorator => (object, propertyName) =>
    registerDecorator({
      name: 'min',
      target: object.constructor,
      propertyName: propertyName as string,
      constraints: [1],
      validator: { validate: (value: unknown) => typeof value === 'number' && value >= 1 && value <= 20 },
    });

  it('one constraint class under two limits: each limit is probed, and the one that is not @Min runs in class-validator', async () => {
    class Stock {
      @IsInt() @AtLeast(1) shelf!: number;
      @IsInt() @AtLeast(5) crate!: number;
    }
    const StockTool = echo(Stock);
    const [schema] = schemaAndWarnings(Stock);
    expect(schema.properties).toEqual({ shelf: { type: 'integer', minimum: 1 }, crate: { type: 'integer' } });
    const refused = await invoke(StockTool, { shelf: 1, crate: 6 });
    expect(refused.fieldErrors).toEqual([expect.objectContaining({ field: 'crate', keyword: 'min' })]);
    expect((await invoke(StockTool, { shelf: 1, crate: 42 })).ok).toBe(true);
  });

  it("a look-alike with a real @Min(1)'s name and constraints, declared after it, is still a look-alike", async () => {
    class Order {
      @IsInt() @Min(1) quantity!: number;
      @IsInt() @MinUpTo20() boxes!: number;
    }
    const OrderTool = echo(Order);
    const [schema, warnings] = schemaAndWarnings(Order);
    expect(schema.properties).toEqual({ quantity: { type: 'integer', minimum: 1 }, boxes: { type: 'integer' } });
    expect(warnings).toEqual([
      "toolwright: Order.boxes uses a custom constraint registered as 'min', which JSON Schema cannot express. It is checked at run time only.",
    ]);
    expect((await invoke(OrderTool, { quantity: 50, boxes: 20 })).ok).toBe(true);
    const refused = await invoke(OrderTool, { quantity: 50, boxes: 50 });
    expect(refused.fieldErrors).toEqual([expect.objectContaining({ field: 'boxes', keyword: 'min' })]);
  });
});

describe('@ArrayUnique(identifier): the identifier runs, on nested classes and on strings', () => {
  class Tag {
    @IsString() name!: string;
  }
  class Tagged {
    @ArrayUnique((tag: Tag) => tag.name) @ValidateNested({ each: true }) @Type(() => Tag) tags!: Tag[];
    // Answers like @ArrayUnique() on [1, 1] and ['a']: only ['a', 'A'] tells them apart.
    @ArrayUnique((label: unknown) => String(label).toLowerCase()) @IsString({ each: true }) labels!: string[];
  }

  it('refuses what the identifier calls duplicates, with the warning that JSON Schema cannot say it', async () => {
    const TaggedTool = echo(Tagged);
    const [schema, warnings] = schemaAndWarnings(Tagged);
    expect(warnings).toEqual([
      'toolwright: Tagged.tags uses @ArrayUnique, which JSON Schema cannot express. It is checked at run time only.',
      'toolwright: Tagged.labels uses @ArrayUnique, which JSON Schema cannot express. It is checked at run time only.',
    ]);
    // uniqueItems compares values: it would refuse nothing the identifier refuses, and shows nothing.
    expect(JSON.stringify(schema)).not.toContain('uniqueItems');
    const distinct = { tags: [{ name: 'a' }, { name: 'b' }], labels: ['a', 'b'] };
    expect((await invoke(TaggedTool, distinct)).ok).toBe(true);
    const duplicateTags = await invoke(TaggedTool, { ...distinct, tags: [{ name: 'a' }, { name: 'a' }] });
    expect(duplicateTags.fieldErrors).toEqual([
      { field: 'tags', keyword: 'arrayUnique', params: {}, message: "All tags's elements must be unique" },
    ]);
    const duplicateLabels = await invoke(TaggedTool, { ...distinct, labels: ['a', 'A'] });
    expect(duplicateLabels.fieldErrors).toEqual([
      { field: 'labels', keyword: 'arrayUnique', params: {}, message: "All labels's elements must be unique" },
    ]);
  });
});

describe('@Matches without the u flag means what JavaScript means by it', () => {
  class Codes {
    // Without the flag: "a", then "u" twice; with it (JSON Schema's reading): "a", then U+0002.
    @Matches(new RegExp('^a\\u{2}$')) code!: string;
    // Without the flag: the text "p{L}", then more "}"; with it: letters.
    @Matches(new RegExp('^\\p{L}+$')) word!: string;
    // Two UTF-16 units: one emoji without the flag, two characters with it.
    @Matches(/^..$/) pair!: string;
  }

  it('shows the pattern of the same meaning, or none (warned), and accepts exactly what class-validator accepts', async () => {
    const CodesTool = echo(Codes);
    const [schema, warnings] = schemaAndWarnings(Codes);
    expect(schema.properties).toEqual({
      code: { type: 'string', minLength: 1, pattern: '^au{2}$' },
      word: { type: 'string', minLength: 1, pattern: '^p\\{L\\}+$' },
      pair: { type: 'string', minLength: 1 },
    });
    expect(warnings).toEqual([
      'toolwright: Codes.pair uses @Matches, which JSON Schema cannot express. It is checked at run time only. ' +
        'Its pattern, written without the u flag, means something else to JSON Schema (which reads patterns with it); write it with the u flag to show it.',
    ]);
    const ok = { code: 'auu', word: 'p{L}}', pair: '😀' };
    expect((await invoke(CodesTool, ok)).value).toEqual(ok);
    for (const [field, value] of [
      ['code', 'a\u0002'],
      ['word', 'abc'],
      ['pair', 'a😀'],
    ]) {
      const refused = await invoke(CodesTool, { ...ok, [field]: value });
      expect(refused.fieldErrors?.map((e) => [e.field, e.keyword])).toEqual([[field, 'pattern']]);
    }
  });
});

describe('@IsUUID', () => {
  class Ref {
    @IsUUID() id!: string;
  }
  const RefTool = echo(Ref);

  it('keeps format uuid in the schema and refuses what format uuid lets through', async () => {
    expect(schemaOf(Ref).properties).toEqual({ id: { type: 'string', format: 'uuid' } });
    expect((await invoke(RefTool, { id: '123e4567-e89b-12d3-a456-426614174000' })).ok).toBe(true);
    for (const id of ['urn:uuid:123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-92d3-a456-426614174000']) {
      expect((await invoke(RefTool, { id })).fieldErrors).toEqual([{ field: 'id', keyword: 'format', params: { format: 'uuid' }, message: 'id must be a UUID' }]);
    }
  });
});

describe('numbers are finite, and wire text is read as Number() reads a decimal', () => {
  class Amounts {
    @IsInt() count!: number;
    @IsNumber({ allowNaN: true, allowInfinity: true }) ratio!: number;
  }
  const AmountsTool = echo(Amounts);

  it.each([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, JSON.parse('1e400') as number])('refuses %p for an integer and a number', async (bad) => {
    expect((await invoke(AmountsTool, { count: bad, ratio: 1 })).ok).toBe(false);
    expect((await invoke(AmountsTool, { count: 1, ratio: bad })).ok).toBe(false);
  });

  it("coerces '1e3', '4.0' and ' 42' to integers; refuses '9007199254740993' rather than round it", async () => {
    expect((await invoke(AmountsTool, { count: '1e3', ratio: '0.5' })).value).toEqual({ count: 1000, ratio: 0.5 });
    expect((await invoke(AmountsTool, { count: '4.0', ratio: 1 })).value).toEqual({ count: 4, ratio: 1 });
    expect((await invoke(AmountsTool, { count: ' 42', ratio: 1 })).value).toEqual({ count: 42, ratio: 1 });
    expect((await invoke(AmountsTool, { count: '9007199254740993', ratio: 1 })).ok).toBe(false);
    expect((await invoke(AmountsTool, { count: '1.5', ratio: 1 })).ok).toBe(false);
  });

  // The boundary is 2^53 itself: every integer up to it is exact, the first one past it is not.
  it.each([
    ['9007199254740991', 9007199254740991],
    ['9007199254740992', 9007199254740992],
    ['-9007199254740992', -9007199254740992],
    ['+9007199254740992', 9007199254740992],
    ['9.007199254740992e15', 9007199254740992],
    ['90071992547409920e-1', 9007199254740992],
    ['9007199254740992.000', 9007199254740992],
    ['0.0e999999', 0],
  ])('coerces %p to the integer it is exactly', async (text, count) => {
    expect((await invoke(AmountsTool, { count: text, ratio: 1 })).value).toEqual({ count, ratio: 1 });
  });

  it.each([
    '9007199254740993',
    '-9007199254740993',
    '9007199254740994',
    '9.007199254740993e15',
    '9007199254740992.5',
    '1.0000000000000001',
    '1e-400',
    '1e16',
    '1e999999999999',
  ])('refuses %p for an integer: past 2^53, or not exactly an integer', async (text) => {
    const result = await invoke(AmountsTool, { count: text, ratio: 1 });
    expect(result.ok).toBe(false);
    expect(result.fieldErrors?.map((e) => e.field)).toEqual(['count']);
  });
});

describe('@IsDate never hands a tool an Invalid Date', () => {
  class Meeting {
    @IsDate() at!: Date;
  }
  let received: unknown[] = [];
  @Tool({ name: 'meet', description: 'meet' })
  @Expects(Meeting)
  class Meet {
    call(input: Meeting) {
      received.push(input.at);
      return null;
    }
  }

  it.each(['2016-12-31T23:59:60Z', '2024-01-01T10:00:00+01', '2024-02-30T10:00:00Z', 'Jan 1 2024'])('refuses %s', async (at) => {
    received = [];
    const result = await invoke(Meet, { at });
    expect(result.ok).toBe(false);
    expect(result.fieldErrors?.[0]).toMatchObject({ field: 'at', keyword: 'format' });
    expect(received).toEqual([]);
  });

  it('accepts an RFC 3339 date-time with a full offset, as a valid Date', async () => {
    received = [];
    expect((await invoke(Meet, { at: '2024-01-01T10:00:00+01:00' })).ok).toBe(true);
    expect((received[0] as Date).toISOString()).toBe('2024-01-01T09:00:00.000Z');
  });
});

describe('@ValidateIf skips everything under it, formats included', () => {
  class Target {
    @IsString() kind!: string;
    @ValidateIf((o: Target) => o.kind === 'web') @IsUrl({ require_protocol: true }) address!: string;
  }
  const TargetTool = echo(Target);

  it('shows the type only, and checks the URL only when the condition holds', async () => {
    expect(schemaOf(Target).properties).toEqual({ kind: { type: 'string', minLength: 1 }, address: { type: 'string' } });
    expect((await invoke(TargetTool, { kind: 'desk', address: 'room 4' })).ok).toBe(true);
    expect((await invoke(TargetTool, { kind: 'web', address: 'room 4' })).ok).toBe(false);
    expect((await invoke(TargetTool, { kind: 'web', address: 'https://example.com/' })).ok).toBe(true);
  });
});

describe('a class-validator check that throws', () => {
  @ValidatorConstraint({ name: 'fragile' })
  class Fragile implements ValidatorConstraintInterface {
    validate(value: unknown): boolean {
      if (value === 'boom') throw new RangeError('fragile: cannot read this');
      return true;
    }
  }
  class Input {
    @IsString() @Validate(Fragile) text!: string;
  }

  it('refuses the value with the constraint’s message; the call never throws', async () => {
    const tool = echo(Input);
    expect((await invoke(tool, { text: 'fine' })).ok).toBe(true);
    const result = await invoke(tool, { text: 'boom' });
    expect(result.ok).toBe(false);
    expect(result.fieldErrors?.[0]).toMatchObject({ field: 'text', keyword: 'fragile' });
  });
});

describe('a wrong type reads as its type (a documented difference in wording)', () => {
  class Application {
    @IsString() @MinLength(2) @MaxLength(100) applicant!: string;
  }

  it("toolwright: 'applicant must be a string'; class-validator: every constraint's message, @MaxLength's first", async () => {
    const [error] = await validate(plainToInstance(Application, { applicant: 42 }));
    expect(Object.values(error.constraints ?? {})).toEqual([
      'applicant must be shorter than or equal to 100 characters',
      'applicant must be longer than or equal to 2 characters',
      'applicant must be a string',
    ]);
    expect((await invoke(echo(Application), { applicant: 42 })).fieldErrors).toEqual([
      { field: 'applicant', keyword: 'type', params: { type: 'string' }, message: 'applicant must be a string' },
    ]);
    const contracts = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'guide', 'contracts.md'), 'utf8');
    expect(contracts).toContain('A value of the wrong type reads as the type it must be');
  });
});
