/**
 * Tool-name derivation. A pure function of its inputs: never throws, never returns a blank name.
 */

export const DEFAULT_NAME_SUFFIXES: readonly string[] = ['Tool', 'Action'];

/** Lower-case; runs outside [a-z0-9_] become `_`; runs of `_` collapse; edges trimmed. */
export function sanitizeToolName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}

/** `ApproveLoan` → `approve_loan`, `HTTPRequestParser` → `http_request_parser`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

function stripSuffix(source: string, suffixes: readonly string[]): string {
  for (const suffix of suffixes) {
    if (suffix && source.length > suffix.length && source.endsWith(suffix)) {
      return source.slice(0, -suffix.length);
    }
  }
  return source;
}

export interface DerivedName {
  /** The name without any version segment (`approve_loan` for `ApproveLoanV2`). */
  readonly base: string;
  /** The version a trailing `V<n>` segment announces, if there is one. */
  readonly suffixVersion?: number;
  /** The name as it is when the version segment is kept (`approve_loan_v2`). */
  readonly full: string;
}

/** Derives a name from a class or method name: affix stripped, snake_cased, sanitized. */
export function deriveToolName(source: string, suffixes: readonly string[] = DEFAULT_NAME_SUFFIXES): DerivedName {
  const full = sanitizeToolName(snakeCase(stripSuffix(source, suffixes))) || sanitizeToolName(snakeCase(source)) || 'tool';
  const match = /^(.+)_v(\d+)$/.exec(full);
  if (!match) return { base: full, full };
  const suffixVersion = Number(match[2]);
  return { base: match[1], suffixVersion, full };
}

/** The `V<n>` suffix in a source name, for messages (`V2` of `ApproveLoanV2`). */
export function versionSegment(source: string): string {
  const match = /[_]?([vV]\d+)$/.exec(source);
  return match ? match[1] : '';
}
