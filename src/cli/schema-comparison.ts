/**
 * One JSON Schema against another, keyword by keyword, in the direction a caller reads it: an input
 * may only accept more, an output may only promise more (see compare.ts).
 */
import { isPlainObject } from '../adapter-kit/internal';
/** The rules a change is classified by (docs/guide/contract-guard.md, "The rules"). */
export type Rule =
  | 'tool-removed'
  | 'adapter-removed'
  | 'adapter-renamed'
  | 'output-removed'
  | 'type-changed'
  | 'nullability'
  | 'required'
  | 'field-removed'
  | 'field-added'
  | 'bounds'
  | 'enum'
  | 'union'
  | 'keywords'
  | 'tool-added'
  | 'adapter-added'
  | 'output-added'
  | 'description'
  | 'default'
  | 'hints'
  | 'tags'
  | 'member-removed'
  | 'member-added'
  | 'uri-changed'
  | 'mime-type'
  | 'completes';

/** Records one finding. */
export type Add = (rule: Rule, breaking: boolean, path: string, message: string) => void;

type Schema = Record<string, unknown>;
type Direction = 'input' | 'output';
/** How the set of accepted (input) or produced (output) values changed. */
type Change = 'narrowed' | 'widened' | 'both' | 'neutral';

function breaks(direction: Direction, change: Change): boolean {
  if (change === 'both') return true;
  if (change === 'neutral') return false;
  return direction === 'input' ? change === 'narrowed' : change === 'widened';
}

export const show = (value: unknown) => JSON.stringify(value);

const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const EXACT = ['pattern', 'format'];
/**
 * Keywords no other rule reads, which `@JsonSchemaKeywords` may add: each only narrows what an
 * object accepts, so one added narrows, one removed widens, and one changed may do either.
 */
const RAW = ['allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'propertyNames'];

/** A schema node seen through $ref and a nullable anyOf: its types, nullability and members. */
interface View {
  readonly schema: Schema;
  /** The JSON types it allows, without null; undefined when any. */
  readonly types?: string[];
  readonly nullable: boolean;
  /** Union members (without the null member), when it is a union of two or more. */
  readonly members?: Schema[];
  /** The $ref it went through, if any (to stop on recursive types). */
  readonly ref?: string;
}

export class SchemaComparison {
  /** The $ref pairs being compared on the current path: a recursive type stops where it recurs. */
  private readonly active = new Set<string>();

  constructor(
    private readonly direction: Direction,
    private readonly beforeRoot: Schema,
    private readonly afterRoot: Schema,
    private readonly add: Add,
  ) {}

  private report(change: Change, rule: Rule, path: string, message: string): void {
    if (change === 'neutral') return this.add(rule, false, path, message);
    this.add(rule, breaks(this.direction, change), path, message);
  }

  compare(before: unknown, after: unknown, path: string): void {
    if (!isPlainObject(before) || !isPlainObject(after)) return;
    const a = this.view(before, this.beforeRoot);
    const b = this.view(after, this.afterRoot);
    const visit = a.ref !== undefined && b.ref !== undefined ? `${a.ref}|${b.ref}` : undefined;
    if (visit !== undefined) {
      if (this.active.has(visit)) return;
      this.active.add(visit);
    }
    try {
      this.compareViews(a, b, path);
    } finally {
      if (visit !== undefined) this.active.delete(visit);
    }
  }

  private compareViews(a: View, b: View, path: string): void {
    this.nullability(a, b, path);
    if (a.members || b.members) return this.union(a, b, path);
    if (!this.types(a, b, path)) return;
    this.annotations(a.schema, b.schema, path);
    this.bounds(a.schema, b.schema, path);
    this.enumValues(a.schema, b.schema, path);
    this.rawKeywords(a.schema, b.schema, path);
    if (isPlainObject(a.schema.properties) || isPlainObject(b.schema.properties)) this.objects(a.schema, b.schema, path);
    if (isPlainObject(a.schema.items) && isPlainObject(b.schema.items)) this.compare(a.schema.items, b.schema.items, `${path}[]`);
    if (isPlainObject(a.schema.additionalProperties) && isPlainObject(b.schema.additionalProperties)) {
      this.compare(a.schema.additionalProperties, b.schema.additionalProperties, `${path}{}`);
    }
  }

  private view(schema: Schema, root: Schema, depth = 0): View {
    let ref: string | undefined;
    while (typeof schema.$ref === 'string' && depth++ < 32) {
      ref = schema.$ref;
      schema = resolveRef(root, schema.$ref) ?? {};
    }
    const branches = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as
      Schema[] | undefined;
    if (branches) {
      const isNull = (branch: Schema) => branch.type === 'null';
      const rest = branches.filter((branch) => !isNull(branch));
      const nullable = rest.length < branches.length;
      if (rest.length === 1) {
        const inner = this.view(rest[0], root, depth);
        return { ...inner, nullable: nullable || inner.nullable, schema: { ...inner.schema, ...withoutKeys(schema, ['anyOf', 'oneOf']) } };
      }
      return { schema, nullable, members: rest, ref };
    }
    const declared = schema.type === undefined ? undefined : ([] as unknown[]).concat(schema.type).map(String);
    const enumNull = Array.isArray(schema.enum) && schema.enum.includes(null);
    return { schema, ref, nullable: Boolean(declared?.includes('null')) || enumNull, types: declared?.filter((type) => type !== 'null') };
  }

  private nullability(a: View, b: View, path: string): void {
    if (a.nullable === b.nullable) return;
    const change: Change = a.nullable ? 'narrowed' : 'widened';
    this.report(change, 'nullability', path, a.nullable ? 'no longer accepts null' : 'may now be null');
  }

  /** false when the types differ so much that comparing their keywords says nothing more. */
  private types(a: View, b: View, path: string): boolean {
    if (!a.types && !b.types) return true;
    const covers = (set: string[] | undefined, type: string) =>
      !set || set.includes(type) || (type === 'integer' && set.includes('number'));
    const lost = (a.types ?? ['any']).filter((type) => !covers(b.types, type));
    const gained = (b.types ?? ['any']).filter((type) => !covers(a.types, type));
    if (lost.length === 0 && gained.length === 0) return true;
    const change: Change = lost.length > 0 && gained.length > 0 ? 'both' : lost.length > 0 ? 'narrowed' : 'widened';
    this.report(change, 'type-changed', path, `type changed from ${(a.types ?? ['any']).join('|')} to ${(b.types ?? ['any']).join('|')}`);
    return lost.length === 0 || gained.length === 0;
  }

  private annotations(a: Schema, b: Schema, path: string): void {
    if (a.description !== b.description && path.includes('.')) this.report('neutral', 'description', path, 'description changed');
    if (show(a.default) !== show(b.default)) {
      this.report('neutral', 'default', path, `default changed from ${show(a.default) ?? 'none'} to ${show(b.default) ?? 'none'}`);
    }
  }

  private bounds(a: Schema, b: Schema, path: string): void {
    const bound = (keyword: string, lower: boolean) => {
      const x = a[keyword] as number | undefined;
      const y = b[keyword] as number | undefined;
      if (x === y) return;
      const tighter = x === undefined || (y !== undefined && (lower ? y > x : y < x));
      const change: Change = tighter ? 'narrowed' : 'widened';
      const what =
        x === undefined
          ? `${keyword} ${show(y)} added`
          : y === undefined
            ? `${keyword} ${show(x)} removed`
            : `${keyword} ${y > x ? 'raised' : 'lowered'} from ${x} to ${y}`;
      this.report(change, 'bounds', path, what);
    };
    LOWER.forEach((keyword) => bound(keyword, true));
    UPPER.forEach((keyword) => bound(keyword, false));
    for (const keyword of EXACT) {
      const x = a[keyword];
      const y = b[keyword];
      if (x === y) continue;
      const change: Change = x === undefined ? 'narrowed' : y === undefined ? 'widened' : 'both';
      const what =
        x === undefined
          ? `${keyword} ${show(y)} added`
          : y === undefined
            ? `${keyword} ${show(x)} removed`
            : `${keyword} changed from ${show(x)} to ${show(y)}`;
      this.report(change, 'bounds', path, what);
    }
    const m = a.multipleOf as number | undefined;
    const n = b.multipleOf as number | undefined;
    if (m !== n) {
      const change: Change = m === undefined ? 'narrowed' : n === undefined ? 'widened' : m % n === 0 ? 'widened' : 'both';
      this.report(
        change,
        'bounds',
        path,
        m === undefined ? `multipleOf ${n} added` : n === undefined ? `multipleOf ${m} removed` : `multipleOf changed from ${m} to ${n}`,
      );
    }
    if (Boolean(a.uniqueItems) !== Boolean(b.uniqueItems)) {
      this.report(
        a.uniqueItems ? 'widened' : 'narrowed',
        'bounds',
        path,
        a.uniqueItems ? 'items need no longer be unique' : 'items must now be unique',
      );
    }
  }

  private enumValues(a: Schema, b: Schema, path: string): void {
    const values = (schema: Schema) =>
      Array.isArray(schema.enum) ? schema.enum.filter((v) => v !== null) : 'const' in schema ? [schema.const] : undefined;
    const x = values(a);
    const y = values(b);
    if (!x && !y) return;
    if (!x) return this.report('narrowed', 'enum', path, `now limited to ${y!.map(show).join(', ')}`);
    if (!y) return this.report('widened', 'enum', path, 'no longer limited to a list of values');
    const removed = x.filter((v) => !y.some((w) => show(w) === show(v)));
    const added = y.filter((v) => !x.some((w) => show(w) === show(v)));
    if (removed.length > 0)
      this.report('narrowed', 'enum', path, `value${removed.length > 1 ? 's' : ''} ${removed.map(show).join(', ')} removed`);
    if (added.length > 0) this.report('widened', 'enum', path, `value${added.length > 1 ? 's' : ''} ${added.map(show).join(', ')} added`);
  }

  private rawKeywords(a: Schema, b: Schema, path: string): void {
    for (const keyword of RAW) {
      const x = show(a[keyword]);
      const y = show(b[keyword]);
      if (x === y) continue;
      if (x === undefined) this.report('narrowed', 'keywords', path, `${keyword} added`);
      else if (y === undefined) this.report('widened', 'keywords', path, `${keyword} removed`);
      else this.report('both', 'keywords', path, `${keyword} changed`);
    }
  }

  private objects(a: Schema, b: Schema, path: string): void {
    const before = (a.properties ?? {}) as Record<string, Schema>;
    const after = (b.properties ?? {}) as Record<string, Schema>;
    const requiredBefore = new Set((a.required ?? []) as string[]);
    const requiredAfter = new Set((b.required ?? []) as string[]);
    const input = this.direction === 'input';
    for (const name of Object.keys(before)) {
      const at = `${path}.${name}`;
      if (!(name in after)) {
        // Input objects are closed: a caller still sending the field is refused ("unknown input").
        // Output objects are open: the field may now be anything, or missing.
        this.report(
          input ? 'narrowed' : 'widened',
          'field-removed',
          at,
          input ? 'input field removed: callers still sending it are refused' : 'output field removed',
        );
        continue;
      }
      if (!requiredBefore.has(name) && requiredAfter.has(name)) this.report('narrowed', 'required', at, 'now required');
      if (requiredBefore.has(name) && !requiredAfter.has(name))
        this.report('widened', 'required', at, input ? 'now optional' : 'now optional: it may be missing');
      this.compare(before[name], after[name], at);
    }
    for (const name of Object.keys(after)) {
      if (name in before) continue;
      const at = `${path}.${name}`;
      if (input) {
        if (requiredAfter.has(name)) this.report('narrowed', 'field-added', at, 'input field added as required');
        else this.report('widened', 'field-added', at, 'optional input field added');
      } else this.report('narrowed', 'field-added', at, 'output field added');
    }
  }

  private union(a: View, b: View, path: string): void {
    const label = (schema: Schema, root: Schema) => {
      const seen = this.view(schema, root);
      return seen.ref ?? (seen.types ?? ['any']).join('|');
    };
    const membersA = a.members ?? [a.schema];
    const membersB = b.members ?? [b.schema];
    const labelsB = membersB.map((member) => label(member, this.afterRoot));
    const labelsA = membersA.map((member) => label(member, this.beforeRoot));
    membersA.forEach((member, i) => {
      const j = labelsB.indexOf(labelsA[i]);
      if (j < 0) this.report('narrowed', 'union', path, `union member ${labelsA[i]} removed`);
      else this.compare(member, membersB[j], `${path}<${labelsA[i].split('/').pop()}>`);
    });
    labelsB.forEach((text, j) => {
      if (!labelsA.includes(text)) this.report('widened', 'union', path, `union member ${text} added`);
      void j;
    });
  }
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    node = isPlainObject(node) ? node[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return isPlainObject(node) ? node : undefined;
}

function withoutKeys(schema: Schema, keys: string[]): Schema {
  const copy: Schema = {};
  for (const [name, value] of Object.entries(schema)) if (!keys.includes(name)) copy[name] = value;
  return copy;
}
