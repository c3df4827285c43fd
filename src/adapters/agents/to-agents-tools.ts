/**
 * Toolbox functions as OpenAI Agents SDK function tools: `tool({ name, description, parameters:
 * <JSON Schema>, strict, needsApproval, execute })`, executed through the toolbox (and so through the
 * invoker). Approvals become the SDK's human-in-the-loop interruptions.
 */
import {
  tool,
  type FunctionTool,
  type RunToolApprovalItem,
  type ToolOutputFileContent,
  type ToolOutputImage,
  type ToolOutputText,
} from '@openai/agents';
import { contentAsText, DeclarationError, type ContentPart } from '../../index';
import { checkOptionsObject, describeValue } from '../../adapter-kit';
import { AskedApprovals, CHANGED_AFTER_APPROVAL } from '../../adapter-kit/internal';
import { Toolbox } from '../toolbox/index';
import type { FunctionsOptions } from '../toolbox/index';

/** The options of `toAgentsTools(toolbox, { ... })`: which functions, and strict schemas. */
export interface AgentsToolsOptions {
  /** Only these function names (default: every function in the toolbox). */
  only?: FunctionsOptions['only'];
  /** OpenAI strict mode: the toolbox's strict projection, calls read the strict way (default: the toolbox's `strict`). */
  strict?: boolean;
}

/** What `toAgentsTools` returns: the Agents SDK's function tools (`new Agent({ tools })`). */
export type AgentsTools = FunctionTool<unknown, any, unknown>[];

/** A tool output the Agents SDK sends the model as content: text, images and files. */
export type AgentsToolOutput = string | Array<ToolOutputText | ToolOutputImage | ToolOutputFileContent>;

/** The approvals asked by each tool list toAgentsTools made, for approvalQuestionOf. */
const askedOf = new WeakMap<object, AskedApprovals>();

/**
 * The question to show a person for an Agents SDK interruption (a `RunToolApprovalItem` of
 * `result.interruptions`) of tools made by toAgentsTools: the same text an MCP client is asked, every
 * argument shown, `sensitive` values redacted (the item's arguments themselves carry them).
 * Undefined when these tools did not ask for that call's approval.
 */
export function approvalQuestionOf(tools: AgentsTools, item: Pick<RunToolApprovalItem, 'rawItem'>): string | undefined {
  const raw = item.rawItem as { callId?: unknown };
  return typeof raw.callId === 'string' ? askedOf.get(tools)?.question(raw.callId) : undefined;
}

/** Images and files as the SDK's image and file outputs, everything else as text. */
function contentOutput(data: unknown, content: readonly ContentPart[]): AgentsToolOutput {
  const parts: Exclude<AgentsToolOutput, string> = data !== undefined ? [{ type: 'text', text: JSON.stringify(data) }] : [];
  for (const part of content) {
    if (part.type === 'image') parts.push({ type: 'image', image: { data: part.data, mediaType: part.mimeType } });
    else if (part.type === 'resource' && 'blob' in part.resource) {
      const { uri, mimeType = 'application/octet-stream', blob } = part.resource;
      parts.push({ type: 'file', file: { data: blob, mediaType: mimeType, filename: uri.split('/').pop() || 'file' } });
    } else parts.push({ type: 'text', text: contentAsText(part) });
  }
  return parts;
}

/**
 * The functions of a Toolbox as the OpenAI Agents SDK's function tools, for `new Agent({ tools })`.
 * Each runs through the toolbox (ambient values, container and resolver from the toolbox, never from
 * the model): the model reads the record's output, a failure included (never a thrown error), and
 * content parts as the SDK's text, image and file outputs. Strict mode is OpenAI strict: the
 * toolbox's strict projection, a `null` for an optional field read as absent. A tool that declares
 * an approval makes the run stop with an interruption (`result.interruptions`); show the person
 * `approvalQuestionOf(tools, item)`, then `result.state.approve(item)` or `reject(item)` and run
 * the state again. A call whose input changed after its approval was asked does not run.
 */
export function toAgentsTools(toolbox: Toolbox, options: AgentsToolsOptions = {}): AgentsTools {
  if (!(toolbox instanceof Toolbox)) {
    throw new DeclarationError(
      `toAgentsTools: expected a Toolbox (toolwright/toolbox or toolwright/openai); got ${describeValue(toolbox)}. Pass new Toolbox([YourTool]).`,
    );
  }
  const { only, strict } = checkOptionsObject('toAgentsTools', options, ['only', 'strict']) as AgentsToolsOptions;
  const asked = new AskedApprovals();
  const tools: AgentsTools = toolbox.functions({ only, strict }).map((described) => {
    const { name, parameters } = described;
    return tool({
      name,
      description: described.description ?? '',
      // A JSON Schema is passed to the model as it is and the SDK does not validate it: the invoker is the one validation.
      parameters: parameters as never,
      strict: described.strict as false,
      async needsApproval(_context: unknown, input: unknown, callId?: string) {
        const question = await toolbox.approvalQuestionFor({ id: callId, name, arguments: input });
        if (question && callId !== undefined) asked.remember(name, callId, input, question.text);
        return question !== undefined;
      },
      async execute(input: unknown, _context?: unknown, details?: { toolCall?: { callId: string }; signal?: AbortSignal }) {
        const id = details?.toolCall?.callId;
        if (id !== undefined && asked.changed(name, id, input)) return CHANGED_AFTER_APPROVAL;
        const record = await toolbox.invokeAs(
          'agents',
          { ...(id !== undefined ? { id } : {}), name, arguments: input },
          // The SDK runs execute only once a call that needs approval was approved.
          {
            signal: details?.signal,
            approve: () => true,
            context: { transport: 'agents', ...(id !== undefined ? { requestId: id } : {}) },
          },
        );
        return record.content ? contentOutput(record.data, record.content) : record.output;
      },
    }) as AgentsTools[number];
  });
  askedOf.set(tools, asked);
  return tools;
}
