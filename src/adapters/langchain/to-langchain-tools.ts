/**
 * Toolbox functions as LangChain.js tools (`DynamicStructuredTool`s whose schema is the function's
 * JSON Schema), executed through the toolbox (and so through the invoker). Each answers a
 * `ToolMessage` whose artifact is the toolbox's record: approvals are the application's to answer.
 */
import { ToolMessage, type ToolCall } from '@langchain/core/messages';
import { DynamicStructuredTool, ToolInputParsingException } from '@langchain/core/tools';
import type { DynamicStructuredToolInput, ToolRunnableConfig } from '@langchain/core/tools';
import { contentAsText, DeclarationError, type ContentPart } from '../../index';
import { checkOptionsObject, describeValue } from '../../adapter-kit';
import { Toolbox } from '../toolbox/index';
import type { FunctionsOptions, ToolCallRecord } from '../toolbox/index';

/** The options of `toLangChainTools(toolbox, { ... })`: which functions, and strict schemas. */
export interface LangChainToolsOptions {
  /** Only these function names (default: every function in the toolbox). */
  only?: FunctionsOptions['only'];
  /** The toolbox's strict projection (for OpenAI strict mode), calls read the strict way (default: the toolbox's `strict`). */
  strict?: boolean;
}

/** A content block of a ToolMessage (LangChain's standard blocks): text, or base64 image, audio or file data. */
export type LangChainContentBlock = { type: 'text'; text: string } | { type: 'image' | 'audio' | 'file'; data: string; mimeType: string };

/** The record's content for the model: its output text, or standard content blocks for content parts. */
function contentOf(record: ToolCallRecord): string | LangChainContentBlock[] {
  if (!record.content) return record.output;
  const blocks: LangChainContentBlock[] = record.data !== undefined ? [{ type: 'text', text: JSON.stringify(record.data) }] : [];
  for (const part of record.content as readonly ContentPart[]) {
    if (part.type === 'image' || part.type === 'audio') blocks.push({ type: part.type, data: part.data, mimeType: part.mimeType });
    else if (part.type === 'resource' && 'blob' in part.resource) {
      blocks.push({ type: 'file', data: part.resource.blob, mimeType: part.resource.mimeType ?? 'application/octet-stream' });
    } else blocks.push({ type: 'text', text: contentAsText(part) });
  }
  return blocks;
}

/**
 * The `ToolMessage` that answers a call with a toolbox record: `tool_call_id` the record's id, the
 * output for the model (content blocks for images, audio and files), `status: 'error'` for a failed
 * call, and the record as its `artifact`. The message each tool of toLangChainTools answers, and the
 * one to send after `toolbox.approve(record)` or `toolbox.deny(record)` answered an approval.
 */
export function toolMessageOf(record: ToolCallRecord): ToolMessage {
  return new ToolMessage({
    tool_call_id: record.id,
    name: record.name,
    content: contentOf(record),
    artifact: record,
    status: record.status === 'failed' ? 'error' : 'success',
  });
}

/**
 * The toolbox record a ToolMessage of these tools carries (its `artifact`); undefined for another
 * message. Its `status` says whether the call waits for approval (`approval_required`, with the
 * `question` to show a person).
 */
export function recordOf(message: object): ToolCallRecord | undefined {
  const artifact = (message as { readonly artifact?: unknown }).artifact as Partial<ToolCallRecord> | undefined;
  return typeof artifact === 'object' && artifact !== null && typeof artifact.status === 'string' && typeof artifact.output === 'string'
    ? (artifact as ToolCallRecord)
    : undefined;
}

type Run = (
  input: unknown,
  config: ToolRunnableConfig | undefined,
) => Promise<[string | LangChainContentBlock[] | ToolMessage, ToolCallRecord]>;

/**
 * A LangChain tool whose input the toolbox validates: LangChain checks a JSON Schema itself before
 * the function runs and throws its own error; the invoker is the one validation, and its message
 * (what is wrong, as for every other way in) is the one the model reads, in an error ToolMessage.
 */
class ToolboxTool extends DynamicStructuredTool {
  constructor(
    fields: DynamicStructuredToolInput,
    private readonly run: Run,
  ) {
    super(fields);
  }

  override async call(arg: unknown, configArg?: unknown, tags?: string[]): Promise<any> {
    try {
      return await super.call(arg as never, configArg as never, tags);
    } catch (error) {
      if (!(error instanceof ToolInputParsingException)) throw error;
      const config = typeof configArg === 'object' && configArg !== null ? (configArg as ToolRunnableConfig) : undefined;
      // call(toolCall) as well as invoke(toolCall), which passes the arguments and the call in the config.
      const toolCall = (arg as { type?: unknown } | null)?.type === 'tool_call' ? (arg as ToolCall) : undefined;
      const [content] = await this.run(toolCall ? toolCall.args : arg, toolCall ? { ...config, toolCall } : config);
      return content;
    }
  }
}

/**
 * The functions of a Toolbox as LangChain.js tools, for `model.bindTools(tools)` and any LangChain
 * agent. Each tool's schema is the function's JSON Schema (the strict projection with `strict`),
 * which LangChain passes to the provider as it is. Invoked with a model's `ToolCall`, a tool runs it
 * through the toolbox (ambient values, container and resolver from the toolbox, never from the
 * model) and answers `toolMessageOf(record)`: the output the model reads, a failure as an error
 * message (never a thrown error), the record as the artifact. A call that needs approval does not
 * run: its message's record has `status: 'approval_required'` and the `question`; the application
 * asks a person, answers with `toolbox.approve(record)` or `toolbox.deny(record)`, and sends
 * `toolMessageOf(answered)` in its place.
 */
export function toLangChainTools(toolbox: Toolbox, options: LangChainToolsOptions = {}): DynamicStructuredTool[] {
  if (!(toolbox instanceof Toolbox)) {
    throw new DeclarationError(
      `toLangChainTools: expected a Toolbox (toolwright/toolbox or toolwright/openai); got ${describeValue(toolbox)}. Pass new Toolbox([YourTool]).`,
    );
  }
  const { only, strict } = checkOptionsObject('toLangChainTools', options, ['only', 'strict']) as LangChainToolsOptions;
  return toolbox.functions({ only, strict }).map(({ name, description, parameters }) => {
    const run: Run = async (input, config) => {
      const id = config?.toolCall?.id;
      const record = await toolbox.invokeAs(
        'langchain',
        { ...(id ? { id } : {}), name, arguments: input },
        { signal: config?.signal, context: { transport: 'langchain', ...(id ? { requestId: id } : {}) } },
      );
      // With a tool call, the message itself (it carries the status); invoked with plain arguments, the content.
      return [id ? toolMessageOf(record) : contentOf(record), record];
    };
    return new ToolboxTool(
      {
        name,
        description: description ?? '',
        schema: parameters as DynamicStructuredToolInput['schema'],
        responseFormat: 'content_and_artifact',
        func: (input: unknown, _runManager?: unknown, config?: ToolRunnableConfig) => run(input, config),
      },
      run,
    );
  });
}
