/**
 * src/interop/class-validator.ts reads class-validator's private storage. These tests fail when the
 * installed class-validator leaves the range that module was checked against, or when the read it
 * relies on stops holding (the module would fall back silently, so the storage's shape is asserted).
 */
import { getMetadataStorage, IsEmail, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { schemaOf } from 'toolwright';
import { expectSupported } from '../helpers/supported-range';

describe('class-validator interop (src/interop/class-validator.ts)', () => {
  it('the installed class-validator is in the range the module declares', () => {
    expectSupported('class-validator', 'class-validator');
  });

  it('the storage keeps each class’s metadata in a private Map keyed by class, on the global the load probe reads', () => {
    class Probe {
      @IsString() name!: string;
    }
    const storage = getMetadataStorage() as unknown as { validationMetadatas?: unknown };
    expect((globalThis as { classValidatorMetadataStorage?: unknown }).classValidatorMetadataStorage).toBe(storage);
    expect(storage.validationMetadatas).toBeInstanceOf(Map);
    const own = (storage.validationMetadatas as Map<Function, Array<{ target: Function; propertyName: string }>>).get(Probe);
    expect(own?.map((metadata) => [metadata.target, metadata.propertyName])).toEqual([[Probe, 'name']]);
  });

  it('an @IsOptional field keeps its constraints, and inherited constraints are read once, from their class', () => {
    class Person {
      @IsString() @MinLength(2) id!: string;
    }
    class Contact extends Person {
      @IsOptional() @IsEmail() @MaxLength(50) email?: string;
    }
    const schema = schemaOf(Contact);
    expect(schema.properties).toEqual({
      id: { type: 'string', minLength: 2 },
      email: { type: 'string', format: 'email', maxLength: 50 },
    });
    expect(schema.required).toEqual(['id']);
  });
});
