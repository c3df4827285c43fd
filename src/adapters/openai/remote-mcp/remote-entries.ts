/**
 * A remote MCP server's tools as toolbox entries: qualified names, copied schemas, calls through
 * the connection, results mapped to what the model reads.
 */
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { JsonSchema } from '../../../index';
import { isPlainObject } from '../../../adapter-kit/internal';
import { EntryOutcome, INVALID_ARGUMENTS, ToolboxEntry, toolboxEntry } from '../entry';
import { FUNCTION_NAME_PATTERN } from '../function-schema';
import type { McpServerConnection } from '../../mcp-client/index';

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

/** What the model reads for a remote result. */
function outcomeOf(result: CallToolResult): EntryOutcome {
  if (result.isError) {
    const message = texts(result).join('\n');
    return { status: 'failed', output: message || 'The remote tool failed without saying why.' };
  }
  if (result.structuredContent !== undefined) {
    return { status: 'completed', output: JSON.stringify(result.structuredContent), data: result.structuredContent };
  }
  const content = result.content;
  if (content.length === 1 && content[0].type === 'text') return { status: 'completed', output: content[0].text, data: content[0].text };
  return { status: 'completed', output: JSON.stringify(content), data: content };
}

/** @internal An entry that calls `tool` on the server behind `connection`, by its wire name. */
export function remoteEntry(alias: string, tool: McpTool, name: string, connection: McpServerConnection): ToolboxEntry {
  const description = tool.description ?? tool.annotations?.title ?? tool.title;
  const parameters = parametersOf(tool);
  const retryable = tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
  return toolboxEntry({
    name,
    origin: 'remote',
    tool: undefined,
    owner: `the tool '${tool.name}' of MCP server '${alias}'`,
    // A foreign schema has no strict projection: remote functions are always offered non-strict.
    toFunction: () => ({ name, ...(description ? { description } : {}), parameters: structuredClone(parameters), strict: false }),
    async call(args, { signal }) {
      if (!isPlainObject(args)) return { status: 'failed', output: `${INVALID_ARGUMENTS}arguments must be an object` };
      try {
        return outcomeOf(await connection.callTool(tool.name, args, { signal, retryable }));
      } catch (error) {
        const code = (error as { code?: number }).code;
        if (code === -32602) return { status: 'failed', output: `${INVALID_ARGUMENTS}${(error as Error).message}` };
        return {
          status: 'failed',
          output: `The tool '${tool.name}' on MCP server '${alias}' could not be reached: ${(error as Error).message}`,
        };
      }
    },
  });
}
