/**
 * A tool that is not a local class (a remote MCP server's, mounted in a Toolbox) as a definition
 * the invoker runs like any other: through its middleware, its approvals (the tool's hints stand
 * for its declaration, so `requireApprovalForDestructive` applies), the time limit, tracing and the
 * last guard. What differs is small and lives here: the input is the caller's arguments as JSON
 * (the tool's own server checks them against its schema), and the call is the spec's `call`
 * instead of a method resolved through DI. Internal: first-party adapters reach it through
 * adapter-kit/internal.
 */
import { contractOf } from '../contract/build-contract';
import type { Contract } from '../contract/field-model';
import type { MemberKind } from '../metadata/definitions';
import type { FieldError } from '../errors/errors';
import { DeclarationError } from '../errors/declaration-errors';
import { DefinitionHost, ToolDefinition } from '../registry/tool-definition';
import { deepFreeze } from '../util/deep-freeze';
import { REDACTED } from './redact';
import type { ToolContext } from './tool-context';

export interface ForeignToolSpec {
  /** Its name, for every adapter and in every message: the name the caller uses (`mcp__files__read`). */
  readonly name: string;
  /** Who it is, in messages and audit records (`mcp:files/read`). */
  readonly id: string;
  readonly description?: string;
  /** Its semantic hints (`readOnly`, `destructive`, `idempotent`, …), as a local tool's `@SemanticHints`. */
  readonly hints: readonly string[];
  /**
   * The JSON Schema its server advertises for its input: a value it marks `writeOnly` (as toolwright
   * marks `sensitive` fields) is redacted wherever toolwright hands the input on (approval questions,
   * audit records, exception reports).
   */
  readonly inputSchema?: unknown;
  /** What kind of member it stands for (default `tool`): a remote server's resource, prompt or completion says so to middleware (`call.tool.member`). */
  readonly member?: MemberKind;
  /**
   * Makes the call with the checked input (frozen JSON). What it returns is the call's value; what
   * it throws is judged like a local tool's throw (`fail()` is a user-facing failure).
   */
  call(input: Readonly<Record<string, unknown>>, context: ToolContext): unknown;
}

/** A foreign tool takes its arguments as they are: its contract declares nothing. */
class ForeignInput {}

const NO_HOST: DefinitionHost = {
  nameSuffixes: [],
  isMember: () => false,
  adapters: () => [],
  describe: () => {
    throw new DeclarationError('A foreign tool declares no other members: a completion cannot complete a remote prompt or template.');
  },
};
const NO_MESSAGES = Object.freeze({});

class ForeignDefinition extends ToolDefinition {
  constructor(readonly spec: ForeignToolSpec) {
    // A function of its own per tool: per-tool middleware state (concurrencyLimit) is kept by class.
    const target = { [spec.id]: function () {} }[spec.id];
    super(NO_HOST, target, 'call', 'class');
  }
  override get id(): string {
    return this.spec.id;
  }
  override get declaration(): undefined {
    return undefined;
  }
  override get member(): MemberKind {
    return this.spec.member ?? 'tool';
  }
  override get version(): number {
    return 1;
  }
  override get ownVersion(): undefined {
    return undefined;
  }
  override get declaresVersion(): boolean {
    return false;
  }
  override get description(): string | undefined {
    return this.spec.description;
  }
  override get title(): undefined {
    return undefined;
  }
  override get hints(): readonly string[] {
    return this.spec.hints;
  }
  override get messages(): { readonly error?: string; readonly success?: string } {
    return NO_MESSAGES;
  }
  override get timeoutMs(): undefined {
    return undefined;
  }
  override get approval(): undefined {
    return undefined;
  }
  override get failsOn(): [] {
    return [];
  }
  override get adapters(): readonly string[] {
    return [];
  }
  override isMemberOf(): boolean {
    return false;
  }
  override toolName(): string {
    return this.spec.name;
  }
  override hasExplicitName(): boolean {
    return true;
  }
  override adapterBags(): readonly Readonly<Record<string, unknown>>[] {
    return [];
  }
  override get inputContract(): Contract {
    return contractOf(ForeignInput);
  }
  override get outputContract(): undefined {
    return undefined;
  }
  override outputSchema(): undefined {
    return undefined;
  }
}

/** A definition for a tool that is not a local class; make it once per tool and keep it (first-party adapters only, through adapter-kit/internal). */
export function foreignTool(spec: ForeignToolSpec): ToolDefinition {
  return new ForeignDefinition({ ...spec, hints: Object.freeze([...spec.hints]) });
}

/**
 * For a foreign tool, the input its call carries: the arguments (an object of bounded depth, which
 * the invoker has checked) as JSON, deeply frozen, so what middleware and an approver see is what
 * is sent; or the problem when they are not JSON. Undefined for a local tool.
 */
export function foreignInput(
  tool: ToolDefinition,
  args: object,
): { input: Record<string, unknown>; problem?: undefined } | { problem: FieldError } | undefined {
  if (!(tool instanceof ForeignDefinition)) return undefined;
  try {
    return { input: deepFreeze(JSON.parse(JSON.stringify(args)) as Record<string, unknown>) };
  } catch (error) {
    const message = `the arguments are not JSON (${(error as Error)?.message ?? 'they cannot be written as JSON'})`;
    return { problem: { field: 'base', message, keyword: 'type', params: { type: 'object' } } };
  }
}

/** For a foreign tool, what the invoker calls instead of resolving a class: `{ call }`. */
export function foreignCallee(tool: ToolDefinition): { call: ForeignToolSpec['call'] } | undefined {
  return tool instanceof ForeignDefinition ? { call: tool.spec.call } : undefined;
}

/**
 * For a foreign tool, the input a person or a log sees, as a copy: every value its advertised schema
 * marks `writeOnly` as `[redacted]`, at any depth the schema describes (its `properties`, `items`,
 * `prefixItems`, local `$ref`s and the branches of `allOf`/`anyOf`/`oneOf`: a value any branch marks is
 * redacted); a key an object's schema closes out (`additionalProperties: false`) is left out.
 */
export function foreignRedactedInput(tool: ToolDefinition, input: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  if (!(tool instanceof ForeignDefinition)) return undefined;
  const { inputSchema } = tool.spec;
  return redactWriteOnly(inputSchema, structuredClone(input), inputSchema) as Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A local `$ref` (`#/$defs/Name`, `#/definitions/Name`) of `root`, or undefined. */
function resolveRef(ref: unknown, root: unknown): unknown {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** `value` (a copy, changed in place) with what `schema` marks writeOnly redacted; the walk follows the value, so it ends with it. */
function redactWriteOnly(schema: unknown, value: unknown, root: unknown): unknown {
  if (!isObject(schema) || value === undefined) return value;
  if (schema.writeOnly === true) return REDACTED;
  let result = '$ref' in schema ? redactWriteOnly(resolveRef(schema.$ref, root), value, root) : value;
  for (const branch of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[branch];
    if (Array.isArray(branches)) for (const each of branches) result = redactWriteOnly(each, result, root);
  }
  if (result === REDACTED) return result;
  if (Array.isArray(result)) {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    return result.map((item, index) => redactWriteOnly(index < prefix.length ? prefix[index] : schema.items, item, root));
  }
  if (isObject(result) && isObject(schema.properties)) {
    const properties = schema.properties;
    for (const key of Object.keys(result)) {
      // A key the schema closes out is left out, as a local tool's undeclared keys are (the server refuses it anyway).
      if (Object.prototype.hasOwnProperty.call(properties, key)) result[key] = redactWriteOnly(properties[key], result[key], root);
      else if (schema.additionalProperties === false) delete result[key];
    }
  }
  return result;
}
