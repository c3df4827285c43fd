/**
 * The validator's errors from raw JSON Schema keywords (`@JsonSchemaKeywords`), in the answer's
 * words: what the rule wants of which field, and where the input schema says it (a JSON pointer
 * into the schema the caller was shown), since no declaration of the class has words for it.
 */
import type { ErrorObject } from 'ajv/dist/2020';
import { isRawKeywordError } from '../schema/raw-keywords';

/** How many alternatives an `anyOf`/`oneOf` problem names (the first problem of each). */
const NAMED_ALTERNATIVES = 3;

/** One problem: the field it is about (`''` for the whole input) and its message. */
export interface RawProblem {
  readonly field: string;
  readonly message: string;
}

type Join = (path: string, segment: string) => string;

const subject = (path: string) => path || 'the input';

/** An error in plain words, without where the schema says it. */
function plainly(error: ErrorObject, path: string, join: Join): RawProblem {
  if (error.keyword === 'required') {
    const field = join(path, (error.params as { missingProperty: string }).missingProperty);
    return { field, message: `${field} is required` };
  }
  return { field: path, message: `${subject(path)} ${error.message ?? 'is invalid'}` };
}

/**
 * The problem a raw keyword's error names; `null` when another error says it (the `if` of a failed
 * `then`, an alternative of an `anyOf`); undefined when the error is not a raw keyword's.
 * `errors` is ajv's list (every error, in the order found), `index` this error's place in it, and
 * `pathOf` an error's field as the answer writes it (`contacts[3].email`).
 */
export function rawKeywordProblem(
  errors: readonly ErrorObject[],
  index: number,
  pathOf: (error: ErrorObject) => string,
  join: Join,
): RawProblem | null | undefined {
  const error = errors[index];
  if (!isRawKeywordError(error.parentSchema, error.keyword)) return undefined;
  const path = pathOf(error);
  if (error.keyword === 'if') return null;
  const at = error.schemaPath;
  // Inside an alternative: the anyOf/oneOf error names it among the others.
  if (/\/(?:anyOf|oneOf)\/\d+\//.test(at.slice(0, at.length - error.keyword.length))) return null;
  if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') {
    const { field, message } = plainly(error, path, join);
    return { field, message: `${message} (schema rule ${at})` };
  }
  const passing = (error.params as { passingSchemas?: unknown }).passingSchemas;
  if (Array.isArray(passing)) {
    return {
      field: path,
      message: `${subject(path)} must match exactly one of the alternatives of schema rule ${at}; it matches ${passing.join(' and ')}`,
    };
  }
  // ajv lists an alternative's errors just before the anyOf/oneOf error itself.
  const prefix = `${at}/`;
  const firsts = new Map<string, string>();
  for (let j = index - 1; j >= 0 && errors[j].schemaPath.startsWith(prefix); j--) {
    const branch = errors[j].schemaPath.slice(prefix.length).split('/', 1)[0];
    firsts.set(branch, plainly(errors[j], errors[j].instancePath === error.instancePath ? path : pathOf(errors[j]), join).message);
  }
  const named = [...firsts.entries()].sort(([a], [b]) => Number(a) - Number(b)).map(([, message]) => message);
  const shown = named.slice(0, NAMED_ALTERNATIVES);
  const more = named.length - shown.length;
  const which = error.keyword === 'oneOf' ? 'exactly one' : 'at least one';
  const details = shown.length === 0 ? '' : `: ${shown.join(', or ')}${more > 0 ? `, or ${more} more` : ''}`;
  return { field: path, message: `${subject(path)} must match ${which} of the alternatives of schema rule ${at}${details}` };
}
