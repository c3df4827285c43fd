/**
 * A contract's input path as generated code: at a tool's first call, its input contract becomes one
 * function that reads the caller's arguments, refuses undeclared keys, coerces wire strings, applies
 * defaults, checks every constraint of the validated input schema and builds the prepared wire
 * input, and a second that builds the DTO instances from it. Both are projections of the field
 * model, like the schema: written from the class's metadata only (field names as JSON string
 * literals, every other value passed in as a constant, never spliced into the code), built once per
 * contract class, and cached.
 *
 * The generated check is the fast path, not a second law: it accepts only what the generic steps
 * (./prepare.ts, ajv on the validated schema, ./prepare.ts's instantiation) accept, with the same
 * wire input. Anything it does not answer for sure (a problem to name, an exotic object, a keyword
 * it does not write) makes it answer `undefined`, and the call goes the generic way, which finds
 * and names every problem. A contract with a shape it does not cover (recursive classes, raw JSON
 * Schema keywords, the `not` keyword, object-valued unique items) gets no generated function at all. A property test holds it to the generic path (test/invocation/compiled.property.test.ts).
 *
 * `configure({ generatedCode: false })` turns generation off for environments that forbid
 * `new Function` (a Content-Security-Policy without 'unsafe-eval'); the compiled closures run then.
 */
import { contractOf } from '../contract/build-contract';
import { formatHolds, isDateTime } from '../contract/conforms';
import { Contract, FieldModel, isRequiredInput, TypeNode } from '../contract/field-model';
import { inferEnumType } from '../schema/build-schema';
import { CodeWriter, NotGenerated, perClass } from '../util/code-writer';
import { copyJson } from '../util/copy-json';
import { coerceBoolean, coerceInteger, coerceNumber, dateToWire } from './prepare';

/**
 * The generated check: the prepared wire input when the arguments pass every schema check, or
 * undefined (the generic path decides). `reject`: undeclared top-level keys are refused.
 */
export type GeneratedCheck = (
  args: Record<string, unknown>,
  nullMeansAbsent: boolean,
  reject: boolean,
) => Record<string, unknown> | undefined;

/** The generated instantiation: the DTO instance (nested classes and dates as real instances) from the wire input. */
export type GeneratedInstantiate = (wire: Record<string, unknown>) => Record<string, unknown>;

export interface GeneratedInput {
  readonly check: GeneratedCheck;
  readonly instantiate: GeneratedInstantiate;
  /**
   * The deepest level of objects and arrays an accepted value reaches (the arguments object is 1),
   * when the check also stands for the depth and Unicode walk (./input-shape.ts): every string it
   * accepts is well-formed and every key declared. Undefined where it does not (a free-form object).
   */
  readonly depth: number | undefined;
}

/** ajv's string length: code points, as JSON Schema counts them. */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    count++;
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}

function newInstance(target: Function): () => object {
  const Target = target as new () => object;
  return Target.length === 0 ? () => new Target() : () => Object.create(Target.prototype) as object;
}

/** Helpers every generated function may call, passed in as `h`. */
const HELPERS = Object.freeze({
  own: (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key),
  proto: Object.getPrototypeOf as (value: object) => object | null,
  objectProto: Object.prototype,
  keys: Object.keys,
  len: codePoints,
  ci: coerceInteger,
  cn: coerceNumber,
  cb: coerceBoolean,
  dw: dateToWire,
  copy: (value: unknown) => (value instanceof Date ? value.toISOString() : copyJson(value)),
  dateTime: isDateTime,
  Set,
  Date,
});

/** Writes one contract's functions. Constants go into `k` (an array), referenced by index. */
class Writer extends CodeWriter {
  /** Classes on the current path: a recursive contract is not generated. */
  private readonly path = new Set<Function>();
  /** The deepest container level an accepted value reaches. */
  deepest = 1;
  /** Whether the check covers the depth and Unicode walk: no free-form value, no ill-formed name. */
  shapeComplete = true;
  /** Functions beside the check: one per union member, true when a value is one. */
  readonly helpers: string[] = [];

  /** A scalar as a JSON literal in the code (a string, a finite number, a boolean), anything else as a constant. */
  literal(value: unknown): string {
    // -0 would read back as 0 from its JSON text.
    const inline =
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0));
    return inline ? JSON.stringify(value) : this.constant(value);
  }

  /** Statements that prepare and check the fields of `contract` from `src` into `wire`; `return;` on any doubt. */
  fields(contract: Contract, src: string, wire: string, nested: boolean, level: number): string {
    if (contract.rawKeywords) throw new NotGenerated();
    if (this.path.has(contract.target)) throw new NotGenerated();
    this.path.add(contract.target);
    let code = '';
    for (const field of contract.inputFields) code += this.field(field, src, wire, nested, level);
    this.path.delete(contract.target);
    return code;
  }

  /**
   * Undeclared keys: a nested object's own keys are all declared (its schema is closed). At the top,
   * the ambient keys a caller may send (and the generic path drops) go the generic way too: their
   * values are for the depth and Unicode walk to look at.
   */
  unknownKeys(contract: Contract, value: string): string {
    const names = contract.inputFields.map((field) => field.name);
    const key = this.variable('key');
    const known = names.length === 0 ? 'false' : names.map((name) => `${key} === ${JSON.stringify(name)}`).join(' || ');
    return `for (const ${key} in ${value}) if (!(${known}) && h.own(${value}, ${key})) return;\n`;
  }

  private field(field: FieldModel, src: string, wire: string, nested: boolean, level: number): string {
    if (field.name === '__proto__') throw new NotGenerated();
    if (!wellFormed(field.name)) this.shapeComplete = false;
    const name = JSON.stringify(field.name);
    const x = this.variable('x');
    let code = `let ${x} = ${src}[${name}];\n`;
    if (!field.nullable) code += `if (${x} === null && nma) ${x} = undefined;\n`;
    const fallback = field.default;
    code += `if (${x} === undefined) {\n`;
    if (fallback === undefined) {
      if (nested) code += `if (${name} in ${wire}) delete ${wire}[${name}];\n`;
    } else if (fallback.kind === 'literal') {
      const value = fallback.value;
      code +=
        typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null
          ? `${x} = ${this.literal(value)};\n`
          : `${x} = h.copy(${this.constant(value)});\n`;
    } else {
      code += `${x} = ${this.constant(fallback.factory)}();\n`;
    }
    code += '}\n';
    const required = isRequiredInput(field);
    const floor = required && !field.allowEmpty;
    const body = this.node(field.type, x, field.coerce, floor, level);
    const assign = `${body.code}${wire}[${name}] = ${body.wire};\n`;
    code += `if (${x} !== undefined) {\n`;
    code += field.nullable ? `if (${x} === null) ${wire}[${name}] = null;\nelse {\n${assign}}\n` : assign;
    code += required ? '} else return;\n' : '}\n';
    return code;
  }

  /**
   * Coerces and checks the value in variable `x` (not null) as the validated schema's node does;
   * `wire` is the expression of its prepared wire form afterwards.
   */
  private node(node: TypeNode, x: string, coerce: boolean, floor: boolean, level: number, pure = false): { code: string; wire: string } {
    const keywords = new Map<string, unknown>();
    for (const constraint of node.constraints) keywords.set(constraint.keyword, constraint.value);
    if (floor) {
      if (node.kind === 'string' && !node.enum && !node.format && !keywords.has('minLength')) keywords.set('minLength', 1);
      else if (node.kind === 'array' && !keywords.has('minItems')) keywords.set('minItems', 1);
      else if (node.kind === 'record' && !keywords.has('minProperties')) keywords.set('minProperties', 1);
    }
    let code = '';
    let wire = x;
    switch (node.kind) {
      case 'string':
        code += `if (typeof ${x} !== "string" || !${x}.isWellFormed()) return;\n`;
        if (node.format) code += this.format(node.format, x);
        break;
      case 'date':
        if (!pure) code += `if (${x} instanceof h.Date) ${x} = h.dw(${x});\n`;
        code += `if (typeof ${x} !== "string" || !h.dateTime(${x})) return;\n`;
        break;
      case 'integer':
        if (coerce) code += `if (typeof ${x} === "string") ${x} = h.ci(${x});\n`;
        code += integerCheck(x);
        break;
      case 'number':
        if (coerce) code += `if (typeof ${x} === "string") ${x} = h.cn(${x});\n`;
        code += node.enum && inferEnumType(node.enum) === 'integer' ? integerCheck(x) : numberCheck(x);
        break;
      case 'boolean':
        if (coerce) code += `${x} = h.cb(${x});\n`;
        code += `if (typeof ${x} !== "boolean") return;\n`;
        break;
      case 'enum': {
        const values = node.enum ?? [];
        if (coerce && values.length > 0 && values.every((value) => typeof value === 'number')) {
          code += `if (typeof ${x} === "string") ${x} = h.cn(${x});\n`;
        }
        const type = inferEnumType(values);
        if (type === 'string' || type === 'boolean') code += `if (typeof ${x} !== "${type}") return;\n`;
        else if (type === 'integer') code += integerCheck(x);
        else if (type === 'number') code += numberCheck(x);
        break;
      }
      case 'record':
        this.shapeComplete = false;
        code += `if (typeof ${x} !== "object" || ${x} === null || Array.isArray(${x})) return;\n`;
        break;
      case 'array': {
        code += `if (!Array.isArray(${x})) return;\n`;
        this.deepest = Math.max(this.deepest, level);
        const items = node.items!;
        const out = this.variable('a');
        const i = this.variable('i');
        const item = this.variable('x');
        const inner = this.node(items, item, coerce, false, level + 1, pure);
        if (!pure) code += `const ${out} = new Array(${x}.length);\n`;
        code += `for (let ${i} = 0; ${i} < ${x}.length; ${i}++) {\nlet ${item} = ${x}[${i}];\n`;
        code += `if (${item} === null || ${item} === undefined) return;\n${inner.code}${pure ? '' : `${out}[${i}] = ${inner.wire};\n`}}\n`;
        if (!pure) wire = out;
        break;
      }
      case 'union': {
        // Prepared as it came (no coercion, no defaults): the value is one of the members as it stands.
        const members = node.members!.map((member) => {
          const fn = this.variable('u');
          const y = this.variable('y');
          this.helpers.push(`function ${fn}(${y}) {\n${this.node(member, y, false, false, level, true).code}return true;\n}\n`);
          return `${fn}(${x})`;
        });
        code += `if (!(${members.join(' || ') || 'false'})) return;\n`;
        break;
      }
      case 'object':
        return pure ? { code: this.pureObject(node.target!, x, keywords, level), wire: x } : this.object(node.target!, x, keywords, level);
      default:
        throw new NotGenerated();
    }
    if (node.enum) {
      if (node.enum.some((value) => typeof value === 'string' && !wellFormed(value))) this.shapeComplete = false;
      const allowed = node.enum.map((value) => `${x} === ${this.literal(value)}`).join(' || ');
      code += `if (!(${allowed || 'false'})) return;\n`;
    }
    code += this.keywords(keywords, x, wire, node);
    return { code, wire };
  }

  private object(target: Function, x: string, keywords: Map<string, unknown>, level: number): { code: string; wire: string } {
    if (keywords.size > 0) throw new NotGenerated();
    this.deepest = Math.max(this.deepest, level);
    const contract = contractOf(target);
    const wire = this.variable('w');
    let code = `if (typeof ${x} !== "object" || ${x} === null || Array.isArray(${x})) return;\n`;
    // Plain objects only; any other goes the generic way.
    code += `{ const p = h.proto(${x}); if (p !== h.objectProto && p !== null) return; }\n`;
    code += this.unknownKeys(contract, x);
    // The generic preparation keeps every key of the caller's object, in the caller's order.
    code += `const ${wire} = { ...${x} };\n`;
    code += this.fields(contract, x, wire, true, level + 1);
    return { code, wire };
  }

  /** A nested object checked as it stands (in a union): no coercion, no defaults, no copy. */
  private pureObject(target: Function, x: string, keywords: Map<string, unknown>, level: number): string {
    if (keywords.size > 0) throw new NotGenerated();
    this.deepest = Math.max(this.deepest, level);
    const contract = contractOf(target);
    if (contract.rawKeywords || this.path.has(target)) throw new NotGenerated();
    this.path.add(target);
    let code = `if (typeof ${x} !== "object" || ${x} === null || Array.isArray(${x})) return;\n`;
    code += `{ const p = h.proto(${x}); if (p !== h.objectProto && p !== null) return; }\n`;
    const key = this.variable('key');
    const known = contract.inputFields.map((field) => `${key} === ${JSON.stringify(field.name)}`).join(' || ') || 'false';
    // ajv reads the object itself here, inherited enumerable keys included.
    code += `for (const ${key} in ${x}) if (!(${known})) return;\n`;
    for (const field of contract.inputFields) {
      if (field.name === '__proto__') throw new NotGenerated();
      if (!wellFormed(field.name)) this.shapeComplete = false;
      const y = this.variable('y');
      const required = isRequiredInput(field);
      const body = this.node(field.type, y, false, required && !field.allowEmpty, level + 1, true);
      code += `{ const ${y} = ${x}[${JSON.stringify(field.name)}];\n`;
      code += `if (${y} === undefined) { ${required ? 'return;' : ''} }\n`;
      code += `else if (${y} === null) { ${field.nullable ? '' : 'return;'} }\n`;
      code += `else {\n${body.code}}\n}\n`;
    }
    this.path.delete(target);
    return code;
  }

  private format(format: string, x: string): string {
    if (format === 'date-time') return `if (!h.dateTime(${x})) return;\n`;
    const check = (text: string) => formatHolds(format, text);
    return `if (!${this.constant(check)}(${x})) return;\n`;
  }

  private keywords(keywords: Map<string, unknown>, x: string, wire: string, node: TypeNode): string {
    let code = '';
    for (const [keyword, value] of keywords) {
      const limit = typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
      const number = `typeof ${x} === "number"`;
      const string = `typeof ${x} === "string"`;
      switch (keyword) {
        case 'minLength':
          if (limit === undefined) throw new NotGenerated();
          code += `if (${string} && (${x}.length < ${limit} || (${x}.length < 2 * ${limit} && h.len(${x}) < ${limit}))) return;\n`;
          break;
        case 'maxLength':
          if (limit === undefined) throw new NotGenerated();
          code += `if (${string} && ${x}.length > ${limit} && h.len(${x}) > ${limit}) return;\n`;
          break;
        case 'pattern': {
          if (typeof value !== 'string') throw new NotGenerated();
          code += `if (${string} && !${this.constant(unicodePattern(value))}.test(${x})) return;\n`;
          break;
        }
        case 'minimum':
          if (limit === undefined) throw new NotGenerated();
          code += `if (${number} && ${x} < ${limit}) return;\n`;
          break;
        case 'maximum':
          if (limit === undefined) throw new NotGenerated();
          code += `if (${number} && ${x} > ${limit}) return;\n`;
          break;
        case 'exclusiveMinimum':
          if (limit === undefined) throw new NotGenerated();
          code += `if (${number} && ${x} <= ${limit}) return;\n`;
          break;
        case 'exclusiveMaximum':
          if (limit === undefined) throw new NotGenerated();
          code += `if (${number} && ${x} >= ${limit}) return;\n`;
          break;
        case 'multipleOf': {
          if (limit === undefined) throw new NotGenerated();
          // ajv's check with multipleOfPrecision 12 (./validation.ts).
          const q = this.variable('q');
          code += `if (${number}) { const ${q} = ${x} / ${limit}; if (${limit} === 0 || Math.abs(Math.round(${q}) - ${q}) > 1e-12) return; }\n`;
          break;
        }
        case 'minItems':
          if (limit === undefined) throw new NotGenerated();
          code += `if (${wire}.length < ${limit}) return;\n`;
          break;
        case 'maxItems':
          if (limit === undefined) throw new NotGenerated();
          code += `if (${wire}.length > ${limit}) return;\n`;
          break;
        case 'uniqueItems': {
          if (value !== true) {
            if (value === false) break;
            throw new NotGenerated();
          }
          const items = node.items!;
          const scalar = ['string', 'integer', 'number', 'boolean'].includes(items.kind) || (items.kind === 'enum' && !!items.enum);
          if (!scalar) throw new NotGenerated();
          code += `if (${wire}.length > 1 && new h.Set(${wire}).size !== ${wire}.length) return;\n`;
          break;
        }
        case 'minProperties':
          if (limit === undefined) throw new NotGenerated();
          code += `if (h.keys(${x}).length < ${limit}) return;\n`;
          break;
        case 'maxProperties':
          if (limit === undefined) throw new NotGenerated();
          code += `if (h.keys(${x}).length > ${limit}) return;\n`;
          break;
        default:
          throw new NotGenerated();
      }
    }
    return code;
  }

  /** Statements that build the instance of `contract` in `inst` from the wire object in `wire`. */
  instance(contract: Contract, wire: string, inst: string): string {
    let code = `const ${inst} = ${this.constant(newInstance(contract.target))}();\n`;
    for (const field of contract.inputFields) {
      const name = JSON.stringify(field.name);
      const v = this.variable('v');
      const built = this.instanceOf(field.type, v);
      code += `{ const ${v} = ${wire}[${name}];\nif (${v} !== undefined) ${built.code ? `{\n${built.code}${inst}[${name}] = ${v} === null ? null : ${built.value};\n}` : `${inst}[${name}] = ${v};`}\n}\n`;
    }
    return code;
  }

  /** The instance value of a validated wire value in `v` (not undefined); empty code when it is the wire value. */
  private instanceOf(node: TypeNode, v: string): { code: string; value: string } {
    switch (node.kind) {
      case 'date':
        return { code: `const d${v} = typeof ${v} === "string" ? new h.Date(${v}) : ${v};\n`, value: `d${v}` };
      case 'object': {
        const inst = this.variable('o');
        return {
          code: `let ${inst} = ${v};\nif (${v} !== null && typeof ${v} === "object") {\n${this.instance(contractOf(node.target!), v, `n${inst}`)}${inst} = n${inst};\n}\n`,
          value: inst,
        };
      }
      case 'array': {
        const item = this.variable('v');
        const built = this.instanceOf(node.items!, item);
        if (!built.code) return { code: '', value: v };
        const out = this.variable('a');
        const i = this.variable('i');
        return {
          code: `let ${out} = ${v};\nif (Array.isArray(${v})) {\n${out} = new Array(${v}.length);\nfor (let ${i} = 0; ${i} < ${v}.length; ${i}++) {\nconst ${item} = ${v}[${i}];\n${built.code}${out}[${i}] = ${built.value};\n}\n}\n`,
          value: out,
        };
      }
      default:
        return { code: '', value: v };
    }
  }
}

/** The pattern as ajv compiles it (with the `u` flag); one it cannot compile is not generated. */
function unicodePattern(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    throw new NotGenerated();
  }
}

function wellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

function integerCheck(x: string): string {
  return `if (typeof ${x} !== "number" || ${x} % 1 !== 0 || !isFinite(${x})) return;\n`;
}

function numberCheck(x: string): string {
  return `if (typeof ${x} !== "number" || !isFinite(${x})) return;\n`;
}

/** The generated input functions of a contract class, or undefined where the generator does not write its shape. */
export const generatedInput = perClass((target) => write(contractOf(target)));

function write(contract: Contract): GeneratedInput | null {
  const writer = new Writer();
  const made = writer.make<[GeneratedCheck, GeneratedInstantiate]>(() => {
    const check = `if (reject) ${writer.unknownKeys(contract, 's')}const w = {};\n${writer.fields(contract, 's', 'w', false, 2)}return w;\n`;
    const instantiate = `${writer.instance(contract, 'w', 'i')}return i;\n`;
    return `${writer.helpers.join('')}return [function check(s, nma, reject) {\n${check}}, function instantiate(w) {\n${instantiate}}];`;
  }, HELPERS);
  if (!made) return null;
  const [check, instantiate] = made;
  return { check, instantiate, depth: writer.shapeComplete ? writer.deepest : undefined };
}
