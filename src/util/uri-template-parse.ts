/**
 * RFC 6570 URI templates read once into literals and expressions: what expansion
 * (uri-template-expand.ts) and matching (uri-template-match.ts) walk. Levels 1 to 4: the operators
 * none, `+`, `#`, `.`, `/`, `;`, `?`, `&`, prefixes (`{var:3}`) and explosion (`{var*}`).
 */

/** One variable of a template: its name and whether it is exploded (`{/segments*}`, a list). */
export interface UriTemplateVariable {
  readonly name: string;
  readonly explode: boolean;
}

/** One variable of one expression: `name`, `name*` or `name:3`. */
export interface VarSpec extends UriTemplateVariable {
  /** `{var:3}`: at most this many characters of the value. */
  readonly prefix?: number;
}

/** An operator's expansion rules (RFC 6570 appendix A). */
export interface OperatorRules {
  /** What the expansion starts with when any variable is defined ('' for none and `+`). */
  readonly first: string;
  /** Between values. */
  readonly sep: string;
  /** `name=value` pairs (`;`, `?`, `&`). */
  readonly named: boolean;
  /** After a name whose value is empty: `;x`, `?x=`. */
  readonly ifemp: string;
  /** Reserved characters pass unencoded (`+`, `#`). */
  readonly reserved: boolean;
}

/** One `{…}` of a template. */
export interface Expression extends OperatorRules {
  readonly operator: string;
  readonly vars: readonly VarSpec[];
  /** The expression as written, for messages. */
  readonly text: string;
}

/** A template read: literal text and expressions, in order. */
export type TemplatePart = string | Expression;

const rules = (first: string, sep: string, named: boolean, ifemp: string, reserved: boolean): OperatorRules =>
  Object.freeze({ first, sep, named, ifemp, reserved });

/** RFC 6570 appendix A, one row per operator. */
export const OPERATORS: Readonly<Record<string, OperatorRules>> = Object.freeze({
  '': rules('', ',', false, '', false),
  '+': rules('', ',', false, '', true),
  '.': rules('.', '.', false, '', false),
  '/': rules('/', '/', false, '', false),
  ';': rules(';', ';', true, '', false),
  '?': rules('?', '&', true, '=', false),
  '&': rules('&', '&', true, '=', false),
  '#': rules('#', ',', false, '', true),
});

const OPERATOR_CHARS = ['+', '#', '.', '/', ';', '?', '&'];
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const PREFIX = /^:[1-9]\d{0,3}$/;

/**
 * A template read into its parts, or a sentence saying what is wrong with it: an unclosed brace, an
 * empty expression, a name RFC 6570 does not allow.
 */
export function parseUriTemplate(template: string): readonly TemplatePart[] | string {
  const parts: TemplatePart[] = [];
  const kinds = new Map<string, boolean>();
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const close = template.indexOf('}', i);
    if (close !== -1 && (open === -1 || close < open)) return `it has a '}' at position ${close} with no '{' before it`;
    if (open === -1) break;
    if (open > i) parts.push(template.slice(i, open));
    const end = template.indexOf('}', open);
    if (end === -1) return `the '{' at position ${open} is never closed`;
    const text = template.slice(open, end + 1);
    const expression = readExpression(text, open, kinds);
    if (typeof expression === 'string') return expression;
    parts.push(expression);
    i = end + 1;
  }
  if (i < template.length) parts.push(template.slice(i));
  return Object.freeze(parts);
}

function readExpression(text: string, open: number, kinds: Map<string, boolean>): Expression | string {
  let body = text.slice(1, -1);
  if (body.includes('{')) return `the expression at position ${open} contains another '{'`;
  const operator = OPERATOR_CHARS.includes(body[0]) ? body[0] : '';
  body = body.slice(operator.length);
  if (body === '') return `the expression at position ${open} names no variable`;
  const vars: VarSpec[] = [];
  for (const spec of body.split(',')) {
    const explode = spec.endsWith('*');
    const prefix = /:[^:]*$/.exec(spec)?.[0];
    const name = explode ? spec.slice(0, -1) : prefix ? spec.slice(0, -prefix.length) : spec;
    if (prefix !== undefined && !PREFIX.test(prefix)) return `'${spec}' has a prefix length RFC 6570 does not allow (':1' to ':9999')`;
    if (!VARNAME.test(name)) return `'${name}' is not a variable name (letters, digits, _ and dots between them)`;
    const exploded = kinds.get(name);
    if (exploded !== undefined && exploded !== explode) return `'${name}' appears both exploded and not`;
    kinds.set(name, explode);
    vars.push(Object.freeze({ name, explode, ...(prefix ? { prefix: Number(prefix.slice(1)) } : {}) }));
  }
  return Object.freeze({ ...OPERATORS[operator], operator, vars: Object.freeze(vars), text });
}

/**
 * Why no URI can be matched against these parts unambiguously, or undefined: an expression without
 * an operator right after another (`{a}{b}`, `{+path}{var}`: nothing tells where one value ends), or
 * two exploded variables in one unnamed expression (`{/a*,b*}`: nothing tells where one list ends).
 * RFC 6570 expands both; a template a URI is matched against may not have them.
 */
export function matchProblem(parts: readonly TemplatePart[]): string | undefined {
  for (let i = 0; i < parts.length; i++) {
    const [previous, expression] = [parts[i - 1], parts[i]];
    if (typeof expression === 'string') continue;
    if (typeof previous === 'object' && expression.first === '') {
      return (
        `'${expression.text}' follows '${previous.text}' with nothing between them, so nothing in a URI tells where one value ends: ` +
        `put a literal between them ('${previous.text}-${expression.text}') or give the second an operator ('${previous.text}{/${expression.vars[0].name}}')`
      );
    }
    if (!expression.named && expression.vars.filter((v) => v.explode).length > 1) {
      return `'${expression.text}' explodes two variables in one expression, so nothing in a URI tells where one list ends: give each its own expression with a literal between them`;
    }
  }
  return undefined;
}

/** The variables of parsed parts, in order of first appearance (a repeated one once). */
export function variablesOf(parts: readonly TemplatePart[]): readonly UriTemplateVariable[] {
  const found = new Map<string, UriTemplateVariable>();
  for (const part of parts) {
    if (typeof part === 'string') continue;
    for (const { name, explode } of part.vars) if (!found.has(name)) found.set(name, Object.freeze({ name, explode }));
  }
  return Object.freeze([...found.values()]);
}
