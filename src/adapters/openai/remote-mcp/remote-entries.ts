/**
 * A remote MCP server's tools as toolbox entries: qualified names, copied schemas, calls through
 * the toolbox's invoker (its pipeline) to the connection, results mapped to what the model reads.
 */
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/client';
import { fail, JsonSchema, Result } from '../../../index';
import { foreignTool, isPlainObject } from '../../../adapter-kit/internal';
import { EntryOutcome, INVALID_ARGUMENTS, outcomeOf, ToolboxEntry, toolboxEntry } from '../entry';
import { FUNCTION_NAME_PATTERN } from '../function-schema';
import type { McpServerConnection } from '../../mcp-client/index';

/** The 2026-07-28 error for an input request the call's declared capabilities do not cover. */
const MISSING_CLIENT_CAPABILITY = -32021;

/** The function name of a remote tool: always qualified by its server's alias. */
export function qualifiedName(alias: string, tool: string): string {
  return `mcp__${alias}__${tool}`;
}

/** Why one remote tool cannot be mounted, or undefined when it can. */
export function problemWith(name: string, tool: McpTool): string | undefined {
  if (!FUNCTION_NAME_PATTERN.test(name)) {
    return name.length > 64
      ? `its name ${name} is ${name.length} characters long; function names are at most 64 and are never truncated (use a shorter server alias)`
      : `its name ${name} has characters other than letters, digits, '_' and '-'`;
  }
  const schema = tool.inputSchema as unknown;
  if (!isPlainObject(schema) || schema.type !== 'object') return 'its input schema is not a JSON Schema of type object';
  if (schema.properties !== undefined && !isPlainObject(schema.properties)) return "its input schema's properties are not an object";
  if (schema.required !== undefined && (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== 'string'))) {
    return "its input schema's required is not a list of names";
  }
  return undefined;
}

/** The remote schema, copied (never shared with the SDK's objects); a missing `required` means none. */
function parametersOf(tool: McpTool): JsonSchema {
  const copy = structuredClone(tool.inputSchema) as JsonSchema;
  copy.properties ??= {};
  return copy;
}

function texts(result: CallToolResult): string[] {
  return result.content.filter((block): block is { type: 'text'; text: string } => block.type === 'text').map((block) => block.text);
}

/** The value of a remote result: its structured content, its one text block, or its content blocks; fail() for isError. */
function valueOf(result: CallToolResult): unknown {
  if (result.isError) fail(texts(result).join('\n') || 'The remote tool failed without saying why.', { standalone: true });
  if (result.structuredContent !== undefined) return result.structuredContent;
  const content = result.content;
  return content.length === 1 && content[0].type === 'text' ? content[0].text : content;
}

/** What the model reads for a remote call's Result: the value's text (a string as is, else JSON), or the failure. */
function remoteOutcome(result: Result): EntryOutcome {
  if (!result.ok) return outcomeOf(result);
  const data = result.value;
  return { status: 'completed', output: typeof data === 'string' ? data : JSON.stringify(data), data, result };
}

/**
 * The semantic hints of a remote tool's annotations, with the MCP defaults: a tool that does not
 * say it is read-only may be destructive unless it says it is not (`destructiveHint` defaults to
 * true), so under `requireApprovalForDestructive` an unannotated remote tool needs approval.
 */
export function hintsOf(annotations: McpTool['annotations']): string[] {
  const hints: string[] = [];
  if (annotations?.readOnlyHint === true) hints.push('readOnly');
  else if (annotations?.destructiveHint !== false) hints.push('destructive');
  if (annotations?.idempotentHint === true) hints.push('idempotent');
  if (annotations?.openWorldHint === true) hints.push('openWorld');
  if (annotations?.openWorldHint === false) hints.push('closedWorld');
  return hints;
}

/**
 * @internal An entry that calls `tool` on the server behind `connection`, by its wire name. The
 * call runs through the toolbox's invoker like a local tool's: middleware, approvals (the tool's
 * annotations are its hints), rate limits, audit, the time limit and tracing.
 */
export function remoteEntry(alias: string, tool: McpTool, name: string, connection: McpServerConnection): ToolboxEntry {
  const description = tool.description ?? tool.annotations?.title ?? tool.title;
  const parameters = parametersOf(tool);
  const retryable = tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
  const definition = foreignTool({
    name,
    id: `mcp:${alias}/${tool.name}`,
    description,
    hints: hintsOf(tool.annotations),
    async call(input, context) {
      const { signal } = context;
      // The server's requests for the user or the model go to this call's own context handlers.
      const ask = {
        ...(context.supports('elicit') ? { elicit: context.elicit.bind(context) } : {}),
        ...(context.supports('sample') ? { sample: context.sample.bind(context) } : {}),
      };
      let result: CallToolResult;
      try {
        // The definition as listed: the SDK mirrors the arguments it designates (x-mcp-header) into headers.
        result = await connection.callTool(tool.name, input, { signal, retryable, input: ask, tool });
      } catch (error) {
        if (signal.aborted) throw error; // the invoker reports the cancellation or the time limit
        const code = (error as { code?: unknown }).code;
        const message = (error as Error).message;
        if (code === -32602) fail(`${INVALID_ARGUMENTS}${message}`, { standalone: true });
        if (code === MISSING_CLIENT_CAPABILITY) {
          fail(
            `The tool '${tool.name}' on MCP server '${alias}' needs to ask the user or the model, and this call cannot answer: ${message}. ` +
              'Pass the handlers in the call options (toolbox.invoke(call, { context: { elicit, sample } })).',
            { standalone: true },
          );
        }
        // A number is the server's own JSON-RPC error; anything else (the SDK's string codes) is this side's.
        if (typeof code === 'number') fail(`The tool '${tool.name}' on MCP server '${alias}' failed: ${message}`, { standalone: true });
        fail(`The tool '${tool.name}' on MCP server '${alias}' could not be reached: ${message}`, { standalone: true });
      }
      return valueOf(result);
    },
  });
  return toolboxEntry({
    name,
    origin: 'remote',
    tool: undefined,
    owner: `the tool '${tool.name}' of MCP server '${alias}'`,
    // A foreign schema has no strict projection: remote functions are always offered non-strict.
    toFunction: () => ({ name, ...(description ? { description } : {}), parameters: structuredClone(parameters), strict: false }),
    async call(args, { invoker, ...call }) {
      return remoteOutcome(await invoker.invoke(definition, args, call));
    },
    needsApproval(args, { invoker, ambientContext, container }) {
      return invoker.approvalNeeded(definition, args, { ambientContext, container });
    },
  });
}
