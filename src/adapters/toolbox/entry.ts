/**
 * What a toolbox holds: entries, each one function a model can call. A local entry runs a
 * toolwright tool through the invoker; the entry abstraction is what lets other kinds (remote
 * tools behind a connection) sit beside local ones under the same rules.
 */
import {
  AmbientSource,
  ApprovalQuestion,
  CallContext,
  Approver,
  CallOptions,
  contentAsText,
  ContentPart,
  Invoker,
  Result,
  ToolDefinition,
  ToolLike,
} from '../../index';
import { guardToolResponse, MAPPING_FAILURE } from '../../adapter-kit';
import { joinWords } from '../../adapter-kit/internal';
import { OpenAIConfig } from './config';
import { describeLocalFunction, FunctionDescription, resolveFunctionTool } from './function-schema';

/** Per-call inputs the application (never the model) supplies. */
export interface ToolboxCallOptions {
  /**
   * Trusted values for the tools' `@AmbientContext` fields: replaces the toolbox's own entirely
   * (`{}` means none). Without either, the current `withAmbientContext` scope applies.
   */
  ambientContext?: AmbientSource;
  /** A DI container for this call (e.g. a child container with request-scoped registrations). */
  container?: CallOptions['container'];
  /**
   * How the tool's instance is made for this call (a `ToolResolver`; default: the toolbox's, else the
   * invoker's). See "Resolvers: other containers" in the Dependency injection guide (docs/guide/dependency-injection.md).
   */
  resolver?: CallOptions['resolver'];
  signal?: AbortSignal;
  /**
   * The tool context's handlers for this call (`progress`, `log`, `elicit`, `sample`); the context's
   * `call.transport` is `openai` and its `requestId` the tool call's id unless set here.
   */
  context?: CallContext;
  /**
   * Answers calls that need approval (`@Tool({ approval })`) at once. Without it such a call gives
   * an `approval_required` record, answered later with `toolbox.approve(record)` or `deny(record)`.
   */
  approve?: Approver;
}

/** @internal What an entry's call receives. */
export interface EntryCallOptions extends ToolboxCallOptions {
  readonly invoker: Invoker;
  /** The transport the call came through (`openai`, or `ai` through the AI SDK adapter). */
  readonly transport: string;
  /** The model's tool call id. */
  readonly callId: string;
  /** Read `null` on a non-nullable field as absent (the call follows a strict-mode schema). */
  readonly nullMeansAbsent: boolean;
}

/** @internal What an entry's call produces; the toolbox adds id, name, timing. */
export interface EntryOutcome {
  readonly status: 'completed' | 'failed';
  readonly output: string;
  readonly result?: Result;
  readonly data?: unknown;
  readonly content?: readonly ContentPart[];
}

/** @internal One function a toolbox offers. */
export interface ToolboxEntry {
  /** The function name the model calls, already checked against the provider's name rule. */
  readonly name: string;
  /** `local` runs in this process; `remote` is behind a connection and never replaces a local entry. */
  readonly origin: 'local' | 'remote';
  /** The local tool (undefined for other kinds). */
  readonly tool: ToolDefinition | undefined;
  /** Who the entry is, for messages (`ApproveLoanV2`, `LoanService.status`). */
  readonly owner: string;
  /** The function as the model sees it, with a fresh parameters schema. */
  toFunction(strict: boolean): FunctionDescription;
  /** @deprecated The old name of `toFunction` ("describe" meant too many things); it calls `toFunction`. */
  describe(strict: boolean): FunctionDescription;
  /** Runs a call with arguments already parsed from JSON. Never throws for the model's input. */
  call(args: unknown, options: EntryCallOptions): Promise<EntryOutcome>;
  /**
   * The question a person is asked before this call runs: undefined when it needs no approval, the
   * failed outcome when its arguments cannot be shown in one question (it is refused, never asked).
   */
  approvalQuestion?(args: unknown, options: EntryCallOptions): Promise<ApprovalQuestion | EntryOutcome | undefined>;
  /** Releases what the entry holds (connections); local entries hold nothing. */
  close?(): Promise<void>;
}

/** @internal An entry with its deprecated `describe` alias, which calls `toFunction`. */
export function toolboxEntry(entry: Omit<ToolboxEntry, 'describe'>): ToolboxEntry {
  return Object.assign(entry, { describe: (strict: boolean) => entry.toFunction(strict) });
}

/** The prefix of every message about arguments the tool cannot accept. */
export const INVALID_ARGUMENTS = 'Invalid tool arguments: ';

/** @internal What the model reads for a Result: rendered JSON, the user-facing error, or the input problems. */
export function outcomeOf(result: Result): EntryOutcome {
  if (!result.ok) {
    if (Invoker.inputInvalid(result)) {
      const problems = result.fieldErrors.map((error) => error.message);
      return { status: 'failed', output: INVALID_ARGUMENTS + (problems.length > 0 ? joinWords(problems) : result.message), result };
    }
    return { status: 'failed', output: result.message, result }; // the user-facing error, never result.exception
  }
  return guardToolResponse(
    result.tool,
    (): EntryOutcome => {
      const data = OpenAIConfig.serializeExposed(result);
      const content = result.content;
      if (content && content.length > 0) {
        // Chat Completions carries text only: each part as text (an image or audio as a one-line stand-in).
        const lines = content.map(contentAsText);
        if (data !== undefined) lines.unshift(JSON.stringify(data));
        return { status: 'completed', output: lines.join('\n'), result, content, ...(data !== undefined ? { data } : {}) };
      }
      if (data === undefined) return { status: 'completed', output: result.message, result };
      return { status: 'completed', output: JSON.stringify(data), result, data };
    },
    (): EntryOutcome => ({ status: 'failed', output: MAPPING_FAILURE, result }),
  );
}

/** @internal An entry for a toolwright tool, named by its `openai` name. */
export function localEntry(tool: ToolLike, where: string): ToolboxEntry {
  const { definition, name } = resolveFunctionTool(tool, where);
  return toolboxEntry({
    name,
    origin: 'local',
    tool: definition,
    owner: definition.id,
    toFunction: (strict) => describeLocalFunction(definition, name, strict),
    async call(args, { invoker, ...call }) {
      // The entry's call options are the invoker's call options, plus the invoker itself.
      return outcomeOf(await invoker.invoke(definition, args, call));
    },
    async approvalQuestion(args, { invoker, ambientContext, container, resolver, nullMeansAbsent }) {
      const asked = await invoker.approvalQuestion(definition, args, { ambientContext, container, resolver, nullMeansAbsent }, name);
      return asked instanceof Result ? outcomeOf(asked) : asked;
    },
  });
}
