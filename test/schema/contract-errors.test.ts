import { IsArray, IsEmail, IsInt, IsObject, IsString, MinLength, Validate, ValidateIf, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { AmbientContext, describeTool, Expects, Exposes, Field, inputSchema, schemaOf, Tool } from 'toolwright';

interface Shape {
  sides: number;
}

class Tag {
  @Field() label!: string;
}

/** Mistakes in contracts fail at first derivation, naming Class.property and the fix. */
describe('contract declaration errors', () => {
  const cases: Array<[string, () => unknown, string]> = [
    [
      'an interface-typed property',
      () => { class Dto { @Field() shape!: Shape; } return schemaOf(Dto); },
      "Dto.shape: reflection cannot see this property's type (an interface, a union, or any: it reflects as Object). Declare it with @Field({ type: () => MyClass }), @Field({ type: () => [Tag] }) for an array, or @Field({ anyOf: () => [A, B] }) for a union.",
    ],
    [
      'a union-typed property',
      () => { class Dto { @Field() id!: string | number; } return schemaOf(Dto); },
      "Dto.id: reflection cannot see this property's type",
    ],
    [
      'a nullable property without a type',
      () => { class Dto { @Field({ nullable: true }) note!: string | null; } return schemaOf(Dto); },
      'Dto.note: is nullable, and TypeScript reflects a type such as string | null as Object. Declare the type: @Field({ type: () => String, nullable: true }).',
    ],
    [
      'an array without an element type',
      () => { class Dto { @Field() tags!: Tag[]; } return schemaOf(Dto); },
      'Dto.tags: is an array, and reflection cannot see its element type. Declare it with @Field({ type: () => [Tag] }) (or [String], [Integer], …).',
    ],
    [
      'IsArray alone',
      () => { class Dto { @IsArray() tags!: string[]; } return schemaOf(Dto); },
      'Dto.tags: is an array, and reflection cannot see its element type.',
    ],
    [
      'a single type on an array property',
      () => { class Dto { @Field({ type: () => Tag }) tags!: Tag[]; } return schemaOf(Dto); },
      'Dto.tags: is declared as an array, but the @Field type names a single Tag. Use type: () => [Tag].',
    ],
    [
      'a type that disagrees with the property',
      () => { class Dto { @IsInt() code!: string; } return schemaOf(Dto); },
      'Dto.code: is declared as String, but @IsInt says Integer. Make the property\'s type and its declaration agree.',
    ],
    [
      'two type decorators that disagree',
      () => { class Dto { @IsString() @IsInt() code!: number; } return schemaOf(Dto); },
      'Dto.code: @IsInt and @IsString disagree about the type. Keep the one that is true.',
    ],
    [
      'a Map property',
      () => { class Dto { @Field() index!: Map<string, number>; } return schemaOf(Dto); },
      'Dto.index: a Map cannot be represented in JSON. Use a plain object or an array.',
    ],
    [
      '{ each: true } on a non-array',
      () => { class Dto { @IsString({ each: true }) name!: string; } return schemaOf(Dto); },
      'Dto.name: uses { each: true } but is not an array. Declare it as an array (type: () => [T]) or drop each.',
    ],
    [
      'a string constraint on a number',
      () => { class Dto { @MinLength(2) @IsInt() n!: number; } return schemaOf(Dto); },
      'Dto.n: @IsInt and @MinLength disagree about the type. Keep the one that is true.',
    ],
    [
      'a @Field string option on a number',
      () => { class Dto { @Field({ maxLength: 3 }) n!: number; } return schemaOf(Dto); },
      'Dto.n: @Field({ maxLength }) applies to string values, but the field is Number. Remove it or fix the field\'s type.',
    ],
    [
      'an invalid literal default',
      () => { class Dto { @Field({ default: 'nope' }) @IsEmail() contact!: string; } return schemaOf(Dto); },
      "Dto.contact: default 'nope' breaks the field's own rules: contact must be an email. Fix the default or the field's constraints.",
    ],
    [
      'an empty default on a string that may not be empty',
      () => { class Dto { @Field({ default: '' }) note!: string; } return schemaOf(Dto); },
      "Dto.note: default '' breaks the field's own rules: note should not be empty (allow it with allowEmpty: true). Fix the default or the field's constraints.",
    ],
    [
      'a null default on a field that is not nullable',
      () => { class Dto { @Field({ default: null }) n!: number; } return schemaOf(Dto); },
      'Dto.n: default is null but the field is not nullable. Add nullable: true or change the default.',
    ],
    [
      'a default that is not JSON',
      () => { class Dto { @Field({ default: new Map() }) @IsObject() n!: object; } return schemaOf(Dto); },
      'Dto.n: default a Map is not a JSON value. Use a literal (string, number, boolean, null, Date, array, plain object) or a function that returns the default.',
    ],
    [
      'an example that breaks the field',
      () => { class Dto { @Field({ example: 200, max: 100 }) n!: number; } return schemaOf(Dto); },
      "Dto.n: example 200 breaks the field's own rules: n must not be greater than 100. Fix the example or the field's constraints.",
    ],
    [
      'anyOf with one member',
      () => { class Dto { @Field({ anyOf: () => [Tag] }) t!: Tag; } return schemaOf(Dto); },
      "Dto.t: 'anyOf' must return at least two member types; got [Tag].",
    ],
    [
      'an ambient field in a nested contract',
      () => {
        class Inner { @AmbientContext() userId!: string; @Field() x!: string; }
        class Outer { @Field() inner!: Inner; }
        return schemaOf(Outer);
      },
      "Inner.userId: @AmbientContext is only for a tool's top-level input, and Inner is nested in another contract. Move the ambient field to the tool's input class.",
    ],
    [
      'an ambient field in an output contract',
      () => {
        class Out { @AmbientContext() userId!: string; @Field() x!: string; }
        @Tool() @Exposes(Out) class T { call() {} }
        return describeTool(T).outputSchema();
      },
      'T: the output contract Out has ambient field userId. @AmbientContext marks inputs from trusted context; remove it from the output.',
    ],
    [
      'a DTO without any decorated field',
      () => {
        class Bare { name!: string; }
        @Tool() @Expects(Bare) class T { call() {} }
        return inputSchema(T);
      },
      'T: the input contract Bare declares no fields. Decorate its properties with @Field() or class-validator decorators: reflection cannot see undecorated properties.',
    ],
    [
      'a method tool whose parameter is an interface',
      () => {
        class Service { @Tool() find(input: Shape) { return input; } }
        return inputSchema(describeTool(Service, 'find'));
      },
      'Service.find: the input type of the first parameter is not a class reflection can see (Object). Type the parameter with a DTO class, or declare @Expects(Dto).',
    ],
    [
      'a contract thunk that returns something else',
      () => {
        @Tool() @Expects(() => 'Dto' as never) class T { call() {} }
        return inputSchema(T);
      },
      "T: @Expects: the contract thunk returned 'Dto'; it must return a DTO class.",
    ],
  ];

  it.each(cases)('%s', (_label, derive, message) => {
    expect(derive).toThrow(message);
  });

  it('a failed derivation is not cached: it fails again, loudly', () => {
    class Dto {
      @Field() shape!: Shape;
    }
    expect(() => schemaOf(Dto)).toThrow('Dto.shape');
    expect(() => schemaOf(Dto)).toThrow('Dto.shape');
  });
});

@ValidatorConstraint({ name: 'isPrime' })
class IsPrime implements ValidatorConstraintInterface {
  validate(value: number) {
    if (!Number.isInteger(value) || value < 2) return false;
    for (let d = 2; d * d <= value; d++) if (value % d === 0) return false;
    return true;
  }
  defaultMessage() {
    return '$property must be a prime number';
  }
}

describe('constraints JSON Schema cannot express', () => {
  let warnings: Array<[string, string | undefined]>;
  let spy: jest.SpyInstance;
  beforeEach(() => {
    warnings = [];
    spy = jest.spyOn(process, 'emitWarning').mockImplementation(((message: string, options?: { code?: string }) => {
      warnings.push([message, options?.code]);
    }) as never);
  });
  afterEach(() => spy.mockRestore());

  it('a custom validator is kept for run time and reported once, naming class and property', () => {
    class Order {
      @IsInt() @Validate(IsPrime) quantity!: number;
    }
    expect(schemaOf(Order).properties).toEqual({ quantity: { type: 'integer' } });
    schemaOf(Order, { strict: true });
    expect(warnings).toEqual([
      ['toolwright: Order.quantity uses @IsPrime, which JSON Schema cannot express. It is checked at run time only.', 'TOOLWRIGHT_UNSCHEMABLE_CONSTRAINT'],
    ]);
  });

  it('@ValidateIf makes the field optional in the schema, its constraints run-time only', () => {
    class Shipping {
      @IsString() method!: string;
      @ValidateIf((o: Shipping) => o.method === 'post') @IsString() @MinLength(5) address!: string;
    }
    expect(schemaOf(Shipping)).toEqual({
      type: 'object',
      properties: { method: { type: 'string', minLength: 1 }, address: { type: 'string' } },
      required: ['method'],
      additionalProperties: false,
    });
    expect(warnings).toEqual([
      [
        'toolwright: Shipping.address uses @ValidateIf, which JSON Schema cannot express. Its constraints are checked at run time only, and the schema shows it as optional.',
        'TOOLWRIGHT_UNSCHEMABLE_CONSTRAINT',
      ],
    ]);
  });
});
