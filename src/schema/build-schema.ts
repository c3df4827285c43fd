/**
 * Contract → JSON Schema. Every schema toolwright shows anyone comes from here, derived from the
 * field model once per (contract, direction, dialect, strict) and handed out as a fresh copy.
 */
import { contractOf } from '../contract/build-contract';
import { constraintOf, Contract, FieldModel, isRequiredInput, isRequiredOutput, TypeNode } from '../contract/field-model';
import { copyJson } from '../util/copy-json';
import { DeclarationError } from '../errors/declaration-errors';
import { addRawKeywords, checkJoinedSchema } from './raw-keywords';

/** A JSON Schema object, as toolwright returns it: plain and fresh, yours to change. */
export type JsonSchema = { [keyword: string]: unknown };

/** The JSON Schema dialect of a derived schema: 2020-12 (the default) or draft-07. */
export type SchemaDialect = '2020-12' | 'draft-07';
/** Which side of a contract a schema describes: a tool's input or its output (they differ in what is required). */
export type SchemaDirection = 'input' | 'output';

/** The options of `inputSchema`, `outputSchema` and `schemaOf`: the dialect, the strict projection, `$schema` and shared `$defs`. */
export interface SchemaOptions {
  /** JSON Schema 2020-12 (default), or draft-07 for clients that need it. */
  dialect?: SchemaDialect;
  /**
   * The OpenAI strict-mode projection: every property required, optional ones nullable,
   * `additionalProperties: false` at every level, only keywords strict mode accepts.
   */
  strict?: boolean;
  /** Name the dialect with `$schema` at the root (default false). MCP clients expect it. */
  declareDialect?: boolean;
  /**
   * Write a nested contract class used in more than one place once, in `$defs` (`definitions` for
   * draft-07), and point to it with `$ref` (default false: inlined at each use; recursive ones
   * and those named with `@SchemaName` always go to `$defs`).
   */
  sharedDefs?: boolean;
}

interface ResolvedOptions {
  readonly direction: SchemaDirection;
  readonly dialect: SchemaDialect;
  readonly strict: boolean;
  readonly declareDialect: boolean;
  readonly sharedDefs: boolean;
  /** Show the formats that are annotations only (TypeNode.formatAnnotation): not in the schema a validator compiles. */
  readonly annotations: boolean;
}

const DIALECT_URIS: Record<SchemaDialect, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

/** Keywords OpenAI's strict mode accepts; anything else is dropped from the strict projection. */
const STRICT_KEYWORDS = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  '$ref',
  '$defs',
  'definitions',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Per contract class, its schemas by options (see `slot`). */
const cache = new WeakMap<Function, Array<JsonSchema | undefined>>();

function slot({ direction, dialect, strict, declareDialect, sharedDefs, annotations }: ResolvedOptions): number {
  return (
    (direction === 'input' ? 0 : 4) +
    (dialect === '2020-12' ? 0 : 2) +
    (strict ? 1 : 0) +
    (declareDialect ? 8 : 0) +
    (sharedDefs ? 16 : 0) +
    (annotations ? 0 : 32)
  );
}

function resolveOptions(direction: SchemaDirection, options: SchemaOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    direction,
    dialect: options.dialect ?? '2020-12',
    strict: options.strict === true,
    declareDialect: options.declareDialect === true,
    sharedDefs: options.sharedDefs === true,
    annotations: true,
  };
  if (resolved.dialect !== '2020-12' && resolved.dialect !== 'draft-07') {
    throw new DeclarationError(`Unknown schema dialect '${String(resolved.dialect)}'. Use '2020-12' (the default) or 'draft-07'.`);
  }
  return resolved;
}

/** The schema of a contract, built once per options and returned as a fresh copy. */
export function contractSchema(target: Function, direction: SchemaDirection, options: SchemaOptions = {}): JsonSchema {
  return copyJson(cachedSchema(target, resolveOptions(direction, options)));
}

/**
 * The cached schema the invoker's validator compiles, never handed out: the default schema without
 * the formats that are annotations only (`@IsEmail`'s `email`: class-validator checks those).
 */
export function validatedContractSchema(target: Function, direction: SchemaDirection): JsonSchema {
  const shown = cachedSchema(target, resolveOptions(direction, {}));
  // Most contracts show no annotation: the schema shown is the one validated.
  return annotated.has(shown) ? cachedSchema(target, { ...resolveOptions(direction, {}), annotations: false }) : shown;
}

/** The cached schemas that show an annotation-only format. */
const annotated = new WeakSet<JsonSchema>();

/** The cached schema itself: never handed out, every caller gets a copy. */
function cachedSchema(target: Function, options: ResolvedOptions): JsonSchema {
  let schemas = cache.get(target);
  if (!schemas) cache.set(target, (schemas = []));
  return (schemas[slot(options)] ??= new SchemaWriter(target, options).write());
}

/** The JSON Schema type every enum value shares, or undefined for a mix. */
export function inferEnumType(values: readonly unknown[]): string | undefined {
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => typeof v === 'number' && Number.isInteger(v))) return 'integer';
  if (values.every((v) => typeof v === 'number')) return 'number';
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  return undefined;
}

function toJsonLiteral(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : copyJson(value);
}

class SchemaWriter {
  private readonly recursive: ReadonlySet<Function>;
  /** Names of the recursive contracts written to `defs` (most contracts have none). */
  private defNames?: Map<Function, string>;
  private readonly defs: Record<string, JsonSchema> = {};
  /** Whether the schema shows an annotation-only format. */
  private annotates = false;
  /** Whether some class in the schema added raw keywords (`@JsonSchemaKeywords`). */
  private raw = false;

  /** Classes named with `@SchemaName`, reachable from the root: always in `defs`, under that name. */
  private readonly named: ReadonlyMap<Function, string>;

  constructor(
    private readonly root: Function,
    private readonly options: ResolvedOptions,
  ) {
    this.named = namedContracts(root);
    const recursive = recursiveContracts(root);
    this.recursive =
      options.sharedDefs || this.named.size > 0
        ? new Set([...recursive, ...(options.sharedDefs ? sharedContracts(root) : []), ...this.named.keys()])
        : recursive;
  }

  write(): JsonSchema {
    const body = this.objectSchema(contractOf(this.root), true);
    if (this.defNames) body[this.options.dialect === 'draft-07' ? 'definitions' : '$defs'] = this.defs;
    const schema = this.options.declareDialect ? { $schema: DIALECT_URIS[this.options.dialect], ...body } : body;
    if (this.annotates) annotated.add(schema);
    if (this.raw) checkJoinedSchema(schema, this.root);
    return schema;
  }

  private get refPrefix(): string {
    return this.options.dialect === 'draft-07' ? '#/definitions/' : '#/$defs/';
  }

  private objectSchema(contract: Contract, isRoot: boolean): JsonSchema {
    const { direction, strict } = this.options;
    const fields = direction === 'input' ? contract.inputFields : contract.fields;
    if (!isRoot && contract.ambientFields.length > 0) {
      throw new DeclarationError(
        `${contract.name}.${contract.ambientFields[0].name}: @AmbientContext is only for a tool's top-level input, ` +
          `and ${contract.name} is nested in another contract. Move the ambient field to the tool's input class.`,
        { class: contract.target, member: contract.ambientFields[0].name },
      );
    }
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      const isRequired = direction === 'input' ? isRequiredInput(field) : isRequiredOutput(field);
      properties[field.name] = this.fieldSchema(field, isRequired);
      if (isRequired || strict) required.push(field.name);
    }
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    schema.additionalProperties = false;
    if (addRawKeywords(schema, contract, this.options)) this.raw = true;
    return schema;
  }

  private fieldSchema(field: FieldModel, isRequired: boolean): JsonSchema {
    const { direction, strict } = this.options;
    let schema = this.nodeSchema(field.type, field, 0);
    if (direction === 'input' && isRequired && !field.allowEmpty) schema = this.withFloor(schema, field.type);
    const nullable = field.nullable || (strict && !isRequired);
    if (nullable) schema = withNull(schema);
    if (field.description) schema = this.withDescription(schema, field.description);
    // A sensitive value is marked as JSON Schema marks a password (an annotation): a client, or a
    // toolwright gateway mounting this server, redacts it wherever it shows the input.
    if (field.sensitive && this.showsAnnotations() && !('$ref' in schema && this.options.dialect === 'draft-07')) schema.writeOnly = true;
    if (!strict) {
      if (direction === 'input' && field.default?.kind === 'literal') schema.default = toJsonLiteral(field.default.value);
      if (field.example) schema.examples = [toJsonLiteral(field.example.value)];
    }
    return schema;
  }

  /**
   * Annotation-only formats are shown in input schemas a validator does not compile, outside strict
   * mode: OpenAI's strict mode and MCP clients (on structured output) assert every format they are
   * shown, and class-validator accepts values JSON Schema's formats refuse (`a@bücher.de`).
   */
  private showsAnnotations(): boolean {
    return this.options.annotations && this.options.direction === 'input' && !this.options.strict;
  }

  /** A required string, array or free-form object may not be empty unless it says so. */
  private withFloor(schema: JsonSchema, node: TypeNode): JsonSchema {
    if (node.kind === 'string' && !node.enum && !node.format && !constraintOf(node, 'minLength')) {
      if (!this.options.strict) schema.minLength = 1;
    } else if (node.kind === 'array' && !constraintOf(node, 'minItems')) {
      schema.minItems = 1;
    } else if (node.kind === 'record' && !constraintOf(node, 'minProperties') && !this.options.strict) {
      schema.minProperties = 1;
    }
    return schema;
  }

  private withDescription(schema: JsonSchema, description: string): JsonSchema {
    if ('$ref' in schema && (this.options.strict || this.options.dialect === 'draft-07')) return schema;
    schema.description = description;
    return schema;
  }

  /** `depth` counts the arrays between the field and the node, for naming it in an error. */
  private nodeSchema(node: TypeNode, field: FieldModel, depth: number): JsonSchema {
    const { strict } = this.options;
    let schema: JsonSchema;
    switch (node.kind) {
      case 'string':
        schema = { type: 'string' };
        if (node.format && (!strict || STRICT_FORMATS.has(node.format))) schema.format = node.format;
        else if (node.formatAnnotation && this.showsAnnotations()) {
          schema.format = node.formatAnnotation;
          this.annotates = true;
        }
        break;
      case 'date':
        schema = { type: 'string', format: 'date-time' };
        break;
      case 'number':
        // A numeric enum whose values are all integers is an integer (TypeScript numeric enums).
        schema = { type: node.enum && inferEnumType(node.enum) === 'integer' ? 'integer' : 'number' };
        break;
      case 'integer':
      case 'boolean':
        schema = { type: node.kind };
        break;
      case 'enum': {
        const type = inferEnumType(node.enum ?? []);
        schema = type ? { type } : {};
        break;
      }
      case 'record':
        if (strict) {
          throw new DeclarationError(
            `${field.owner.name}.${field.name}${'[]'.repeat(depth)} is a free-form object, which OpenAI strict mode cannot express (every object must list its properties). ` +
              'Declare its shape with a class, or use the non-strict schema.',
            { class: field.owner, member: field.name },
          );
        }
        schema = { type: 'object' };
        break;
      case 'array':
        schema = { type: 'array', items: this.nodeSchema(node.items!, field, depth + 1) };
        break;
      case 'union':
        schema = { anyOf: node.members!.map((member) => this.nodeSchema(member, field, depth)) };
        break;
      case 'object':
        schema = this.objectRef(node.target!);
        break;
    }
    if (node.enum) schema.enum = [...node.enum];
    for (let i = 0; i < node.constraints.length; i++) {
      const constraint = node.constraints[i];
      if (strict && !STRICT_KEYWORDS.has(constraint.keyword)) continue;
      schema[constraint.keyword] = copyJson(constraint.value);
    }
    return schema;
  }

  private objectRef(target: Function): JsonSchema {
    if (target === this.root) return { $ref: '#' };
    if (!this.recursive.has(target)) return this.objectSchema(contractOf(target), false);
    this.defNames ??= new Map();
    let name = this.defNames.get(target);
    if (!name) {
      name = this.named.get(target);
      if (name === undefined) {
        // An unnamed class is named after itself, never taking a name a @SchemaName class holds.
        const base = target.name || 'Anonymous';
        name = base;
        for (let n = 2; name in this.defs || this.takenByNamed(name); n++) name = `${base}${n}`;
      }
      this.defNames.set(target, name);
      this.defs[name] = {}; // reserved before writing, so a reference back to it resolves to this name
      this.defs[name] = this.objectSchema(contractOf(target), false);
    }
    return { $ref: `${this.refPrefix}${name}` };
  }

  private takenByNamed(name: string): boolean {
    for (const taken of this.named.values()) if (taken === name) return true;
    return false;
  }
}

/** Adds `null` to what a schema allows. */
function withNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum)) schema.enum.push(null);
    return schema;
  }
  if (Array.isArray(schema.enum)) {
    schema.enum.push(null);
    return schema;
  }
  if (Array.isArray(schema.anyOf)) {
    schema.anyOf.push({ type: 'null' });
    return schema;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** Contract classes (other than the root) referenced from more than one field of the tree. */
function sharedContracts(root: Function): ReadonlySet<Function> {
  const uses = new Map<Function, number>();
  walkContracts(root, (target) => uses.set(target, (uses.get(target) ?? 0) + 1));
  const shared = new Set<Function>();
  for (const [target, count] of uses) if (count > 1 && target !== root) shared.add(target);
  return shared;
}

const NO_NAMES: ReadonlyMap<Function, string> = new Map();

/**
 * The `@SchemaName` classes reachable from the root (the root itself is the schema, not a
 * definition), refusing two different classes under one name: their `$ref`s would be the same.
 */
function namedContracts(root: Function): ReadonlyMap<Function, string> {
  let named: Map<Function, string> | undefined;
  let owners: Map<string, Function> | undefined;
  for (const target of reachableContracts(root)) {
    if (target === root) continue;
    const name = contractOf(target).definitionName;
    if (name === undefined) continue;
    const other = (owners ??= new Map()).get(name);
    if (other) {
      throw new DeclarationError(
        `Two contract classes are named '${name}' with @SchemaName, ${other.name || '(anonymous class)'} and ${target.name || '(anonymous class)'}, ` +
          `and both appear in the schema of ${root.name || '(anonymous class)'}: one $defs entry cannot describe both. ` +
          'Give one of them another @SchemaName.',
      );
    }
    owners.set(name, target);
    (named ??= new Map()).set(target, name);
  }
  return named ?? NO_NAMES;
}

/** Every contract class reachable from the root through its fields (the root included). */
function reachableContracts(root: Function): ReadonlySet<Function> {
  return walkContracts(root, () => undefined);
}

/**
 * Walks the contract classes reachable from the root through its fields, calling `onReference`
 * for every field that references one (so a class used twice is seen twice); returns them all,
 * the root included.
 */
function walkContracts(root: Function, onReference: (target: Function) => void): ReadonlySet<Function> {
  const seen = new Set<Function>([root]);
  const stack = [root];
  while (stack.length > 0) {
    const out: Function[] = [];
    for (const field of contractOf(stack.pop()!).fields) collectTargets(field.type, out);
    for (const target of out) {
      onReference(target);
      if (seen.has(target)) continue;
      seen.add(target);
      stack.push(target);
    }
  }
  return seen;
}

const recursiveCache = new WeakMap<Function, ReadonlySet<Function>>();
const NONE: ReadonlySet<Function> = new Set();

/** Contract classes (other than the root) that can reach themselves: they go to `$defs`. Once per root. */
function recursiveContracts(root: Function): ReadonlySet<Function> {
  let recursive = recursiveCache.get(root);
  if (!recursive) {
    recursive = findRecursive(root);
    recursiveCache.set(root, recursive);
  }
  return recursive;
}

function collectTargets(node: TypeNode, into: Function[]): void {
  if (node.kind === 'object' && node.target) into.push(node.target);
  if (node.items) collectTargets(node.items, into);
  if (node.members) for (let i = 0; i < node.members.length; i++) collectTargets(node.members[i], into);
}

function findRecursive(root: Function): ReadonlySet<Function> {
  const edges = new Map<Function, Function[]>();
  const visit = (target: Function) => {
    if (edges.has(target)) return;
    const out: Function[] = [];
    edges.set(target, out);
    const fields = contractOf(target).fields;
    for (let i = 0; i < fields.length; i++) collectTargets(fields[i].type, out);
    out.forEach(visit);
  };
  visit(root);
  let recursive: Set<Function> | undefined;
  for (const start of edges.keys()) {
    if (start === root) continue;
    const seen = new Set<Function>();
    const stack = [...edges.get(start)!];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === start) {
        (recursive ??= new Set()).add(start);
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...edges.get(next)!);
    }
  }
  return recursive ?? NONE;
}
