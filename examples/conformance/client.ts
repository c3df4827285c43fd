/**
 * The client under test for the official conformance suite's client scenarios, built only on
 * `toolwright/mcp-client`'s public API. The suite starts it with the scenario server's URL as the
 * last argument, the scenario in MCP_CONFORMANCE_SCENARIO and the revision in
 * MCP_CONFORMANCE_PROTOCOL_VERSION. It does what a tool-calling host does: admits the server under
 * a loopback-only policy, connects in that revision, lists the tools and calls each one with
 * arguments made from its schema, answering a server that asks for the user (a form: accepted with
 * a value for each field that has no default; toolwright/mcp-client fills the others from their
 * defaults, SEP-1034) or the model. A call that fails is reported and the others go on, as a host
 * hands a failed call to its model; the exit code is 1 only when connecting or listing fails.
 * When the scenario names the calls to make (MCP_CONFORMANCE_CONTEXT `toolCalls`), it makes those;
 * `json-schema-2020-12-preservation` asks for one call, its echo tool with the schema as listed.
 */
import { admitMcpServer, connectMcpServer, McpProtocol, McpSecurityPolicy } from 'toolwright/mcp-client';
import type { ElicitSchema, JsonSchema } from 'toolwright';
import { authFor } from './client-auth';

const url = process.argv[process.argv.length - 1];
const revision = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const protocol: McpProtocol = revision === '2025-11-25' || revision === '2026-07-28' ? revision : 'auto';
const security = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['localhost', '127.0.0.1'] });

/** A value a field of this schema accepts: its default, its first choice, or one of its type. */
function sample(schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return 'value';
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'value';
  }
}

/** Arguments for every required property (the optional ones are left out). */
function argumentsFor(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, sample(properties[name])]));
}

/** The calls the scenario asks for, if it names them. */
function scenarioCalls(): Array<{ name: string; arguments: Record<string, unknown> }> | undefined {
  const context = process.env.MCP_CONFORMANCE_CONTEXT;
  if (context === undefined) return undefined;
  const { toolCalls } = JSON.parse(context) as { toolCalls?: Array<{ name: string; arguments?: Record<string, unknown> }> };
  return toolCalls?.map((call) => ({ name: call.name, arguments: call.arguments ?? {} }));
}

/**
 * json-schema-2020-12-preservation: the echo tool called with the focal tool's inputSchema exactly as
 * the connection listed it (the suite compares it with what it served).
 */
function preservationCalls(
  tools: Array<{ name: string; inputSchema: unknown }>,
): Array<{ name: string; arguments: Record<string, unknown> }> {
  const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
  return [{ name: 'json_schema_echo', arguments: { schema: focal?.inputSchema ?? {} } }];
}

const input = {
  elicit: (_message: string, form: ElicitSchema) => ({
    action: 'accept' as const,
    content: Object.fromEntries(
      Object.entries(form.properties)
        .filter(([, field]) => field.default === undefined)
        .map(([name, field]) => [name, sample(field as JsonSchema)]),
    ) as Record<string, string | number | boolean | string[]>,
  }),
  sample: () => ({ role: 'assistant' as const, model: 'conformance', content: { type: 'text' as const, text: 'A sample answer.' } }),
};

async function main(): Promise<void> {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string | undefined>;
  const auth = authFor(process.env.MCP_CONFORMANCE_SCENARIO, context);
  const connection = await connectMcpServer(admitMcpServer('conformance', { url, protocol, ...(auth ? { auth } : {}) }, { security }));
  try {
    const tools = await connection.listTools();
    const preservation = process.env.MCP_CONFORMANCE_SCENARIO === 'json-schema-2020-12-preservation';
    const calls =
      (preservation ? preservationCalls(tools) : scenarioCalls()) ??
      tools.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool.inputSchema as JsonSchema) }));
    const outcomes = await Promise.allSettled(
      calls.map((call) => connection.callTool(call.name, call.arguments, { input, tool: tools.find((tool) => tool.name === call.name) })),
    );
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === 'fulfilled') console.log(`${calls[i].name}: ${JSON.stringify(outcome.value.content)}`);
      else console.log(`${calls[i].name} failed: ${(outcome.reason as Error).message}`);
    }
  } finally {
    await connection.close();
  }
}

main().catch((error: Error) => {
  console.error(`conformance client (${process.env.MCP_CONFORMANCE_SCENARIO}): ${error.message}`);
  process.exit(1);
});
