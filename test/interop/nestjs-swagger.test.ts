/**
 * src/interop/nestjs-swagger.ts reads what @nestjs/swagger's `@ApiProperty` records (through
 * reflect-metadata, without importing the package). These tests fail when the installed
 * @nestjs/swagger leaves the range that module was checked against, when the metadata key it reads
 * moves, or when toolwright's own rules stop winning over the documentation.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DeclarationError, Expects, Field, invoke, schemaOf, Tool } from 'toolwright';
import { expectSupported } from '../helpers/supported-range';

describe('@nestjs/swagger interop (src/interop/nestjs-swagger.ts)', () => {
  it('the installed @nestjs/swagger is in the range the module declares', () => {
    expectSupported('nestjs-swagger', '@nestjs/swagger');
  });

  it('@ApiProperty writes its options under the key the module reads, on the prototype by property', () => {
    class Applicant {
      @ApiProperty({ description: 'Full name', example: 'Ada Lovelace' }) @IsString() name!: string;
    }
    expect(Reflect.getMetadata('swagger/apiModelProperties', Applicant.prototype, 'name')).toMatchObject({
      description: 'Full name',
      example: 'Ada Lovelace',
    });
  });

  it("a class-validator DTO's @ApiProperty description and example become the schema's description and examples", () => {
    class CreditQuery {
      @ApiProperty({ description: 'Full name of the applicant', example: 'Ada Lovelace' }) @IsString() @MaxLength(200) applicant!: string;
      @ApiPropertyOptional({ description: 'Months of history', example: 24 }) @IsOptional() @IsInt() @Min(1) @Max(120) months?: number;
      @IsEmail() contact!: string;
    }
    const schema = schemaOf(CreditQuery) as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(schema.properties.applicant).toMatchObject({ type: 'string', maxLength: 200, description: 'Full name of the applicant', examples: ['Ada Lovelace'] });
    expect(schema.properties.months).toMatchObject({ type: 'integer', minimum: 1, maximum: 120, description: 'Months of history', examples: [24] });
    expect(schema.properties.contact).not.toHaveProperty('description');
    expect(schema.properties.contact).not.toHaveProperty('examples');
    expect(schema.required).toEqual(['applicant', 'contact']);
  });

  it('@Field says otherwise and wins: its description and example replace the documentation', () => {
    class Query {
      @Field({ description: 'Who applies', example: 'Grace Hopper' })
      @ApiProperty({ description: 'Full name', example: 'Ada Lovelace' })
      @IsString()
      applicant!: string;
      @Field({ description: 'Only the description' }) @ApiProperty({ description: 'Ignored', example: 'kept' }) @IsString() note!: string;
    }
    const properties = schemaOf(Query).properties as Record<string, { description?: string; examples?: unknown[] }>;
    expect(properties.applicant).toMatchObject({ description: 'Who applies', examples: ['Grace Hopper'] });
    expect(properties.note).toMatchObject({ description: 'Only the description', examples: ['kept'] });
  });

  it("the runtime decides what is required, not the documentation: @ApiProperty({ required: false }) does not make a field optional", async () => {
    class Query {
      @ApiProperty({ required: false, description: 'Full name' }) @IsString() applicant!: string;
    }
    expect(schemaOf(Query).required).toEqual(['applicant']);
    @Tool('mcp', { name: 'doc_check' })
    @Expects(Query)
    class DocCheck {
      call(input: Query): string {
        return input.applicant;
      }
    }
    const missing = await invoke(DocCheck, {});
    expect(missing.ok).toBe(false);
  });

  it('an @ApiProperty example that breaks the field\'s own rules is refused, naming it and the fix', () => {
    class Query {
      @ApiProperty({ example: 'x'.repeat(300) }) @IsString() @MaxLength(200) applicant!: string;
    }
    expect(() => schemaOf(Query)).toThrow(DeclarationError);
    expect(() => schemaOf(Query)).toThrow(/Query\.applicant: @ApiProperty example .* breaks the field's own rules.*Fix the @ApiProperty example/);
  });

  it('documentation declared on a parent class reaches the subclass', () => {
    class Base {
      @ApiProperty({ description: 'Full name', example: 'Ada Lovelace' }) @IsString() applicant!: string;
    }
    class Child extends Base {
      @ApiProperty({ description: 'Amount in cents', example: 5000 }) @IsInt() amount!: number;
    }
    expect((schemaOf(Child).properties as Record<string, object>).applicant).toMatchObject({ description: 'Full name', examples: ['Ada Lovelace'] });
    expect((schemaOf(Child).properties as Record<string, object>).amount).toMatchObject({ description: 'Amount in cents', examples: [5000] });
  });

  it('the core never imports @nestjs/swagger', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (file.endsWith('.ts')) files.push(file);
      }
    };
    walk(join(__dirname, '..', '..', 'src'));
    const importing = files.filter((file) => /(from|require\()\s*['"]@nestjs\/swagger/.test(readFileSync(file, 'utf8')));
    expect(importing).toEqual([]);
  });
});
