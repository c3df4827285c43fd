/**
 * Drift: for every DTO in the corpus, typescript-json-schema's view of the class (the TypeScript
 * compiler's) must agree with the reflected schema on types, required and nullability, or the
 * difference must be listed below as known, with its reason. The seed of a `check` command.
 */
import * as path from 'node:path';
import * as TJS from 'typescript-json-schema';
import { schemaOf } from 'toolwright';
import * as corpus from '../fixtures/contracts/corpus';

type Schema = { [key: string]: unknown };

/** The JSON types a schema allows, integers counted as numbers (TypeScript has no integer type). */
function typesOf(schema: Schema | undefined, root: Schema): string[] {
  if (!schema) return ['any'];
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    if (ref === '#') return ['object'];
    const name = decodeURIComponent(ref.split('/').pop()!);
    const defs = (root.definitions ?? root.$defs ?? {}) as Record<string, Schema>;
    return typesOf(defs[name], root);
  }
  const types = new Set<string>();
  const add = (type: unknown) => types.add(type === 'integer' ? 'number' : String(type));
  if (Array.isArray(schema.type)) schema.type.forEach(add);
  else if (schema.type !== undefined) add(schema.type);
  for (const branch of (schema.anyOf ?? schema.oneOf ?? []) as Schema[]) typesOf(branch, root).forEach(add);
  if (schema.type === undefined && Array.isArray(schema.enum)) schema.enum.forEach((v) => add(v === null ? 'null' : typeof v));
  if (schema.type === undefined && 'const' in schema) add(schema.const === null ? 'null' : typeof schema.const);
  if (types.size === 0) types.add('any');
  return [...types].sort();
}

interface Drift {
  readonly dto: string;
  readonly property: string;
  readonly aspect: 'missing' | 'types' | 'required';
  readonly typescript: string;
  readonly reflected: string;
}

/** A recursive class comes back from typescript-json-schema as a $ref to its own definition. */
function deref(schema: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema;
  const name = decodeURIComponent(schema.$ref.split('/').pop()!);
  return { ...((schema.definitions as Record<string, Schema>)[name] ?? {}), definitions: schema.definitions };
}

/** DTOs used as outputs are compared with the output-direction schema. */
const OUTPUTS = new Set(['Receipt']);

/** Known, deliberate differences between the TypeScript view and the wire contract. */
const KNOWN: Array<Drift & { readonly why: string }> = [
  ...['retries', 'dryRun', 'requestedAt', 'since'].map((property) => ({
    dto: 'Optionality',
    property,
    aspect: 'required' as const,
    typescript: 'required',
    reflected: 'optional',
    why: 'it has a default: always present on the instance the tool receives, optional on the wire',
  })),
  {
    dto: 'Optionality',
    property: 'nickname',
    aspect: 'required',
    typescript: 'required',
    reflected: 'optional',
    why: 'a nullable input may be left out (it then arrives absent), as PORTING-NOTES §4 specifies',
  },
  {
    dto: 'Enums',
    property: 'maybe',
    aspect: 'required',
    typescript: 'required',
    reflected: 'optional',
    why: 'a nullable input may be left out (it then arrives absent)',
  },
  {
    dto: 'Nested',
    property: 'billing',
    aspect: 'required',
    typescript: 'required',
    reflected: 'optional',
    why: 'a nullable input may be left out (it then arrives absent)',
  },
  {
    dto: 'Unions',
    property: 'reference',
    aspect: 'required',
    typescript: 'required',
    reflected: 'optional',
    why: 'a nullable input may be left out (it then arrives absent)',
  },
  ...['userId', 'tenantId'].map((property) => ({
    dto: 'WithAmbient',
    property,
    aspect: 'missing' as const,
    typescript: 'string',
    reflected: 'absent',
    why: 'an ambient field is supplied by the server, never by the caller, so it is never in the schema',
  })),
];

const dtos = Object.entries(corpus).filter(([, value]) => typeof value === 'function' && /^[A-Z]/.test(value.name) && !['Colour', 'Priority'].includes(value.name)) as Array<[string, Function]>;

describe('drift between the TypeScript compiler and reflection', () => {
  let generator: TJS.JsonSchemaGenerator;

  beforeAll(() => {
    const repo = path.resolve(__dirname, '..', '..');
    const program = TJS.getProgramFromFiles([path.join(repo, 'test', 'fixtures', 'contracts', 'corpus.ts')], {
      strict: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      skipLibCheck: true,
      baseUrl: repo,
      paths: { toolwright: ['src/index.ts'] },
    });
    generator = TJS.buildGenerator(program, { required: true, ignoreErrors: true })!;
  }, 60_000);

  it('agrees on types, required and nullability, except for the known differences', () => {
    const drift: Drift[] = [];
    for (const [name, dto] of dtos) {
      const typescript = deref(generator.getSchemaForSymbol(name) as Schema);
      const reflected = schemaOf(dto, { direction: OUTPUTS.has(name) ? 'output' : 'input' }) as Schema;
      const tsProps = (typescript.properties ?? {}) as Record<string, Schema>;
      const ourProps = (reflected.properties ?? {}) as Record<string, Schema>;
      const tsRequired = new Set((typescript.required ?? []) as string[]);
      const ourRequired = new Set((reflected.required ?? []) as string[]);
      for (const property of Object.keys(tsProps)) {
        if (!(property in ourProps)) {
          drift.push({ dto: name, property, aspect: 'missing', typescript: typesOf(tsProps[property], typescript).join('|'), reflected: 'absent' });
          continue;
        }
        const a = typesOf(tsProps[property], typescript).join('|');
        const b = typesOf(ourProps[property], reflected).join('|');
        if (a !== b) drift.push({ dto: name, property, aspect: 'types', typescript: a, reflected: b });
        const ra = tsRequired.has(property) ? 'required' : 'optional';
        const rb = ourRequired.has(property) ? 'required' : 'optional';
        if (ra !== rb) drift.push({ dto: name, property, aspect: 'required', typescript: ra, reflected: rb });
      }
      for (const property of Object.keys(ourProps)) {
        if (!(property in tsProps)) drift.push({ dto: name, property, aspect: 'missing', typescript: 'absent', reflected: typesOf(ourProps[property], reflected).join('|') });
      }
    }
    const key = (d: Drift) => `${d.dto}.${d.property}:${d.aspect}`;
    const sorted = (list: Drift[]) => [...list].sort((a, b) => key(a).localeCompare(key(b)));
    const known = KNOWN.map(({ why: _why, ...rest }) => rest);
    expect(sorted(drift)).toEqual(sorted(known));
  });

  it('covers every DTO of the corpus', () => {
    expect(dtos.length).toBeGreaterThanOrEqual(20);
  });
});
