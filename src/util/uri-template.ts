/**
 * RFC 6570 URI templates, read far enough to know their variables: `loans://{id}`,
 * `files://{+path}`, `search{?q,limit}`, `tree{/segments*}`. Expansion and matching are the
 * transport's (the MCP SDK's `UriTemplate`); a declaration only needs the variable names, checked
 * once, at decoration time.
 */

/** One variable of a template: its name and whether it is exploded (`{/segments*}`, a list). */
export interface UriTemplateVariable {
  readonly name: string;
  readonly explode: boolean;
}

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const PREFIX = /^:[1-9]\d{0,3}$/;

/**
 * The variables of a template, in order of first appearance, or a sentence saying what is wrong
 * with it (an unclosed brace, an empty expression, a name RFC 6570 does not allow).
 */
export function uriTemplateVariables(template: string): readonly UriTemplateVariable[] | string {
  const found = new Map<string, UriTemplateVariable>();
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const close = template.indexOf('}', i);
    if (close !== -1 && (open === -1 || close < open)) return `it has a '}' at position ${close} with no '{' before it`;
    if (open === -1) break;
    const end = template.indexOf('}', open);
    if (end === -1) return `the '{' at position ${open} is never closed`;
    let body = template.slice(open + 1, end);
    if (body.includes('{')) return `the expression at position ${open} contains another '{'`;
    if (OPERATORS.has(body[0])) body = body.slice(1);
    if (body === '') return `the expression at position ${open} names no variable`;
    for (const spec of body.split(',')) {
      const explode = spec.endsWith('*');
      const prefix = /:[^:]*$/.exec(spec)?.[0];
      const name = explode ? spec.slice(0, -1) : prefix ? spec.slice(0, -prefix.length) : spec;
      if (prefix !== undefined && !PREFIX.test(prefix)) return `'${spec}' has a prefix length RFC 6570 does not allow (':1' to ':9999')`;
      if (!VARNAME.test(name)) return `'${name}' is not a variable name (letters, digits, _ and dots between them)`;
      const previous = found.get(name);
      if (previous && previous.explode !== explode) return `'${name}' appears both exploded and not`;
      if (!previous) found.set(name, Object.freeze({ name, explode }));
    }
    i = end + 1;
  }
  return Object.freeze([...found.values()]);
}
