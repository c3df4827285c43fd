/**
 * RFC 6570 URI templates, toolwright's own, in one place: read once (parseUriTemplate), expanded
 * (`expand`, section 3.2) and matched (`match`, the inverse, linear in the URI's length). Every level:
 * `{var}`, `{+path}`, `{#frag}`, `{.ext}`, `{/seg*}`, `{;x,y}`, `{?q,lang}`, `{&x}`, `{var:3}`.
 * A resource template declares them; the MCP adapter matches `resources/read` URIs with them.
 */
import { expandParts, UriTemplateValue } from './uri-template-expand';
import { compileMatcher, UriTemplateMatch } from './uri-template-match';
import { matchProblem, parseUriTemplate, TemplatePart, UriTemplateVariable, variablesOf } from './uri-template-parse';

export type { UriTemplateVariable } from './uri-template-parse';
export type { UriTemplateScalar, UriTemplateValue } from './uri-template-expand';
export type { UriTemplateMatch } from './uri-template-match';

/** An RFC 6570 URI template: its variables, `expand(values)` and `match(uri)`. */
export class UriTemplate {
  /** Its variables, in order of first appearance: a name each, and whether it is exploded (a list). */
  readonly variables: readonly UriTemplateVariable[];
  /**
   * Why URIs cannot be matched against it (`{a}{b}`: nothing tells where one value ends), or
   * undefined when they can. Such a template still expands.
   */
  readonly unmatchable: string | undefined;
  private readonly parts: readonly TemplatePart[];
  private readonly matcher: (uri: string) => UriTemplateMatch | undefined;

  /** Reads a template once; throws a TypeError saying where it breaks when RFC 6570 does not allow it. */
  constructor(readonly template: string) {
    const parts = typeof template === 'string' ? parseUriTemplate(template) : 'it is not a string';
    if (typeof parts === 'string') throw new TypeError(`'${String(template)}' is not an RFC 6570 URI template: ${parts}.`);
    this.parts = parts;
    this.variables = variablesOf(parts);
    this.unmatchable = matchProblem(parts);
    this.matcher = compileMatcher(parts);
    Object.freeze(this);
  }

  /**
   * A template URIs are matched against (a resource template), or a sentence saying what is wrong
   * with it: where it breaks RFC 6570, or why no URI can be matched against it.
   */
  static forMatching(template: string): UriTemplate | string {
    const parts = parseUriTemplate(template);
    if (typeof parts === 'string') return `it is not an RFC 6570 URI template: ${parts}`;
    const problem = matchProblem(parts);
    return problem !== undefined ? `URIs cannot be matched against it: ${problem}` : new UriTemplate(template);
  }

  /**
   * The URI these values make (RFC 6570 section 3.2): undefined and null variables are left out;
   * lists and maps follow the operator's rules.
   */
  expand(values: Readonly<Record<string, UriTemplateValue>>): string {
    return expandParts(this.parts, values);
  }

  /**
   * The values a URI gives the variables, percent-decoded (a string each, a list for an exploded
   * one; a variable the URI leaves out is absent), or undefined when the URI does not match. The
   * inverse of `expand` for the values a template variable takes (a scalar; a list when exploded).
   */
  match(uri: string): UriTemplateMatch | undefined {
    if (this.unmatchable !== undefined) throw new TypeError(`URIs cannot be matched against '${this.template}': ${this.unmatchable}.`);
    return typeof uri === 'string' ? this.matcher(uri) : undefined;
  }

  toString(): string {
    return this.template;
  }
}

/**
 * The first variable a match gives a `..` path segment (between `/` or `\`, after decoding:
 * `%2e%2e%2f` included), or undefined: a URI may not climb out of the place its template names.
 */
export function climbingVariable(values: UriTemplateMatch): string | undefined {
  const climbs = (value: string) => value.split(/[/\\]/).includes('..');
  return Object.keys(values).find((name) => {
    const value = values[name];
    return Array.isArray(value) ? value.some(climbs) : climbs(value as string);
  });
}
