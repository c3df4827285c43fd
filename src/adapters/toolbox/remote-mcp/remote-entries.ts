/**
 * A remote MCP server's tools as toolbox entries: qualified names, copied schemas, calls through
 * the toolbox's invoker (its pipeline) to the connection, results mapped to what the model reads.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { JsonSchema, Result } from '../../../index';
import { EntryOutcome, outcomeOf, ToolboxEntry, toolboxEntry } from '../entry';
import { FUNCTION_NAME_PATTERN } from '../function-schema';
import { remoteToolDefinition, remoteToolProblem } from '../../mcp-client/index';
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
  return remoteToolProblem(tool);
}

/** The remote schema, copied (never shared with the SDK's objects); a missing `required` means none. */
function parametersOf(tool: McpTool): JsonSchema {
  const copy = structuredClone(tool.inputSchema) as JsonSchema;
  copy.properties ??= {};
  return copy;
}

/** What the model reads for a remote call's Result: the value's text (a string as is, else JSON), or the failure. */
function remoteOutcome(result: Result): EntryOutcome {
  if (!result.ok) return outcomeOf(result);
  const data = result.value;
  return { status: 'completed', output: typeof data === 'string' ? data : JSON.stringify(data), data, result };
}

/**
 * @internal An entry that calls `tool` on the server behind `connection`, by its wire name. The
 * call runs through the toolbox's invoker like a local tool's: middleware, approvals (the tool's
 * annotations are its hints), rate limits, audit, the time limit and tracing.
 */
export function remoteEntry(alias: string, tool: McpTool, name: string, connection: McpServerConnection): ToolboxEntry {
  const description = tool.description ?? tool.annotations?.title ?? tool.title;
  const parameters = parametersOf(tool);
  const definition = remoteToolDefinition(connection, tool, { name });
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
    async approvalQuestion(args, { invoker, ambientContext, container }) {
      const asked = await invoker.approvalQuestion(definition, args, { ambientContext, container }, name);
      return asked instanceof Result ? remoteOutcome(asked) : asked;
    },
  });
}
