/**
 * An output contract's rendering as generated code: one function per contract class that checks a
 * returned value against the contract and renders it, for the values it answers for sure (plain
 * data: primitives of the declared types, valid Dates, arrays, objects without `toJSON`, no
 * undeclared keys). It answers `undefined` for anything else, and ./contract-renderer.ts, the
 * reference, renders the value, names what breaks the contract and reports undeclared keys. Like
 * ../invocation/generated-input.ts: written from the class's metadata only, field names as JSON
 * string literals, every other value a constant; a contract with a free-form object, a union or a
 * recursive class gets no generated function.
 */
import { contractOf } from '../contract/build-contract';
import { mismatchDetail } from '../contract/conforms';
import type { Contract, TypeNode } from '../contract/field-model';
import { CodeWriter, NotGenerated, perClass } from '../util/code-writer';
import { isoString } from '../util/iso-date';

/** The rendered value, or undefined where the reference renderer decides. */
export type GeneratedRender = (value: unknown) => unknown;

/** A nested value deeper than this goes to the reference renderer, which tracks cycles past it. */
const MAX_DEPTH = 100;

const HELPERS = Object.freeze({
  proto: Object.getPrototypeOf as (value: object) => object | null,
  objectProto: Object.prototype,
  keys: Object.keys,
  holds: (node: TypeNode, value: unknown) => mismatchDetail(node, value) === undefined,
  iso: isoString,
  wellFormed: (text: string) => (text as string & { isWellFormed(): boolean }).isWellFormed(),
  Date,
});

class Writer extends CodeWriter {
  private readonly path = new Set<Function>();

  /** Statements rendering the fields of `contract` from object `src` into a new object `out`. */
  contract(contract: Contract, src: string, out: string, depth: number): string {
    if (this.path.has(contract.target) || depth > MAX_DEPTH) throw new NotGenerated();
    this.path.add(contract.target);
    const present = this.variable('n');
    let code = `const ${out} = {};\nlet ${present} = 0;\n`;
    for (const field of contract.fields) {
      if (field.name === '__proto__') throw new NotGenerated();
      const name = JSON.stringify(field.name);
      const v = this.variable('v');
      code += `{ const ${v} = ${src}[${name}];\n`;
      code += `if (${v} === undefined) { ${field.optional ? '' : 'return;'} }\n`;
      code += `else if (${v} === null) { ${field.nullable ? `${present}++; ${out}[${name}] = null;` : 'return;'} }\n`;
      const rendered = this.node(field.type, v, depth);
      code += `else {\n${present}++;\n${rendered.code}${out}[${name}] = ${rendered.value};\n}\n}\n`;
    }
    // Undeclared keys are the reference renderer's to report.
    const declared = contract.fields.map((field) => `${'key'} === ${JSON.stringify(field.name)}`).join(' || ') || 'false';
    code += `if (h.proto(${src}) === h.objectProto) { let c = 0; for (const key in ${src}) if (++c > ${present}) return; }\n`;
    code += `else { const ks = h.keys(${src}); for (let j = 0; j < ks.length; j++) { const key = ks[j]; if (!(${declared}) && ${src}[key] !== undefined) return; } }\n`;
    this.path.delete(contract.target);
    return code;
  }

  /** Checks and renders the value in `v` (neither null nor undefined); `value` is the rendered expression. */
  private node(node: TypeNode, v: string, depth: number): { code: string; value: string } {
    const leaf = node.enum !== undefined || node.constraints.length > 0 || (node.kind === 'string' && node.format !== undefined);
    const check = leaf ? `if (!h.holds(${this.constant(node)}, ${v})) return;\n` : '';
    switch (node.kind) {
      case 'string':
        return { code: `if (typeof ${v} !== "string" || !h.wellFormed(${v})) return;\n${check}`, value: v };
      case 'number':
      case 'integer': {
        const type =
          node.kind === 'integer'
            ? `if (typeof ${v} !== "number" || !Number.isInteger(${v})) return;\n`
            : `if (typeof ${v} !== "number" || !isFinite(${v})) return;\n`;
        // -0 renders as 0 (JSON has no -0), and the rendered number is the one checked.
        const r = this.variable('r');
        const rendered = leaf ? `if (!h.holds(${this.constant(node)}, ${r})) return;\n` : '';
        return { code: `${type}const ${r} = ${v} === 0 ? 0 : ${v};\n${rendered}`, value: r };
      }
      case 'boolean':
        return { code: `if (typeof ${v} !== "boolean") return;\n${check}`, value: v };
      case 'enum':
        return {
          code: `if (typeof ${v} === "string" ? !h.wellFormed(${v}) : typeof ${v} !== "number" && typeof ${v} !== "boolean") return;\nif (typeof ${v} === "number" && !isFinite(${v})) return;\n${check}`,
          value: v,
        };
      case 'date': {
        const t = this.variable('t');
        return {
          code: `if (!(${v} instanceof h.Date)) return;\nconst ${t} = ${v}.getTime();\nif (${t} !== ${t}) return;\n`,
          value: `h.iso(${v})`,
        };
      }
      case 'array': {
        const out = this.variable('a');
        const i = this.variable('i');
        const item = this.variable('v');
        const inner = this.node(node.items!, item, depth + 1);
        return {
          code:
            `if (!Array.isArray(${v})) return;\nconst ${out} = new Array(${v}.length);\n` +
            `for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {\nconst ${item} = ${v}[${i}];\nif (${item} === null || ${item} === undefined) return;\n${inner.code}${out}[${i}] = ${inner.value};\n}\n${leaf ? `if (!h.holds(${this.constant(node)}, ${out})) return;\n` : ''}`,
          value: out,
        };
      }
      case 'object': {
        const out = this.variable('o');
        return {
          code:
            `if (typeof ${v} !== "object" || Array.isArray(${v}) || typeof ${v}.toJSON !== "undefined" || ${v} instanceof Map) return;\n` +
            this.contract(contractOf(node.target!), v, out, depth + 1),
          value: out,
        };
      }
      default:
        throw new NotGenerated();
    }
  }
}

/** The generated renderer of an output contract class, or undefined where the generator does not write its shape. */
export const generatedRenderer = perClass((target) => write(contractOf(target)));

function write(contract: Contract): GeneratedRender | null {
  const writer = new Writer();
  return writer.make<GeneratedRender>(
    () =>
      'return function render(s) {\n' +
      'if (typeof s !== "object" || s === null || Array.isArray(s) || typeof s.toJSON !== "undefined") return;\n' +
      `${writer.contract(contract, 's', 'out', 1)}return out;\n};`,
    HELPERS,
  );
}
