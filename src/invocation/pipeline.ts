/**
 * The call pipeline: the middleware a validated call passes through on its way to the tool.
 * Order: input checks → middleware (first listed is outermost) → approval → the tool under its
 * time limit. A middleware sees validated input and answers with a Result; whatever it throws or
 * returns instead ends the call as a Result too, never as a rejection.
 */
import { randomUUID } from 'node:crypto';
import type { ToolDefinition } from '../registry/tool-definition';
import { describeValue } from '../util/describe-value';
import { AmbientSource, readAmbient } from './ambient';
import { ApprovalQuestion, questionOf, ShownArguments, showArguments } from './approval-question';
import { FailOptions, ToolFailure } from './failure';
import { foreignRedactedInput } from './foreign-tool';
import { redact } from './redact';
import { failureMessage, Result } from './result';
import { isInstance } from './thrown';
import { DeclarationError } from '../errors/declaration-errors';

import type { TransportName } from './transport';

export type { TransportName } from './transport';

/** Trusted ambient values, read by key (`call.ambient.get('userId')`). */
export interface AmbientValues {
  get(key: string): unknown;
}

/** One call as middleware, approvers and audit hooks see it. */
export interface ToolCall {
  /** The tool being called. */
  readonly tool: ToolDefinition;
  /** The validated input, exactly as the tool will receive it (ambient fields included). */
  readonly input: Readonly<Record<string, unknown>>;
  /**
   * The input a person or a log may see: `sensitive` fields as `[redacted]`, ambient fields left
   * out (they are the caller's identity, not what was asked).
   */
  redactedInput(): Readonly<Record<string, unknown>>;
  /**
   * What a person is asked before this call runs, the same question on every way in: every argument
   * (as `redactedInput()` shows it), a long text shortened in its middle with its length. `name` is
   * the tool's name as the person knows it (default: its tool name). Throws a `ToolApprovalError`
   * (`reason: 'unshowable'`) when the arguments cannot be shown within `APPROVAL_QUESTION_LIMITS`.
   */
  approvalQuestion(name?: string): ApprovalQuestion;
  /** The call's trusted ambient values, by ambient key (any key, not only the tool's own). */
  readonly ambient: AmbientValues;
  /** The caller's signal (a never-aborted one when the caller passed none). */
  readonly signal: AbortSignal;
  /** Which transport the call came through: `mcp`, `openai`, `ai`, `inprocess`, … */
  readonly transport: TransportName;
  /** The call's id: the transport's (MCP request id, tool call id) or a generated UUID. */
  readonly id: string;
  /** The transport's request object, when it passed one (the HTTP adapter's Fastify request); what a resolver gets as `call.request`. */
  readonly request?: unknown;
  /**
   * A user-facing failure for this call, to return instead of calling `next()`:
   * `return call.fail('Too many requests; retry in 3 s')`. Reads like the tool's own `fail()`.
   */
  fail(reason: string, options?: FailOptions & { cause?: unknown }): Result<never>;
}

/**
 * Runs around every call of an Invoker: `(call, next) => next()` passes the call on; returning
 * `call.fail(…)` (or throwing `fail(…)`) refuses it with a user-facing failure; anything else a
 * middleware throws is an exception outcome, reported once.
 */
export type Middleware = (call: ToolCall, next: () => Promise<Result>) => Promise<Result> | Result;

/** @internal */
export class PipelineCall implements ToolCall {
  private ownId: string | undefined;
  private shown: ShownArguments | undefined;

  constructor(
    readonly tool: ToolDefinition,
    readonly input: Readonly<Record<string, unknown>>,
    private readonly source: AmbientSource | undefined,
    readonly signal: AbortSignal,
    readonly transport: TransportName,
    id: string | undefined,
    readonly request?: unknown,
  ) {
    this.ownId = id;
  }

  get id(): string {
    return (this.ownId ??= randomUUID());
  }

  get ambient(): AmbientValues {
    const source = this.source;
    return { get: (key: string) => readAmbient(source, key) };
  }

  redactedInput(): Readonly<Record<string, unknown>> {
    return redactedInput(this.tool, this.input);
  }

  approvalQuestion(name: string = this.tool.toolName()): ApprovalQuestion {
    // Shown once per call: the invoker checks it can be shown, then the approver asks it.
    return questionOf(name, (this.shown ??= showArguments(this.tool, this.redactedInput(), this.input)));
  }

  fail(reason: string, options: FailOptions & { cause?: unknown } = {}): Result<never> {
    if (typeof reason !== 'string') throw new TypeError(`call.fail() takes a reason string; got ${describeValue(reason)}.`);
    const standalone = options.standalone === true;
    return Result.failure(this.tool, failureMessage(this.tool, reason, standalone), options.cause ?? new ToolFailure(reason, standalone));
  }
}

/** The input a person or a log may see: `sensitive` fields as `[redacted]`, ambient fields left out. */
export function redactedInput(tool: ToolDefinition, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const foreign = foreignRedactedInput(tool, input);
  if (foreign) return foreign;
  const contract = tool.inputContract;
  const copy = redact(contract, input) as Record<string, unknown>;
  for (const field of contract.ambientFields) delete copy[field.name];
  return copy;
}

/** A middleware's name for messages: its function name, else its position. */
function nameOf(middleware: Middleware, index: number): string {
  return middleware.name ? `middleware '${middleware.name}'` : `middleware #${index + 1}`;
}

/** Checks a middleware list once, where it is given. */
export function checkMiddleware(list: unknown, where: string): readonly Middleware[] {
  if (!Array.isArray(list)) {
    throw new DeclarationError(
      `${where}: 'middleware' must be a list of functions (call, next) => Promise<Result>; got ${describeValue(list)}.`,
    );
  }
  list.forEach((item, index) => {
    if (typeof item !== 'function') {
      throw new DeclarationError(
        `${where}: middleware #${index + 1} must be a function (call, next) => Promise<Result>; got ${describeValue(item)}.`,
      );
    }
  });
  return Object.freeze([...list]) as readonly Middleware[];
}

/**
 * Runs `call` through `list` to `last`. `thrown` turns what a middleware threw (or a non-Result the
 * chain answered with) into the call's Result: a failure inside the chain travels out through the
 * middleware around it (each may catch it), and is turned into a Result once, at the outside.
 * Only the outermost answer is checked, so a chain adds no promise of its own per middleware.
 */
export function runPipeline(
  list: readonly Middleware[],
  call: ToolCall,
  last: () => Promise<Result>,
  thrown: (error: unknown) => Result,
): Promise<Result> {
  const dispatch = (index: number): Promise<Result> | Result => {
    if (index === list.length) return last();
    const middleware = list[index];
    let passed = false;
    const next = (): Promise<Result> => {
      if (passed) {
        return Promise.reject(
          new TypeError(
            `${nameOf(middleware, index)} called next() twice for one call of ${call.tool.id}; a call runs the tool at most once.`,
          ),
        );
      }
      passed = true;
      return Promise.resolve(dispatch(index + 1));
    };
    try {
      return middleware(call, next);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return Promise.resolve(dispatch(0)).then(
    (result) =>
      isInstance(result, Result)
        ? result
        : thrown(
            new TypeError(
              `A middleware of ${call.tool.id} answered ${describeValue(result)} instead of a Result: ` +
                'return next() (or the Result it resolves to), or call.fail(reason).',
            ),
          ),
    thrown,
  );
}
