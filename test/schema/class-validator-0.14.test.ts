/**
 * class-validator 0.14.0 and 0.14.1 (common in NestJS lockfiles) register `@IsOptional()` without a
 * name, exactly like `@ValidateIf`: only its condition tells them apart. These tests reproduce that
 * shape on the installed class-validator (clearing the name 0.14.2+ gives it), and the packed
 * consumer matrix (test/package) runs the real 0.14.0 and 0.14.1.
 */
import { ArrayMaxSize, getMetadataStorage, IsEnum, IsIn, IsOptional, IsString, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { Expects, invoke, schemaOf, Tool } from 'toolwright';

enum Priority {
  Low = 'low',
  High = 'high',
}

/** Rewrites a class's own validation metadata the way class-validator 0.14.0/0.14.1 records it. */
function recordedBy0140(target: Function): void {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<Function, Array<{ name?: string }>> };
  const own = storage.validationMetadatas.get(target) ?? [];
  const optional = own.filter((metadata) => metadata.name === 'isOptional');
  expect(optional.length).toBeGreaterThan(0);
  for (const metadata of optional) metadata.name = undefined;
}

function declareDtos() {
  class Address {
    @IsString() city!: string;
    @IsOptional() @IsIn(['home', 'work']) kind?: string;
  }
  class Filter {
    @IsOptional() @IsEnum(Priority) priority?: Priority;
    @IsOptional() @IsString({ each: true }) @ArrayMaxSize(3) tags?: string[];
    @IsOptional() @IsIn(['asc', 'desc']) order?: string;
    @IsOptional() @ValidateNested() @Type(() => Address) address?: Address;
    @IsString() method!: string;
    @ValidateIf((o: Filter) => o.method === 'post') @IsString() @MinLength(5) note?: string;
  }
  return { Filter, Address };
}

describe('class-validator 0.14.0/0.14.1 metadata', () => {
  let warnings: unknown[][];
  let spies: jest.SpyInstance[];
  beforeEach(() => {
    warnings = [];
    spies = [
      jest.spyOn(process, 'emitWarning').mockImplementation(((...args: unknown[]) => void warnings.push(args)) as never),
      jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args)),
    ];
  });
  afterEach(() => spies.forEach((spy) => spy.mockRestore()));

  it('an unnamed @IsOptional keeps every constraint and is not mistaken for @ValidateIf', () => {
    const current = declareDtos();
    const old = declareDtos();
    recordedBy0140(old.Filter);
    recordedBy0140(old.Address);
    const expected = schemaOf(current.Filter);
    const onlyValidateIfWarning = warnings.map((args) => String(args[0]));
    expect(onlyValidateIfWarning).toEqual([expect.stringContaining('Filter.note uses @ValidateIf')]);
    warnings.length = 0;

    const schema = schemaOf(old.Filter);
    expect(schema).toEqual(expected);
    expect(schema.properties).toMatchObject({
      priority: { type: 'string', enum: ['low', 'high'] },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      order: { type: 'string', enum: ['asc', 'desc'] },
      address: { properties: { kind: { type: 'string', enum: ['home', 'work'] } } },
      note: { type: 'string' },
    });
    expect(schema.required).toEqual(['method']);
    // Only the real @ValidateIf is reported, once: no warning per optional field.
    expect(warnings.map((args) => String(args[0]))).toEqual([expect.stringContaining('Filter.note uses @ValidateIf')]);
  });

  it('the invoker enforces the constraints of an unnamed @IsOptional field and skips it when absent', async () => {
    class Input {
      @IsOptional() @IsEnum(Priority) priority?: Priority;
      @IsOptional() @IsString({ each: true }) @ArrayMaxSize(2) tags?: string[];
    }
    recordedBy0140(Input);
    @Tool()
    @Expects(Input)
    class Triage {
      call(input: Input) {
        return { priority: input.priority ?? null, tags: input.tags ?? [] };
      }
    }
    expect(await invoke(Triage, {})).toMatchObject({ ok: true, value: { priority: null, tags: [] } });
    expect(await invoke(Triage, { priority: 'high' })).toMatchObject({ ok: true });
    const bad = await invoke(Triage, { priority: 'urgent', tags: ['a', 'b', 'c'] });
    expect(bad.ok).toBe(false);
    expect(bad.fieldErrors?.map((error) => error.field).sort()).toEqual(['priority', 'tags']);
    expect(warnings).toEqual([]);
  });
});
