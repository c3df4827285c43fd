/**
 * The benchmark contract, generated N times, in each contender's own terms: eight input fields
 * (three strings, one an email and one an enum of four; two bounded integers; an optional boolean
 * with a default; a string array with a maximum size; a nested object of two fields) and a
 * two-field output.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsDate, IsEmail, IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { z } from 'zod';
import { Expects, Exposes, Field, Tool } from 'toolwright';

export const TIERS = ['bronze', 'silver', 'gold', 'platinum'];

type Decorator = (target: object, key: string) => void;

function property(proto: object, key: string, designType: unknown, decorators: Decorator[]): void {
  Reflect.defineMetadata('design:type', designType, proto, key);
  for (const decorate of decorators.reverse()) decorate(proto, key);
}

/** Classes decorated with class-validator (and class-transformer @Type): the input and output DTOs. */
export function decoratedClasses(index: number, withToolwright: boolean) {
  const Address = { [`Address${index}`]: class {} }[`Address${index}`];
  property(Address.prototype, 'street', String, [IsString()]);
  property(Address.prototype, 'city', String, [IsString()]);

  const Input = { [`CreateOrder${index}Input`]: class {} }[`CreateOrder${index}Input`];
  const p = Input.prototype;
  property(p, 'name', String, [IsString()]);
  property(p, 'email', String, [IsEmail()]);
  property(p, 'tier', String, [IsIn(TIERS)]);
  property(p, 'quantity', Number, [IsInt(), Min(1), Max(100)]);
  property(p, 'priority', Number, [IsInt(), Min(0), Max(10)]);
  property(p, 'notify', Boolean, [
    IsOptional(),
    IsBoolean(),
    withToolwright ? (Field({ default: true }) as Decorator) : (JSONSchema({ default: true }) as Decorator),
  ]);
  property(p, 'tags', Array, [IsString({ each: true }), ArrayMaxSize(5)]);
  property(p, 'address', Address, [ValidateNested(), Type(() => Address) as Decorator]);

  const Output = { [`CreateOrder${index}Output`]: class {} }[`CreateOrder${index}Output`];
  property(Output.prototype, 'id', String, [IsString()]);
  property(Output.prototype, 'createdAt', Date, [IsDate()]);
  return { Address, Input, Output };
}

/** A toolwright class tool over those DTOs. */
export function toolwrightTool(index: number) {
  const { Input, Output } = decoratedClasses(index, true);
  const ToolClass = {
    [`CreateOrder${index}`]: class {
      call() {
        return {};
      }
    },
  }[`CreateOrder${index}`];
  Exposes(Output)(ToolClass);
  Expects(Input)(ToolClass);
  Tool('mcp', { description: `Create order ${index}` })(ToolClass);
  return ToolClass;
}

/** The same contract as zod 4 schemas. */
export function zodSchemas() {
  const input = z.strictObject({
    name: z.string().min(1),
    email: z.email(),
    tier: z.enum(TIERS as [string, ...string[]]),
    quantity: z.int().min(1).max(100),
    priority: z.int().min(0).max(10),
    notify: z.boolean().default(true),
    tags: z.array(z.string()).min(1).max(5),
    address: z.strictObject({ street: z.string().min(1), city: z.string().min(1) }),
  });
  const output = z.strictObject({ id: z.string(), createdAt: z.iso.datetime() });
  return { input, output };
}

/**
 * The contract in zod 4 as a wire payload needs it (bench/invoke, bench/mcp): closed objects, the
 * integers coerced from strings, the boolean defaulted; the output's date as an ISO date-time.
 */
export function zodWireContract() {
  const input = z.strictObject({
    name: z.string().min(1),
    email: z.email(),
    tier: z.enum(TIERS as [string, ...string[]]),
    quantity: z.coerce.number().int().min(1).max(100),
    priority: z.coerce.number().int().min(0).max(10),
    notify: z.boolean().default(true),
    tags: z.array(z.string()).min(1).max(5),
    address: z.strictObject({ street: z.string().min(1), city: z.string().min(1) }),
  });
  const output = z.strictObject({ id: z.string(), createdAt: z.iso.datetime() });
  return { input, output };
}

/** A wire payload every contender accepts once `quantity` is coerced and `notify` defaulted. */
export const VALID_ARGS = {
  name: 'Ada',
  email: 'ada@example.com',
  tier: 'gold',
  quantity: '42',
  priority: 3,
  tags: ['a', 'b'],
  address: { street: '1 Main St', city: 'Cork' },
};

/** Three errors: a bad email, a tier outside the enum, a quantity over its maximum. */
export const INVALID_ARGS = { ...VALID_ARGS, email: 'not-an-email', tier: 'diamond', quantity: 500 };
