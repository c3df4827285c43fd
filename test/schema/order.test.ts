import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Field, schemaOf } from 'toolwright';
import { checked } from '../helpers/schema';

/**
 * The order a model reads: properties in source order whichever decorators declare them, and
 * each property's keywords in one fixed order whichever order its decorators ran in.
 */
describe('the order of properties and keywords in a schema', () => {
  it('lists properties in source order, mixing class-validator-only and @Field-only properties', () => {
    class Order {
      @IsString() first!: string;
      @Field() second!: number;
      @IsInt() @Min(1) third!: number;
      @Field({ optional: true }) fourth?: string;
      @IsOptional() @IsString() fifth?: string;
    }
    const schema = checked(schemaOf(Order));
    expect(Object.keys(schema.properties as object)).toEqual(['first', 'second', 'third', 'fourth', 'fifth']);
    expect(schema.required).toEqual(['first', 'second', 'third']);
  });

  it('keeps an inherited property where the parent put it when a subclass declares it again', () => {
    class Base {
      @IsString() id!: string;
      @IsInt() count!: number;
    }
    class Derived extends Base {
      @Field() label!: string;
      @IsInt() @Max(5) override count!: number;
    }
    const schema = checked(schemaOf(Derived));
    expect(Object.keys(schema.properties as object)).toEqual(['id', 'count', 'label']);
    expect(schema.properties).toMatchObject({ count: { type: 'integer', maximum: 5 } });
  });

  it('writes keywords in one order, whatever order the decorators are listed in', () => {
    class Bounds {
      @Max(10) @Min(1) @IsInt() upDown!: number;
      @Min(1) @Max(10) @IsInt() downUp!: number;
      @Matches(/^[a-z]+$/) @MaxLength(8) @MinLength(2) @IsString() text!: string;
      @Field({ type: () => [String], maxItems: 3, minItems: 1 }) list!: string[];
    }
    const { properties } = checked(schemaOf(Bounds)) as { properties: Record<string, object> };
    expect(Object.keys(properties.upDown)).toEqual(['type', 'minimum', 'maximum']);
    expect(Object.keys(properties.downUp)).toEqual(['type', 'minimum', 'maximum']);
    expect(Object.keys(properties.text)).toEqual(['type', 'minLength', 'maxLength', 'pattern']);
    expect(Object.keys(properties.list)).toEqual(['type', 'items', 'minItems', 'maxItems']);
  });
});
