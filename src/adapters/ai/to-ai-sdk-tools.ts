/**
 * Toolbox functions as Vercel AI SDK tools: `tool({ description, inputSchema: jsonSchema(…), execute })`,
 * executed through the toolbox (and so through the invoker).
 */
import { jsonSchema, JSONSchema7, tool, Tool } from 'ai';
import { contentAsText, ContentPart, ToolLike, ToolwrightError } from '../../index';
import { checkCallOptions, checkKnownKeys, describeValue } from '../../adapter-kit';
import { Toolbox, ToolboxCallOptions, ToolCallRecord } from '../toolbox/index';
import { AskedApprovals, CHANGED_AFTER_APPROVAL } from '../../adapter-kit/internal';
import { DeclarationError } from '../../index';

/** The options of `toAiSdkTools(toolboxOrTools, { ... })`: which functions, strict schemas, and the calls' ambient values, container or resolver, and context handlers. */
export interface AiSdkToolsOptions {
  /** Only these function names (default: every function in the toolbox). */
  only?: readonly string[];
  /** Strict-mode schemas, and calls read the strict way (default: the toolbox's `strict`). */
  strict?: boolean;
  /** Trusted ambient values for every call (replaces the toolbox's own; default: the toolbox's). */
  ambientContext?: ToolboxCallOptions['ambientContext'];
  /** A DI container for every call (default: the toolbox's). */
  container?: ToolboxCallOptions['container'];
  /** How tools' instances are made for every call (a `ToolResolver`; default: the toolbox's). */
  resolver?: ToolboxCallOptions['resolver'];
  /**
   * Tool-context handlers for every call (`progress`, `log`, `elicit`, `sample`); the context's
   * `call.transport` is `ai` and its `requestId` the SDK's `toolCallId`.
   */
  context?: ToolboxCallOptions['context'];
}

/** The tools `generateText` / `streamText` take: the record the AI SDK calls a `ToolSet`. */
/**
 * The output of a call that answered with content parts (`Content.*`): the exposed value (if any)
 * and the parts, as JSON; `toModelOutput` turns it into the SDK's content output.
 */
export interface AiSdkContentOutput {
  readonly toolwright: 'content';
  readonly data?: unknown;
  readonly content: readonly ContentPart[];
}

function contentOutput(data: unknown, content: readonly ContentPart[]): AiSdkContentOutput {
  return { toolwright: 'content', ...(data !== undefined ? { data } : {}), content };
}

function isContentOutput(output: unknown): output is AiSdkContentOutput {
  return (
    typeof output === 'object' &&
    output !== null &&
    (output as AiSdkContentOutput).toolwright === 'content' &&
    Array.isArray((output as AiSdkContentOutput).content)
  );
}

type ModelPart =
  | { type: 'text'; text: string }
  | { type: 'image-data'; data: string; mediaType: string }
  | { type: 'file-data'; data: string; mediaType: string; filename?: string };

/** Images as `image-data`, audio and binary resources as `file-data`, the rest as text. */
function modelParts(output: AiSdkContentOutput): ModelPart[] {
  const parts: ModelPart[] = output.data !== undefined ? [{ type: 'text', text: JSON.stringify(output.data) }] : [];
  for (const part of output.content) {
    if (part.type === 'image') parts.push({ type: 'image-data', data: part.data, mediaType: part.mimeType });
    else if (part.type === 'audio') parts.push({ type: 'file-data', data: part.data, mediaType: part.mimeType });
    else if (part.type === 'resource' && 'blob' in part.resource) {
      const { uri, mimeType = 'application/octet-stream', blob } = part.resource;
      parts.push({ type: 'file-data', data: blob, mediaType: mimeType, filename: uri.split('/').pop() || undefined });
    } else parts.push({ type: 'text', text: contentAsText(part) });
  }
  return parts;
}

/** What `toAiSdkTools` returns: the AI SDK's tool set (`tools` of `generateText`/`streamText`), by function name. */
export type AiSdkTools = Record<string, Tool<Record<string, unknown>, unknown>>;

/**
 * A failed tool call as the AI SDK reports it (a `tool-error` part): its `message` is the text the
 * model reads, `record` the whole call record (with the invoker's Result).
 */
@ToolwrightError.mark
export class ToolCallFailedError extends Error {
  override readonly name = 'ToolCallFailedError';

  constructor(readonly record: ToolCallRecord) {
    super(record.output);
  }
}

/** The failed record of a call whose input changed after its approval was asked: it did not run. */
function changedRecord(name: string, id: string, input: unknown): ToolCallRecord {
  return { id, name, api: 'chat', status: 'failed', durationMs: 0, arguments: input, result: undefined, output: CHANGED_AFTER_APPROVAL };
}

const KNOWN_OPTIONS = ['only', 'strict', 'ambientContext', 'container', 'resolver', 'context'];

/**
 * The AI SDK tools of a toolbox (or of a list of tools, in a new toolbox), keyed by function name.
 * Each runs through the toolbox: a success returns the rendered JSON value (the text of the success
 * message for a tool that exposes nothing); a failure, including invalid arguments, throws a
 * `ToolCallFailedError` whose message the SDK hands the model as the tool's error text. The SDK's
 * abort signal reaches the tool. A call whose approval was asked here runs only with the input that
 * was shown for approval (see AskedApprovals); across processes, the SDK's
 * `experimental_toolApprovalSecret` binds the approval to the input.
 */
/** The approvals asked by each tool set toAiSdkTools made, for approvalQuestionOf. */
const askedOf = new WeakMap<AiSdkTools, AskedApprovals>();

/**
 * The question to show a person for an AI SDK approval request (a `tool-approval-request` part's
 * `toolCall`) of tools made by toAiSdkTools: the same text an MCP client is asked, every argument
 * shown, `sensitive` values redacted (the request's `input` itself carries them). Undefined when
 * these tools did not ask for that call's approval.
 */
export function approvalQuestionOf(tools: AiSdkTools, toolCall: { readonly toolCallId: string }): string | undefined {
  return askedOf.get(tools)?.question(toolCall.toolCallId);
}

/**
 * The tools of a Toolbox (or a list of tools, served through a new one) as the AI SDK's tool set, for
 * `generateText({ tools })` and `streamText({ tools })`: each runs through the Toolbox, so its names,
 * checks and settings are the `openai` adapter's.
 */
export function toAiSdkTools(source: Toolbox | Iterable<ToolLike>, options: AiSdkToolsOptions = {}): AiSdkTools {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new DeclarationError(`toAiSdkTools: options must be an object; got ${describeValue(options)}.`);
  }
  checkKnownKeys('toAiSdkTools', options, KNOWN_OPTIONS);
  // Checked now: a mistake here would otherwise reach the model as a tool error.
  checkCallOptions('toAiSdkTools', options as Readonly<Record<string, unknown>>);
  const { only, strict, ambientContext, container, resolver, context } = options;
  const toolbox = source instanceof Toolbox ? source : new Toolbox(source);
  const asked = new AskedApprovals();
  const tools: AiSdkTools = {};
  askedOf.set(tools, asked);
  const scope = {
    ...(ambientContext !== undefined ? { ambientContext } : {}),
    ...(container !== undefined ? { container } : {}),
    ...(resolver !== undefined ? { resolver } : {}),
  };
  for (const described of toolbox.functions({ only, strict })) {
    const { name, description, parameters } = described;
    tools[name] = tool<Record<string, unknown>, unknown>({
      ...(description ? { description } : {}),
      // No validate function: the invoker is the one validation, and its failures reach the model.
      inputSchema: jsonSchema<Record<string, unknown>>(parameters as JSONSchema7),
      ...(described.strict ? { strict: true } : {}),
      // Approvals declared on the tool become the SDK's own approval flow; the SDK runs execute only once approved.
      async needsApproval(input, { toolCallId }) {
        const question = await toolbox.approvalQuestionFor({ id: toolCallId, name, arguments: input }, scope);
        if (question) asked.remember(name, toolCallId, input, question.text);
        return question !== undefined;
      },
      async execute(input, { toolCallId, abortSignal }) {
        if (asked.changed(name, toolCallId, input)) throw new ToolCallFailedError(changedRecord(name, toolCallId, input));
        const record = await toolbox.invokeAs(
          'ai',
          { id: toolCallId, name, arguments: input },
          { ...scope, signal: abortSignal, approve: () => true, context: { ...context, transport: 'ai', requestId: toolCallId } },
        );
        if (record.status === 'failed') throw new ToolCallFailedError(record);
        if (record.content) return contentOutput(record.data, record.content);
        return record.data !== undefined ? record.data : record.output;
      },
      // As the SDK does without toModelOutput, except for content, which becomes its content output.
      toModelOutput: ({ output }) =>
        isContentOutput(output)
          ? { type: 'content', value: modelParts(output) }
          : typeof output === 'string'
            ? { type: 'text', value: output }
            : { type: 'json', value: output as never },
    });
  }
  return tools;
}
