/**
 * Compiler drift: the TypeScript compiler's view of each tool's DTO classes (through
 * typescript-json-schema, an optional peer dependency of this command) against the reflected
 * schema, on types, required and presence. The known, deliberate differences are excepted: an input
 * with a default or a nullable input is optional on the wire, an ambient field is never in a schema.
 */
import * as path from 'node:path';
import { schemaOf, ToolDefinition } from '../index';
import { TypeNode } from '../adapter-kit';
import { CliError } from './cli-error';
import { compareText } from './tools';

type Schema = Record<string, unknown>;

export interface Drift {
  readonly tool: string;
  readonly version: number;
  readonly dto: string;
  readonly property: string;
  readonly aspect: 'missing' | 'types' | 'required';
  readonly typescript: string;
  readonly reflected: string;
}

export interface DriftReport {
  readonly drift: Drift[];
  /** DTO classes compared. */
  readonly checked: string[];
  /** DTO classes with no single TypeScript declaration among the loaded sources (inline shapes, JavaScript). */
  readonly skipped: string[];
}

interface Generator {
  getSymbols(name?: string): unknown[];
  getSchemaForSymbol(name: string): Schema;
}

interface Tjs {
  getProgramFromFiles(files: string[], options: object, basePath?: string): unknown;
  buildGenerator(program: unknown, settings: object): Generator | null;
}

/** An optional peer, from the project (where its own typescript-json-schema and typescript are). */
function loadFrom(root: string, request: string): unknown {
  try {
    return require(require.resolve(request, { paths: [root] }));
  } catch {
    return undefined;
  }
}

function compilerOptions(
  root: string,
  ts: {
    findConfigFile: Function;
    readConfigFile: Function;
    parseJsonConfigFileContent: Function;
    sys: { fileExists(f: string): boolean; readFile(f: string): string | undefined };
  },
): object {
  const file = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json') as string | undefined;
  const base = { strict: true, experimentalDecorators: true, emitDecoratorMetadata: true, skipLibCheck: true };
  if (!file) return base;
  const read = ts.readConfigFile(file, ts.sys.readFile) as { config?: object };
  const parsed = ts.parseJsonConfigFileContent(read.config ?? {}, ts.sys, path.dirname(file)) as { options: Record<string, unknown> };
  return { ...parsed.options, ...base, noEmit: true };
}

/** The JSON types a schema allows, integers counted as numbers (TypeScript has no integer type). */
function typesOf(schema: Schema | undefined, root: Schema): string[] {
  if (!schema) return ['any'];
  if (typeof schema.$ref === 'string') {
    if (schema.$ref === '#') return ['object'];
    const name = decodeURIComponent(schema.$ref.split('/').pop()!);
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

function deref(schema: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema;
  const name = decodeURIComponent(schema.$ref.split('/').pop()!);
  return { ...((schema.definitions as Record<string, Schema> | undefined)?.[name] ?? {}), definitions: schema.definitions };
}

/** The contract classes a tool uses, with the direction each is read in, nested classes included. */
function dtosOf(tool: ToolDefinition): Array<{ target: Function; direction: 'input' | 'output' }> {
  const found = new Map<Function, 'input' | 'output'>();
  const walk = (node: TypeNode | undefined, direction: 'input' | 'output'): void => {
    if (!node) return;
    if (node.target && !found.has(node.target)) visit(node.target, direction);
    walk(node.items, direction);
    node.members?.forEach((member) => walk(member, direction));
  };
  const visit = (target: Function, direction: 'input' | 'output') => {
    found.set(target, direction);
    // Nested contracts: the registry's field model is reached through schemaOf's class, read once.
    const contract = direction === 'input' ? tool.inputContract : tool.outputContract;
    if (contract?.target === target) contract.fields.forEach((field) => walk(field.type, direction));
  };
  if (tool.inputContract.fields.length > 0) visit(tool.inputContract.target, 'input');
  if (tool.outputContract) visit(tool.outputContract.target, 'output');
  return [...found].map(([target, direction]) => ({ target, direction }));
}

export function checkDrift(tools: readonly ToolDefinition[], files: readonly string[], root: string): DriftReport {
  const tjs = loadFrom(root, 'typescript-json-schema') as Tjs | undefined;
  if (!tjs) {
    throw new CliError(
      'compiler drift needs typescript-json-schema: npm install --save-dev typescript-json-schema (or skip this check with --no-drift).',
    );
  }
  const sources = files.filter((file) => /\.(ts|tsx|mts|cts)$/.test(file) && !file.endsWith('.d.ts'));
  const report: DriftReport = { drift: [], checked: [], skipped: [] };
  const all = tools.flatMap((tool) => dtosOf(tool).map((dto) => ({ tool, ...dto })));
  if (sources.length === 0) {
    report.skipped.push(...new Set(all.map((dto) => dto.target.name)));
    return report;
  }
  // The TypeScript typescript-json-schema itself uses (its own 5.x in a TypeScript 7 project, whose
  // `typescript` package has no compiler API).
  const ts = loadFrom(path.dirname(require.resolve('typescript-json-schema', { paths: [root] })), 'typescript') as Parameters<
    typeof compilerOptions
  >[1];
  const program = tjs.getProgramFromFiles(sources, compilerOptions(root, ts), root);
  const generator = tjs.buildGenerator(program, { required: true, ignoreErrors: true });
  if (!generator) throw new CliError('typescript-json-schema could not read the project sources: run tsc to see why.');
  const seen = new Set<string>();
  for (const { tool, target, direction } of all) {
    const name = target.name;
    const label = `${tool.toolName()}@${tool.version}:${name}`;
    if (seen.has(label)) continue;
    seen.add(label);
    if (generator.getSymbols(name).length !== 1) {
      if (!report.skipped.includes(name)) report.skipped.push(name);
      continue;
    }
    if (!report.checked.includes(name)) report.checked.push(name);
    const typescript = deref(generator.getSchemaForSymbol(name));
    const reflected = schemaOf(target, { direction }) as Schema;
    const contract = direction === 'input' ? tool.inputContract : tool.outputContract;
    const model = contract?.target === target ? contract : undefined;
    const push = (property: string, aspect: Drift['aspect'], a: string, b: string) =>
      report.drift.push({ tool: tool.toolName(), version: tool.version, dto: name, property, aspect, typescript: a, reflected: b });
    const tsProps = (typescript.properties ?? {}) as Record<string, Schema>;
    const ourProps = (reflected.properties ?? {}) as Record<string, Schema>;
    const tsRequired = new Set((typescript.required ?? []) as string[]);
    const ourRequired = new Set((reflected.required ?? []) as string[]);
    for (const property of Object.keys(tsProps)) {
      if (!(property in ourProps)) {
        if (model?.ambientFields.some((field) => field.name === property)) continue; // supplied by the server
        push(property, 'missing', typesOf(tsProps[property], typescript).join('|'), 'absent');
        continue;
      }
      const a = typesOf(tsProps[property], typescript).join('|');
      const b = typesOf(ourProps[property], reflected).join('|');
      if (a !== b) push(property, 'types', a, b);
      const ra = tsRequired.has(property);
      const rb = ourRequired.has(property);
      // A defaulted or nullable input may be left out on the wire and still arrives as declared.
      const excused = direction === 'input' && ra && !rb && ('default' in ourProps[property] || b.split('|').includes('null'));
      if (ra !== rb && !excused) push(property, 'required', ra ? 'required' : 'optional', rb ? 'required' : 'optional');
    }
    for (const property of Object.keys(ourProps)) {
      if (!(property in tsProps)) push(property, 'missing', 'absent', typesOf(ourProps[property], reflected).join('|'));
    }
  }
  report.drift.sort(
    (a, b) => compareText(a.tool, b.tool) || a.version - b.version || compareText(a.dto, b.dto) || compareText(a.property, b.property),
  );
  return report;
}
