/**
 * The DTOs a NestJS application would already have, with class-validator and class-transformer
 * decorators only: prints their derived schemas and what the invoker says about bad input, so the
 * consumer matrix can compare class-validator versions.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsEnum, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { Expects, inputSchema, invoke, Tool } from 'toolwright';

enum Priority {
  Low = 'low',
  Normal = 'normal',
  High = 'high',
}

class Address {
  @IsString() @MaxLength(80) city!: string;
  @IsOptional() @IsIn(['home', 'work']) kind?: string;
}

class FileTicketInput {
  @IsString() @MaxLength(120) title!: string;
  @IsOptional() @IsEnum(Priority) priority?: Priority;
  @IsOptional() @IsString({ each: true }) @ArrayMaxSize(3) tags?: string[];
  @IsOptional() @IsIn(['email', 'phone']) contact?: string;
  @IsOptional() @IsInt() @Min(1) @Max(5) severity?: number;
  @IsOptional() @ValidateNested() @Type(() => Address) address?: Address;
  @IsOptional() @IsString() channel?: string;
  // The one real condition: its warning shows that warnings do reach stderr.
  @ValidateIf((input: FileTicketInput) => input.channel === 'post') @IsString() @MaxLength(200) postalNote?: string;
}

@Tool({ description: 'File a ticket' })
@Expects(FileTicketInput)
class FileTicket {
  call(input: FileTicketInput) {
    return { title: input.title, priority: input.priority ?? null };
  }
}

async function main(): Promise<void> {
  const valid = await invoke(FileTicket, { title: 'VPN down', priority: 'high', address: { city: 'Lyon' } });
  const invalid = await invoke(FileTicket, {
    title: 'VPN down',
    priority: 'urgent',
    tags: ['a', 'b', 'c', 'd'],
    contact: 'fax',
    severity: 9,
    address: { city: 'Lyon', kind: 'moon' },
  });
  console.log(
    JSON.stringify({
      input: inputSchema(FileTicket),
      strict: inputSchema(FileTicket, { strict: true }),
      valid: valid.ok ? valid.value : valid.error,
      invalid: invalid.fieldErrors?.map((error) => error.field).sort(),
    }),
  );
}

// A rejection ends the process with exit code 1 and the error on stderr.
void main();
