/**
 * Raw JSON Schema 2020-12 keywords (`@JsonSchemaKeywords`): the escape hatch for what no declaration
 * can say (`allOf`, `if`/`then`/`else`, `$anchor`, …). Checked when declared; written after a
 * class's derived keywords in every input schema (2020-12, not strict); checked again with the
 * schema they joined (every `$ref` resolves, every keyword and format is one ajv runs); and enforced
 * by the invoker's validator, which compiles that same schema.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Contract } from '../contract/field-model';
import { DeclarationError } from '../errors/declaration-errors';
import { copyJson } from '../util/copy-json';
import { deepFreeze } from '../util/deep-freeze';
import { describeValue, isPlainObject } from '../util/describe-value';

type Keywords = Readonly<Record<string, unknown>>;

/** Keywords the derived schema of a class says itself: raw ones would contradict or widen them. */
const DERIVED: Readonly<Record<string, string>> = {
  type: 'a contract class is always an object',
  properties: 'declare the field on the class (with @Field or a class-validator decorator)',
  required: 'declare the field without optional: true, or require it under a condition with allOf, if/then/else or dependentRequired',
  additionalProperties: 'a contract is closed: only its declared fields are accepted',
  patternProperties: 'a contract is closed: only its declared fields are accepted',
  unevaluatedProperties: 'a contract is closed already (additionalProperties: false)',
  $defs: 'name a contract class with @SchemaName (it is written to $defs under that name) and $ref it',
  definitions: 'name a contract class with @SchemaName (it is written to $defs under that name) and $ref it',
};

/** Keywords refused anywhere: they change how references resolve, or name a dialect of their own. */
const NEVER: Readonly<Record<string, string>> = {
  $id: 'it would change what every $ref inside it means',
  $schema: 'the dialect is the whole schema’s (2020-12), named at its root',
  $vocabulary: 'the dialect is the whole schema’s (2020-12)',
  $dynamicRef: 'use $ref',
  $dynamicAnchor: 'use $anchor',
};

/** Keywords whose value is data, not a schema: nothing under them is read as a keyword. */
const DATA = new Set(['const', 'enum', 'default', 'examples']);

/** What a raw `$ref` may point at: the root, a definition by name, or an `$anchor`. */
const LOCAL_REF = /^#(?:\/\$defs\/[A-Za-z_][A-Za-z0-9_.-]*|[A-Za-z_][A-Za-z0-9_.-]*)?$/;

/** Deeper than this, raw keywords are refused (a schema written by hand is never this deep; a cycle is). */
const MAX_RAW_DEPTH = 64;

/** Reads meta-schemas only. */
const meta = new Ajv2020({ strict: false });
/** Compiles a schema with raw keywords once, to refuse what would not run: unknown keywords and formats, unresolved references. */
const checker = addFormats(
  new Ajv2020({ strictSchema: true, strictTypes: false, strictTuples: false, strictRequired: false, allowUnionTypes: true }),
);
// ajv resolves $anchor when it reads a schema, but lists no keyword by that name: strict mode would call it unknown.
checker.addKeyword('$anchor');

/**
 * Checks raw keywords where they are declared, and returns a frozen copy: a plain JSON object,
 * valid against the 2020-12 meta-schema, saying nothing the class's derived schema says, and
 * referring only inside the schema.
 */
export function checkRawKeywords(keywords: unknown, owner: string): Keywords {
  const at = `@JsonSchemaKeywords on ${owner}`;
  if (!isPlainObject(keywords)) {
    throw new DeclarationError(
      `${at} needs an object of JSON Schema 2020-12 keywords, such as { allOf: [...] }; got ${describeValue(keywords)}.`,
      {
        class: owner,
      },
    );
  }
  if (Object.keys(keywords).length === 0) {
    throw new DeclarationError(`${at} declares no keyword. Add the keywords the class's schema needs, or remove the decorator.`, {
      class: owner,
    });
  }
  for (const keyword of Object.keys(keywords)) {
    if (keyword in DERIVED) {
      throw new DeclarationError(
        `${at}: '${keyword}' is derived from the class's declaration and cannot be given raw (${DERIVED[keyword]}).`,
        { class: owner },
      );
    }
  }
  walk(keywords, '#', 0, false, at, owner);
  if (!meta.validateSchema(keywords)) {
    throw new DeclarationError(
      `${at} is not valid JSON Schema 2020-12: ${meta.errorsText(meta.errors, { dataVar: 'keywords' })}. Fix the keywords so the 2020-12 meta-schema accepts them.`,
      { class: owner },
    );
  }
  return deepFreeze(copyJson(keywords));
}

/** Every value plain JSON; keywords that are never allowed refused; every `$ref` local. */
function walk(value: unknown, pointer: string, depth: number, data: boolean, at: string, owner: string): void {
  if (depth > MAX_RAW_DEPTH) {
    throw new DeclarationError(
      `${at}: the keywords nest deeper than ${MAX_RAW_DEPTH} levels at ${pointer} (a cycle?). Write them as plain JSON.`,
      {
        class: owner,
      },
    );
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return;
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, `${pointer}/${i}`, depth + 1, data, at, owner));
    return;
  } else if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      const here = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (!data) checkKeyword(key, child, here, at, owner);
      walk(child, here, depth + 1, data || DATA.has(key), at, owner);
    }
    return;
  }
  throw new DeclarationError(`${at}: ${pointer} is ${describeValue(value)}, which is not JSON. Write the keywords as plain JSON values.`, {
    class: owner,
  });
}

function checkKeyword(key: string, value: unknown, pointer: string, at: string, owner: string): void {
  if (key in NEVER) {
    throw new DeclarationError(`${at}: ${pointer} is not allowed in raw keywords (${NEVER[key]}).`, { class: owner });
  }
  if (key !== '$ref' || typeof value !== 'string' || LOCAL_REF.test(value)) return;
  const fix = "Name the schema's class with @SchemaName and refer to '#/$defs/<name>', or give it an $anchor and refer to '#<anchor>'.";
  if (!value.startsWith('#')) {
    throw new DeclarationError(
      `${at}: ${pointer} '${value}' refers to another document, which toolwright never fetches (and MCP clients must not, SEP-2106). ` +
        `Copy that schema into a contract class: ${fix}`,
      { class: owner },
    );
  }
  throw new DeclarationError(
    `${at}: ${pointer} '${value}' points into the schema by position, which differs between transports (OpenAPI moves definitions). ${fix}`,
    { class: owner },
  );
}

/** The object schemas that got raw keywords, with those keywords' names. */
const owners = new WeakMap<object, ReadonlySet<string>>();
/** Every object and array inside a raw keyword, as written into a schema. */
const inside = new WeakSet<object>();

/** What a schema is written for: raw keywords go to 2020-12 input schemas only. */
export interface RawKeywordView {
  readonly direction: 'input' | 'output';
  readonly dialect: string;
  readonly strict: boolean;
}

/**
 * Appends a class's raw keywords to its object schema (after the derived ones, in declared order)
 * and returns whether it had any. Output schemas leave them out (toolwright does not check a tool's
 * output against them); a strict or draft-07 projection cannot say them and is refused.
 */
export function addRawKeywords(schema: Record<string, unknown>, contract: Contract, view: RawKeywordView): boolean {
  const raw = contract.rawKeywords;
  if (raw === undefined || view.direction === 'output') return false;
  const names = Object.keys(raw).join(', ');
  if (view.strict) {
    throw new DeclarationError(
      `${contract.name} adds raw JSON Schema keywords (${names}) with @JsonSchemaKeywords, which OpenAI strict mode does not accept. ` +
        'Offer its tool with the non-strict schema (strict: false), or declare the rule another way.',
      { class: contract.target },
    );
  }
  if (view.dialect !== '2020-12') {
    throw new DeclarationError(
      `${contract.name} adds raw JSON Schema 2020-12 keywords (${names}) with @JsonSchemaKeywords, which have no ${view.dialect} form. ` +
        'Use the 2020-12 schema (the default dialect).',
      { class: contract.target },
    );
  }
  for (const keyword of Object.keys(raw)) {
    const value = copyJson(raw[keyword]);
    markInside(value);
    schema[keyword] = value;
  }
  owners.set(schema, new Set(Object.keys(raw)));
  return true;
}

function markInside(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  inside.add(value);
  Object.values(value).forEach(markInside);
}

/** Whether a validator's error came from a raw keyword: its keyword is one, or it sits inside one. */
export function isRawKeywordError(parentSchema: unknown, keyword: string): boolean {
  if (typeof parentSchema !== 'object' || parentSchema === null) return false;
  return inside.has(parentSchema) || owners.get(parentSchema)?.has(keyword) === true;
}

/**
 * Compiles a whole schema that raw keywords joined, once, so what would not run is refused where it
 * is written: a `$ref` to nothing, an `$anchor` written twice, an unknown keyword or format.
 */
export function checkJoinedSchema(schema: Record<string, unknown>, root: Function): void {
  try {
    checker.compile(schema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const missing = (error as { missingRef?: unknown }).missingRef;
    const fix =
      typeof missing === 'string'
        ? `Nothing in the schema is at '${missing}': a class is in $defs under its @SchemaName (always), or refer to an $anchor.`
        : /more than one schema/.test(reason)
          ? 'A class with an $anchor is written more than once: name it with @SchemaName so it is written once, in $defs.'
          : 'Use only JSON Schema 2020-12 keywords and the formats ajv-formats knows.';
    throw new DeclarationError(
      `The input schema of ${root.name || '(anonymous class)'} with its @JsonSchemaKeywords does not compile: ${reason}. ${fix}`,
      { class: root },
    );
  } finally {
    checker.removeSchema(schema);
  }
}
