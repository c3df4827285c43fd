/**
 * The one context a tool receives beside its input, whatever transport called it: the signal, the
 * call's identity, and five operations (progress, log, elicit, sample, roots) that each transport
 * fills in as far as it can. A transport passes its handlers in `CallOptions.context`; process-wide defaults
 * come from `configure({ toolContext })`.
 */
import { ToolContextUnavailableError } from '../errors/errors';
import type { ToolDefinition } from '../registry/tool-definition';
import { describeValue, isPlainObject } from '../util/describe-value';
import { DeclarationError } from '../errors/declaration-errors';
import { IN_PROCESS } from './transport';

/** Log levels, least to most severe (the syslog levels MCP uses). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Every `LogLevel`, least to most severe. */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The verified credentials of a call (MCP's `AuthInfo` has this shape). */
export interface CallAuth {
  readonly token: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** Seconds since the epoch. */
  readonly expiresAt?: number;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Who is calling, as far as the transport knows. */
export interface CallIdentity {
  /**
   * The call's transport, as middleware and spans name it: `inprocess` for invoke(), `mcp`, `openai`
   * (the Toolbox), `ai` (the AI SDK), or what a custom transport says (`CallOptions.transport`).
   */
  readonly transport: string;
  /** The request's id (MCP's JSON-RPC id, the model's tool-call id). */
  readonly requestId?: string | number;
  /** The transport session, where there is one (MCP over Streamable HTTP in session mode). */
  readonly sessionId?: string;
  /** The verified credentials, where the transport authenticates. */
  readonly auth?: CallAuth;
}

/** One field of a form the user fills in: a flat, primitive JSON Schema (MCP's elicitation subset). */
export type ElicitField =
  | {
      type: 'string';
      title?: string;
      description?: string;
      minLength?: number;
      maxLength?: number;
      format?: 'email' | 'uri' | 'date' | 'date-time';
      default?: string;
    }
  | { type: 'string'; title?: string; description?: string; enum: string[]; enumNames?: string[]; default?: string }
  /** A single choice with a title per value (SEP-1330). */
  | { type: 'string'; title?: string; description?: string; oneOf: Array<{ const: string; title: string }>; default?: string }
  /** Several choices (SEP-1330): plain values, or values with titles. */
  | {
      type: 'array';
      title?: string;
      description?: string;
      minItems?: number;
      maxItems?: number;
      items: { type: 'string'; enum: string[] } | { anyOf: Array<{ const: string; title: string }> };
      default?: string[];
    }
  | { type: 'number' | 'integer'; title?: string; description?: string; minimum?: number; maximum?: number; default?: number }
  | { type: 'boolean'; title?: string; description?: string; default?: boolean };

/** The form of an elicitation: an object of primitive fields. */
export interface ElicitSchema {
  type: 'object';
  properties: Record<string, ElicitField>;
  required?: string[];
}

/** The user's answer: `accept` with the form's content, `decline`, or `cancel` (dismissed). */
export interface ElicitResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, string | number | boolean | string[]>>;
}

/** What a sampling message carries. */
export type SampleContent =
  { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string } | { type: 'audio'; data: string; mimeType: string };

/** One message of a `SampleRequest`: who says it and what. */
export interface SampleMessage {
  role: 'user' | 'assistant';
  content: SampleContent;
}

/** A request for a completion from the caller's model (MCP's `sampling/createMessage` params). */
export interface SampleRequest {
  messages: SampleMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: 'none' | 'thisServer' | 'allServers';
  modelPreferences?: {
    hints?: Array<{ name?: string }>;
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  metadata?: Record<string, unknown>;
}

/** What `context.sample(request)` answers: the caller's model's message, and which model wrote it. */
export interface SampleResult {
  readonly role: 'assistant';
  readonly content: SampleContent;
  readonly model: string;
  readonly stopReason?: string;
}

/** A root the client offers (MCP `roots/list`): a directory or file the tool may work in, as a URI (`file://…`), and its name. */
export interface ClientRoot {
  readonly uri: string;
  readonly name?: string;
}

/** The options of one ask (`context.elicit`, `context.sample`, `context.roots`). */
export interface AskOptions {
  /**
   * Names this ask: on MCP 2026-07-28 the key of its input request on the wire and of its recorded
   * answer (without one, an ask is keyed by its position in the call: `ask-1`, `ask-2`, …). 1 to 64
   * characters of letters, digits, `_`, `.` and `-`, not of the form `ask-<number>`; each key once per call.
   */
  key?: string;
}

/** What every handler receives last: which tool asked, and the call's signal. */
export interface ContextCall {
  readonly tool: ToolDefinition;
  readonly signal: AbortSignal;
}

/** What an ask's handler (`elicit`, `sample`, `roots`) receives last: the call, and the ask's key if the tool gave one. */
export interface AskCall extends ContextCall {
  readonly key?: string;
}

/** How a transport (or an application, in process) answers a tool's context operations. */
export interface ToolContextHandlers {
  progress?(done: number, total: number | undefined, message: string | undefined, call: ContextCall): void | Promise<void>;
  log?(level: LogLevel, message: string, data: unknown, call: ContextCall): void | Promise<void>;
  elicit?(message: string, schema: ElicitSchema, call: AskCall): ElicitResult | Promise<ElicitResult>;
  sample?(request: SampleRequest, call: AskCall): SampleResult | Promise<SampleResult>;
  /** The roots the client offers (MCP `roots/list`). */
  roots?(call: AskCall): readonly ClientRoot[] | Promise<readonly ClientRoot[]>;
}

/** The operations that ask someone: the user (`elicit`), the caller's model (`sample`), the client (`roots`). */
export type AskOperation = 'elicit' | 'sample' | 'roots';

/** `CallOptions.context`: the handlers and the identity of one call. */
export interface CallContext extends ToolContextHandlers, Partial<CallIdentity> {
  /**
   * Why this transport cannot ask the user, the model or the client, for the error `elicit`/`sample`/
   * `roots` raise when there is no handler (default: "pass an `elicit` handler in the call options …").
   */
  unavailable?: { elicit?: string; sample?: string; roots?: string };
}

/** What a tool receives beside its input. */
export interface ToolContext {
  /**
   * Aborted when the caller cancels or the time limit passes (its reason a ToolTimeoutError); pass
   * it on to fetch, timers and database drivers.
   */
  readonly signal: AbortSignal;
  /** The tool being called. */
  readonly tool: ToolDefinition;
  /** Who is calling, through which transport. */
  readonly call: CallIdentity;
  /** Reports progress (MCP `notifications/progress` when the client asked for it); never fails the call. */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** Logs to the caller (MCP `notifications/message`, honouring the client's `logging/setLevel`); never fails the call. */
  log(level: LogLevel, message: string, data?: unknown): Promise<void>;
  /**
   * Asks the user to fill in a form (MCP `elicitation/create`, form mode). Rejects with a
   * ToolContextUnavailableError where the transport cannot ask the user. `options.key` names the ask
   * (AskOptions); asks made together (`Promise.all`) go out together.
   */
  elicit(message: string, schema: ElicitSchema, options?: AskOptions): Promise<ElicitResult>;
  /** Asks the caller's model for a completion (MCP `sampling/createMessage`); rejects where it cannot. */
  sample(request: SampleRequest, options?: AskOptions): Promise<SampleResult>;
  /** Asks the client for the roots it offers (MCP `roots/list`); rejects where it cannot. */
  roots(options?: AskOptions): Promise<readonly ClientRoot[]>;
  /** Whether `elicit` / `sample` / `roots` can reach someone in this call (so a tool can choose another path). */
  supports(operation: AskOperation): boolean;
}

let defaults: ToolContextHandlers = {};

/** @internal `configure({ toolContext })`: process-wide handlers for calls that pass none. */
export function setDefaultContextHandlers(handlers: ToolContextHandlers | undefined): void {
  if (handlers === undefined || handlers === null) {
    defaults = {};
    return;
  }
  checkCallContext(handlers, 'configure', 'toolContext');
  defaults = { ...handlers };
}

const HANDLERS = ['progress', 'log', 'elicit', 'sample', 'roots'] as const;

/** What an ask's key may be: short, and safe in any wire format and message. */
const ASK_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
/** The keys asks without one get (by position): a tool's own key may not look like one. */
const POSITIONAL_KEY = /^ask-\d+$/;

/**
 * Checks a `context` option (for adapters that take one): an object whose handlers are functions.
 * A TypeError naming `where` and the handler otherwise.
 */
export function checkCallContext(context: unknown, where: string, option = 'context'): void {
  if (context === undefined) return;
  if (!isPlainObject(context)) {
    throw new DeclarationError(
      `${where}: '${option}' must be an object of handlers { progress, log, elicit, sample, roots }; got ${describeValue(context)}.`,
    );
  }
  for (const name of HANDLERS) {
    const handler = context[name];
    if (handler !== undefined && typeof handler !== 'function') {
      throw new DeclarationError(`${where}: '${option}.${name}' must be a function; got ${describeValue(handler)}.`);
    }
  }
}

const IN_PROCESS_IDENTITY: CallIdentity = Object.freeze({ transport: IN_PROCESS });

/** A tool's context: handlers from the call, else from `configure`, else the transport's limits. */
class Context implements ToolContext {
  readonly call: CallIdentity;
  /** The keys this call's asks used (each once). */
  private keys?: Set<string>;

  constructor(
    readonly tool: ToolDefinition,
    readonly signal: AbortSignal,
    private readonly given: CallContext | undefined,
    transport: string,
  ) {
    this.call = given ? identityOf(given, transport) : transport === IN_PROCESS ? IN_PROCESS_IDENTITY : Object.freeze({ transport });
  }

  private handler<K extends keyof ToolContextHandlers>(name: K): ToolContextHandlers[K] {
    return this.given?.[name] ?? defaults[name];
  }

  supports(operation: AskOperation): boolean {
    return this.handler(operation) !== undefined;
  }

  async progress(done: number, total?: number, message?: string): Promise<void> {
    const handler = this.handler('progress');
    if (!Number.isFinite(done))
      throw new TypeError(`${this.who()}: context.progress(done) needs a finite number; got ${describeValue(done)}.`);
    if (total !== undefined && !Number.isFinite(total)) {
      throw new TypeError(`${this.who()}: context.progress(done, total) needs a finite total (or none); got ${describeValue(total)}.`);
    }
    if (handler && !this.signal.aborted) await this.quietly('progress', () => handler(done, total, message, this));
  }

  async log(level: LogLevel, message: string, data?: unknown): Promise<void> {
    if (!LOG_LEVELS.includes(level)) {
      throw new TypeError(`${this.who()}: context.log level must be one of ${LOG_LEVELS.join(', ')}; got ${describeValue(level)}.`);
    }
    const handler = this.handler('log');
    if (handler) await this.quietly('log', () => handler(level, String(message), data, this));
  }

  async elicit(message: string, schema: ElicitSchema, options?: AskOptions): Promise<ElicitResult> {
    if (typeof message !== 'string' || message === '') {
      throw new TypeError(
        `${this.who()}: context.elicit(message, schema) needs a message to show the user; got ${describeValue(message)}.`,
      );
    }
    if (!isPlainObject(schema) || schema.type !== 'object' || !isPlainObject(schema.properties)) {
      throw new TypeError(
        `${this.who()}: context.elicit(message, schema) needs a form schema { type: 'object', properties: { … } }; got ${describeValue(schema)}.`,
      );
    }
    const call = this.askCall('elicit', options);
    const handler = this.handler('elicit');
    if (!handler) throw this.unavailable('elicit', 'ask the user');
    return handler(message, schema, call);
  }

  async sample(request: SampleRequest, options?: AskOptions): Promise<SampleResult> {
    if (!isPlainObject(request) || !Array.isArray(request.messages) || !Number.isInteger(request.maxTokens) || request.maxTokens < 1) {
      throw new TypeError(
        `${this.who()}: context.sample(request) needs { messages: [{ role, content }], maxTokens: a whole number of at least 1 }; got ${describeValue(request)}.`,
      );
    }
    const call = this.askCall('sample', options);
    const handler = this.handler('sample');
    if (!handler) throw this.unavailable('sample', "ask the caller's model");
    return handler(request, call);
  }

  async roots(options?: AskOptions): Promise<readonly ClientRoot[]> {
    const call = this.askCall('roots', options);
    const handler = this.handler('roots');
    if (!handler) throw this.unavailable('roots', 'ask the client for its roots');
    return handler(call);
  }

  /** What an ask's handler receives: the call, and the ask's key, checked (its form, and once per call). */
  private askCall(operation: AskOperation, options: AskOptions | undefined): AskCall {
    const usage = `context.${operation}(${operation === 'elicit' ? 'message, schema, ' : operation === 'sample' ? 'request, ' : ''}{ key })`;
    if (options !== undefined && !isPlainObject(options)) {
      throw new TypeError(`${this.who()}: ${usage} takes an options object { key? }; got ${describeValue(options)}.`);
    }
    const key = options?.key;
    if (key === undefined) return { tool: this.tool, signal: this.signal };
    if (typeof key !== 'string' || !ASK_KEY.test(key) || POSITIONAL_KEY.test(key)) {
      throw new TypeError(
        `${this.who()}: ${usage} needs a key of 1 to 64 letters, digits, '_', '.' or '-', not of the form 'ask-<number>' (asks without a key are keyed so); got ${describeValue(key)}.`,
      );
    }
    this.keys ??= new Set();
    if (this.keys.has(key)) {
      throw new TypeError(
        `${this.who()}: ${usage} used the key '${key}' a second time in this call; give each ask of one call its own key (or none: asks without a key are keyed by their position).`,
      );
    }
    this.keys.add(key);
    return { tool: this.tool, signal: this.signal, key };
  }

  private who(): string {
    return `${this.tool.toolName()} (${this.tool.id})`;
  }

  private unavailable(operation: AskOperation, what: string): ToolContextUnavailableError {
    const reason =
      this.given?.unavailable?.[operation] ??
      `pass ${operation === 'elicit' ? 'an' : 'a'} \`${operation}\` handler in the call options (invoke(tool, args, { context: { ${operation} } })) or configure({ toolContext: { ${operation} } })`;
    return new ToolContextUnavailableError(
      `${this.who()} called context.${operation}(), and this transport (${this.call.transport}) cannot ${what}: ${reason}.`,
      operation,
    );
  }

  /** Progress and logs are best effort: a failing handler is reported, never the tool's failure. */
  private async quietly(what: string, send: () => unknown): Promise<void> {
    try {
      await send();
    } catch (error) {
      console.error(`toolwright: the ${what} handler of ${this.who()} failed:`, error);
    }
  }
}

function identityOf(given: CallContext, transport: string): CallIdentity {
  const identity: { -readonly [K in keyof CallIdentity]: CallIdentity[K] } = { transport };
  if (given.requestId !== undefined) identity.requestId = given.requestId;
  if (given.sessionId !== undefined) identity.sessionId = given.sessionId;
  if (given.auth !== undefined) identity.auth = given.auth;
  return Object.freeze(identity);
}

/** @internal The context of one call, through `transport` (the call's one transport name). */
export function toolContext(tool: ToolDefinition, signal: AbortSignal, given: CallContext | undefined, transport: string): ToolContext {
  return new Context(tool, signal, given, transport);
}
