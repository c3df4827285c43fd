/**
 * The one-field DTOs of the differential test (./differential.property.test.ts): every
 * class-validator decorator toolwright maps, with the options each takes, plus look-alikes (a custom
 * constraint under a built-in's name), `@ValidateIf`, `@IsOptional` and `{ each: true }` variants;
 * and the values they are tried with.
 */
import 'reflect-metadata';
import * as cv from 'class-validator';
import { Type } from 'class-transformer';
import fc from 'fast-check';

/** One DTO: the property `value`, its design:type, and its decorators (as written, top to bottom). */
export interface Case {
  readonly label: string;
  readonly design: Function;
  readonly decorators: readonly PropertyDecorator[];
  /** Values of this kind are generated for it (besides the shared hand-picked ones). */
  readonly kind: 'string' | 'number' | 'boolean' | 'date' | 'array' | 'object' | 'tags';
}

enum Colour {
  Red = 'red',
  Green = 'green',
}
enum Level {
  Low = 1,
  High = 2,
}

/** A custom constraint registered under the name of a built-in: it must run, not be mistaken for `@IsUrl`. */
function IsUrlLookAlike(): PropertyDecorator {
  return (object, propertyName) =>
    cv.registerDecorator({
      name: 'isUrl',
      target: object.constructor,
      propertyName: propertyName as string,
      validator: { validate: (value: unknown) => value === 'ok' },
    });
}

@cv.ValidatorConstraint({ name: 'isEmail' })
class EmailLookAlike implements cv.ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'string' && value.endsWith('@corp.example');
  }
}

/** A nested class whose items `@ArrayUnique` compares by an identifier. */
class Tag {
  @cv.IsString() name!: string;
}

const startsWithHttp = (_: object, value: unknown) => typeof value === 'string' && value.startsWith('http');
const s = (label: string, ...decorators: PropertyDecorator[]): Case => ({ label, design: String, decorators, kind: 'string' });
const n = (label: string, ...decorators: PropertyDecorator[]): Case => ({ label, design: Number, decorators, kind: 'number' });
const strings = (label: string, ...decorators: PropertyDecorator[]): Case => ({
  label,
  design: Array,
  decorators: [cv.IsString({ each: true }), ...decorators],
  kind: 'array',
});

export const CASES: readonly Case[] = [
  // Strings and their formats
  s('@IsString()', cv.IsString()),
  s('@IsEmail()', cv.IsEmail()),
  s('@IsEmail({ allow_ip_domain })', cv.IsEmail({ allow_ip_domain: true })),
  s('@IsEmail({ host_whitelist })', cv.IsEmail({ host_whitelist: ['example.com'] })),
  s('@IsEmail({ host_blacklist })', cv.IsEmail({ host_blacklist: ['evil.com'] })),
  s('@IsEmail({ allow_display_name })', cv.IsEmail({ allow_display_name: true })),
  s('@IsEmail({ require_tld: false })', cv.IsEmail({ require_tld: false })),
  s('@IsEmail({ allow_utf8_local_part: false })', cv.IsEmail({ allow_utf8_local_part: false })),
  s('@IsEmail({ ignore_max_length })', cv.IsEmail({ ignore_max_length: true })),
  s('@IsEmail({ domain_specific_validation })', cv.IsEmail({ domain_specific_validation: true })),
  s('@IsEmail({ require_display_name })', cv.IsEmail({ require_display_name: true })),
  s("@IsEmail({ blacklisted_chars: 'b' })", cv.IsEmail({ blacklisted_chars: 'b' })),
  s('@IsUrl()', cv.IsUrl()),
  s('@IsUrl({ allow_trailing_dot })', cv.IsUrl({ allow_trailing_dot: true })),
  s('@IsUrl({ require_port })', cv.IsUrl({ require_port: true })),
  s("@IsUrl({ protocols: ['gopher', 'file'] })", cv.IsUrl({ protocols: ['gopher', 'file'] })),
  s('@IsUrl({ protocols: [https], require_protocol })', cv.IsUrl({ protocols: ['https'], require_protocol: true })),
  s('@IsUrl({ require_protocol })', cv.IsUrl({ require_protocol: true })),
  s('@IsUrl({ host_whitelist })', cv.IsUrl({ host_whitelist: ['example.com'] })),
  s('@IsUrl({ host_blacklist })', cv.IsUrl({ host_blacklist: ['127.0.0.1', 'localhost'] })),
  s('@IsUrl({ require_tld: false })', cv.IsUrl({ require_tld: false })),
  s('@IsUrl({ allow_underscores })', cv.IsUrl({ allow_underscores: true })),
  s('@IsUrl({ disallow_auth })', cv.IsUrl({ disallow_auth: true })),
  s('@IsUrl({ require_valid_protocol: false })', cv.IsUrl({ require_valid_protocol: false })),
  s('@IsUrl({ allow_protocol_relative_urls })', cv.IsUrl({ allow_protocol_relative_urls: true })),
  s('@IsUrl({ require_host: false })', cv.IsUrl({ require_host: false })),
  s('@IsUrl({ allow_fragments: false, allow_query_components: false })', cv.IsUrl({ allow_fragments: false, allow_query_components: false })),
  s('@IsUrl({ validate_length: false })', cv.IsUrl({ validate_length: false })),
  s('@IsUUID()', cv.IsUUID()),
  s("@IsUUID('all')", cv.IsUUID('all')),
  s("@IsUUID('1')", cv.IsUUID('1')),
  s("@IsUUID('3')", cv.IsUUID('3')),
  s("@IsUUID('4')", cv.IsUUID('4')),
  s("@IsUUID('5')", cv.IsUUID('5')),
  s("@IsUUID('7')", cv.IsUUID('7')),
  s("@IsUUID('loose')", cv.IsUUID('loose' as cv.IsUUIDVersion)),
  s('@IsDateString()', cv.IsDateString()),
  s('@IsDateString({ strict })', cv.IsDateString({ strict: true })),
  s('@IsDateString({ strictSeparator })', cv.IsDateString({ strictSeparator: true })),
  s('@IsISO8601()', cv.IsISO8601()),
  s('@IsISO8601({ strict })', cv.IsISO8601({ strict: true })),
  s('@IsISO8601({ strict, strictSeparator })', cv.IsISO8601({ strict: true, strictSeparator: true })),
  s('@IsRFC3339()', cv.IsRFC3339()),
  s('@IsEnum(string enum)', cv.IsEnum(Colour)),
  s("@IsIn(['a', 'b'])", cv.IsIn(['a', 'b'])),
  s("@Equals('abc')", cv.Equals('abc')),
  s("@IsNotIn(['a'])", cv.IsNotIn(['a'])),
  s("@NotEquals('a')", cv.NotEquals('a')),
  s('@IsNotEmpty()', cv.IsNotEmpty()),
  s('@MinLength(3)', cv.MinLength(3)),
  s('@MaxLength(3)', cv.MaxLength(3)),
  s('@Length(2, 4)', cv.Length(2, 4)),
  s('@Length(2)', cv.Length(2)),
  s('@Matches(/^[a-z]+$/)', cv.Matches(/^[a-z]+$/)),
  s('@Matches(/^.$/)', cv.Matches(/^.$/)),
  s('@Matches(/^.$/u)', cv.Matches(/^.$/u)),
  s('@Matches(/^a{2}$/g)', cv.Matches(/^a{2}$/g)),
  s("@Matches('^a.c$')", cv.Matches('^a.c$')),
  s("@Matches('^abc$', 'i')", cv.Matches('^abc$', 'i')),
  s('@Matches(/^\\p{L}+$/u)', cv.Matches(/^\p{L}+$/u)),
  s('@Matches(/^[^x]{2}$/)', cv.Matches(/^[^x]{2}$/)),
  // Without the u flag, \u{2} is "u" twice, \p{L} the text "p{L}", \a "a", \- "-" and [\w-] a class with "-".
  s("@Matches(new RegExp('^a\\u{2}$'))", cv.Matches(new RegExp('^a\\u{2}$'))),
  s("@Matches(new RegExp('^\\p{L}+$'))", cv.Matches(new RegExp('^\\p{L}+$'))),
  s("@Matches(new RegExp('^\\a\\-[\\w-]$'))", cv.Matches(new RegExp('^\\a\\-[\\w-]$'))),
  s('@IsString() @MinLength(2) @MaxLength(5)', cv.IsString(), cv.MinLength(2), cv.MaxLength(5)),
  s('@IsOptional() @IsUrl()', cv.IsOptional(), cv.IsUrl()),
  s('@IsOptional() @IsEmail()', cv.IsOptional(), cv.IsEmail()),
  s('@ValidateIf(http…) @IsUrl({ require_protocol })', cv.ValidateIf(startsWithHttp), cv.IsUrl({ require_protocol: true })),
  s('@ValidateIf(http…) @IsString() @MinLength(12)', cv.ValidateIf(startsWithHttp), cv.IsString(), cv.MinLength(12)),
  s('@ValidateIf(http…) @IsUUID()', cv.ValidateIf(startsWithHttp), cv.IsUUID()),
  s('@IsDefined() @IsString()', cv.IsDefined(), cv.IsString()),
  s("a custom constraint registered as 'isUrl'", IsUrlLookAlike()),
  s("@Validate(a constraint class named 'isEmail')", cv.Validate(EmailLookAlike)),
  // Numbers
  n('@IsInt()', cv.IsInt()),
  n('@IsNumber()', cv.IsNumber()),
  n('@IsNumber({ allowNaN })', cv.IsNumber({ allowNaN: true })),
  n('@IsNumber({ allowInfinity })', cv.IsNumber({ allowInfinity: true })),
  n('@IsNumber({ maxDecimalPlaces: 2 })', cv.IsNumber({ maxDecimalPlaces: 2 })),
  n('@Min(1)', cv.Min(1)),
  n('@Min(0.5)', cv.Min(0.5)),
  n('@Max(10)', cv.Max(10)),
  n('@Max(-1)', cv.Max(-1)),
  n('@IsNumber({ maxDecimalPlaces: 0 })', cv.IsNumber({ maxDecimalPlaces: 0 })),
  n('@IsInt() @Min(0) @Max(100)', cv.IsInt(), cv.Min(0), cv.Max(100)),
  n('@IsPositive()', cv.IsPositive()),
  n('@IsNegative()', cv.IsNegative()),
  n('@IsDivisibleBy(2)', cv.IsDivisibleBy(2)),
  n('@IsDivisibleBy(3)', cv.IsDivisibleBy(3)),
  n('@IsDivisibleBy(-4)', cv.IsDivisibleBy(-4)),
  n('@IsDivisibleBy(0.5)', cv.IsDivisibleBy(0.5)),
  n('@IsDivisibleBy(2.5)', cv.IsDivisibleBy(2.5)),
  n('@IsInt() @IsDivisibleBy(1000)', cv.IsInt(), cv.IsDivisibleBy(1000)),
  n('@IsEnum(numeric enum)', cv.IsEnum(Level)),
  n('@IsIn([1, 2])', cv.IsIn([1, 2])),
  n('@Equals(3)', cv.Equals(3)),
  n('@NotEquals(3)', cv.NotEquals(3)),
  n('@IsOptional() @IsInt()', cv.IsOptional(), cv.IsInt()),
  // Booleans and dates
  { label: '@IsBoolean()', design: Boolean, decorators: [cv.IsBoolean()], kind: 'boolean' },
  { label: '@Equals(true)', design: Boolean, decorators: [cv.Equals(true)], kind: 'boolean' },
  { label: '@IsDate()', design: Date, decorators: [cv.IsDate()], kind: 'date' },
  { label: '@IsOptional() @IsDate()', design: Date, decorators: [cv.IsOptional(), cv.IsDate()], kind: 'date' },
  // Arrays
  strings('@IsArray()', cv.IsArray()),
  strings('@ArrayMinSize(2)', cv.ArrayMinSize(2)),
  strings('@ArrayMaxSize(2)', cv.ArrayMaxSize(2)),
  strings('@ArrayNotEmpty()', cv.ArrayNotEmpty()),
  strings('@ArrayUnique()', cv.ArrayUnique()),
  strings('@ArrayUnique(identifier)', cv.ArrayUnique((item: string) => item.toLowerCase())),
  // An identifier that answers class-validator's probes as @ArrayUnique() does ([1, 1], ['a']), not ['a', 'A'].
  strings('@ArrayUnique(String(item).toLowerCase())', cv.ArrayUnique((item: unknown) => String(item).toLowerCase())),
  {
    label: '@ArrayUnique(tag => tag.name) @ValidateNested({ each }) @Type(() => Tag)',
    design: Array,
    decorators: [cv.ArrayUnique((tag: Tag) => tag.name), cv.ValidateNested({ each: true }), Type(() => Tag)],
    kind: 'tags',
  },
  { label: '@IsInt({ each }) @ArrayUnique()', design: Array, decorators: [cv.IsInt({ each: true }), cv.ArrayUnique()], kind: 'array' },
  {
    label: '@IsObject({ each }) @Type(() => Object) @ArrayUnique()',
    design: Array,
    decorators: [cv.IsObject({ each: true }), Type(() => Object), cv.ArrayUnique()],
    kind: 'array',
  },
  { label: '@IsEmail({}, { each })', design: Array, decorators: [cv.IsEmail({}, { each: true })], kind: 'array' },
  { label: '@IsUrl({ require_protocol }, { each })', design: Array, decorators: [cv.IsUrl({ require_protocol: true }, { each: true })], kind: 'array' },
  strings('@MinLength(2, { each })', cv.MinLength(2, { each: true })),
  strings('@MaxLength(2, { each })', cv.MaxLength(2, { each: true })),
  // Objects
  { label: '@IsObject()', design: Object, decorators: [cv.IsObject()], kind: 'object' },
  { label: '@IsNotEmptyObject()', design: Object, decorators: [cv.IsNotEmptyObject()], kind: 'object' },
  { label: '@IsNotEmptyObject({ nullable })', design: Object, decorators: [cv.IsNotEmptyObject({ nullable: true })], kind: 'object' },
  { label: '@IsNotEmptyObject({ nullable: false })', design: Object, decorators: [cv.IsNotEmptyObject({ nullable: false })], kind: 'object' },
];

const uuid1 = '123e4567-e89b-12d3-a456-426614174000';

/** Values every DTO is tried with: the edges of each check, and of the conversions before it. */
export const HAND_PICKED: readonly unknown[] = [
  undefined,
  null,
  // text that is almost something else
  '',
  ' ',
  'a',
  'ab',
  'abc',
  'abcd',
  'ABC',
  'aa',
  'a.c',
  'abcdef',
  'ok',
  'auu',
  'a\u0002',
  'p{L}',
  'p{L}}',
  'a-b',
  'a--',
  'a-\u0002',
  'red',
  'Red',
  // numbers as text
  ' 42',
  '42',
  '42 ',
  '-1',
  '0',
  '1',
  '2',
  '3',
  '-0',
  '1e3',
  '4.0',
  '1.5',
  '.5',
  '0x10',
  '0b11',
  '1_000',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740992',
  '-9007199254740993',
  '9.007199254740992e15',
  '9.007199254740993e15',
  '90071992547409920e-1',
  '9007199254740992.5',
  '1.0000000000000001',
  '1e-400',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  // booleans as text
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  // URLs: schemes, hosts, IPs, credentials, unicode
  'http://example.com',
  'https://example.com/path?q=1#f',
  'example.com',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_INFO',
  'ftp://example.com/file',
  'mailto:a@example.com',
  'data:text/html,<script>alert(1)</script>',
  'http://127.0.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:8080/',
  'http://localhost:3000',
  'http://user:pass@example.com',
  '//example.com/a',
  'http://exa_mple.com',
  'http://bücher.de',
  'http://example.com/ä',
  'https://evil.com',
  'https://example.com:99999',
  'http://a.b',
  'http://example.com/' + 'a'.repeat(2100),
  // e-mail addresses
  'a@example.com',
  'a@127.0.0.1',
  'a@[127.0.0.1]',
  'a@bücher.de',
  'ü@example.com',
  'a@evil.com',
  'a@localhost',
  'A Name <a@example.com>',
  'a..b@example.com',
  '"a b"@example.com',
  'a@example',
  'x@corp.example',
  'a'.repeat(65) + '@example.com',
  // UUIDs: versions, variants, shapes
  uuid1,
  '123e4567-e89b-42d3-a456-426614174000',
  '123e4567-e89b-32d3-a456-426614174000',
  '123e4567-e89b-52d3-a456-426614174000',
  '0190a6e6-7e5a-7b3c-8d2e-123456789abc',
  '123e4567-e89b-42d3-c456-426614174000',
  '123e4567-e89b-92d3-a456-426614174000',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  `urn:uuid:${uuid1}`,
  uuid1.toUpperCase(),
  `{${uuid1}}`,
  // dates: calendar edges, leap days and seconds, offsets, other ISO 8601 forms
  '2024-01-01',
  '2024-01-01T10:00:00Z',
  '2024-01-01T10:00:00.123456789Z',
  '2024-01-01T10:00:00+01:00',
  '2024-01-01T10:00:00+01',
  '2024-01-01T10:00:00+0100',
  '2024-01-01T10:00:00',
  '2016-12-31T23:59:60Z',
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-02-30T10:00:00Z',
  '2024-01-01T25:00:00Z',
  '2024-W01',
  '2024-W01-1',
  '2024-001',
  '2024-01-01 10:00:00Z',
  '2024-01-01t10:00:00z',
  '20240101T100000Z',
  '+002024-01-01T00:00:00Z',
  'Jan 1 2024',
  // unicode: surrogate pairs, variation selectors, combining marks, case folding
  '😀',
  'a😀',
  '😀😀',
  '\u2764\uFE0F',
  'ab\uFE0F\uFE0F',
  'abc\uFE0E',
  '\uFE0F'.repeat(10),
  'é',
  'e\u0301',
  'ſ',
  '\u212A',
  'Ab',
  '\uD800',
  'a'.repeat(10_000),
  // numbers
  0,
  -0,
  1,
  -1,
  2,
  3,
  4,
  5,
  10,
  11,
  100,
  1.5,
  0.5,
  2.5,
  -2.5,
  1.005,
  0.1 + 0.2,
  1e21,
  1e300,
  2 ** 53,
  -(2 ** 53),
  2 ** 53 + 2,
  -1e-7,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  // booleans, dates in-process, containers
  true,
  false,
  new Date('2024-01-01T00:00:00Z'),
  new Date(Number.NaN),
  [],
  [''],
  ['a'],
  ['ab', 'cd'],
  ['a', 'a'],
  ['a', 'A'],
  ['ab', 'cd', 'ef'],
  [1, 2],
  [1, 1],
  [1, '1'],
  [{ a: 1 }, { a: 1 }],
  [{ a: 1 }, { a: 2 }],
  [{ name: 'a' }, { name: 'a' }],
  [{ name: 'a' }, { name: 'b' }],
  [{ name: 'a' }, { name: 'A' }],
  ['a@example.com', 'javascript:alert(1)'],
  ['a@example.com', 'b@example.org'],
  ['https://example.com', 'https://example.org'],
  {},
  { a: 1 },
  { a: null },
  { a: 1, b: null },
];

const schemes = ['http', 'https', 'ftp', 'javascript', 'file', 'gopher', 'data', 'ws'];

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.webUrl({ validSchemes: schemes, withQueryParameters: true, withFragments: true }),
  fc.tuple(fc.constantFrom(...schemes), fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6().map((ip) => `[${ip}]`))).map(([scheme, host]) => `${scheme}://${host}/`),
  fc.emailAddress(),
  fc.tuple(fc.string({ maxLength: 4 }), fc.oneof(fc.domain(), fc.ipV4())).map(([local, host]) => `${local}@${host}`),
  fc.uuid(),
  fc.uuid({ version: [1, 4, 7] }).map((id) => id.toUpperCase()),
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc
    .tuple(fc.integer({ min: 1900, max: 2100 }), fc.integer({ min: 1, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 60 }))
    .map(([y, m, d, sec]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}T12:00:${String(sec).padStart(2, '0')}Z`),
);
const numeric = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.integer({ min: -10, max: 10 }),
  fc.double({ min: -10, max: 10, noNaN: true }),
  fc.integer().map(String),
  fc.double({ noNaN: true }).map(String),
  fc.bigInt({ min: 2n ** 52n, max: 2n ** 70n }).map(String),
);

/** Generated values per kind of DTO, from a fixed seed (the same values every run). */
export function generated(kind: Case['kind'], seed: number, count: number): unknown[] {
  const arbitrary: fc.Arbitrary<unknown> = {
    string: fc.oneof(text, numeric),
    number: fc.oneof(numeric, text),
    boolean: fc.oneof(fc.boolean(), fc.string({ maxLength: 5 }), fc.integer({ min: -1, max: 2 })),
    date: fc.oneof(text, fc.date().map((d) => (Number.isNaN(d.getTime()) ? d : d.toISOString().replace('Z', '+00:00')))),
    array: fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 3 }), text), { maxLength: 4 }),
    tags: fc.array(fc.oneof(fc.record({ name: fc.constantFrom('a', 'b', 'A', 'ab') }), fc.string({ maxLength: 2 }), fc.constant(null)), { maxLength: 4 }),
    object: fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.integer(), fc.constant(null)), { maxKeys: 3, noNullPrototype: true }),
  }[kind];
  return fc.sample(arbitrary, { seed, numRuns: count });
}
