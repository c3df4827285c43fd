/**
 * The bench/mcp tool, generated N times, on each side: the eight-field contract of
 * bench/schema/contracts.ts as a toolwright class tool served by `createMcpServer`, and as an SDK
 * SDK 2.x `McpServer.registerTool` with the equivalent zod 4 input and output schemas (built once,
 * at registration). Both validate the
 * input (coercing the integers sent as strings, applying the boolean's default), run, and return a
 * structured output `{ id, createdAt }` with a text block of its JSON.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { Expects, Exposes, Tool, ToolLike } from 'toolwright';
import { createMcpServer } from 'toolwright/mcp';
import { decoratedClasses, INVALID_ARGS, VALID_ARGS, zodWireContract } from '../schema/contracts';

export { INVALID_ARGS, VALID_ARGS };

const createdAt = new Date('2026-01-01T00:00:00Z');
export const EXPECTED_OUTPUT = { id: 'o-1', createdAt: createdAt.toISOString() };

/** The input the last call's tool received, on either side, for the one-time equivalence check. */
export const lastInput: { value?: Record<string, unknown> } = {};

export const toolName = (index: number) => `create_order${index}`;

/**
 * A toolwright class tool over `decoratedClasses(index, true)`: the DTO classes with their
 * class-validator decorators, `@Expects(Input)`, `@Exposes(Output)` (`id: string`, `createdAt: Date`).
 * Its derived mcp name is `create_order<index>`.
 */
export function toolwrightTool(index: number) {
  const { Input, Output } = decoratedClasses(index, true);
  const ToolClass = {
    [`CreateOrder${index}`]: class {
      call(input: Record<string, unknown>) {
        lastInput.value = input;
        return { id: 'o-1', createdAt };
      }
    },
  }[`CreateOrder${index}`];
  Exposes(Output)(ToolClass);
  Expects(Input)(ToolClass);
  Tool('mcp', { description: `Create order ${index}` })(ToolClass);
  return ToolClass;
}

/** The same contract in zod 4, as a wire payload needs it (shared with bench/invoke). */
export const zodContract = zodWireContract;

export type ZodContract = ReturnType<typeof zodContract>;

/** Registers tool `index` on an SDK McpServer, with its zod schemas (built here unless given). */
export function registerSdkTool(server: McpServer, index: number, { input, output } = zodContract()): void {
  server.registerTool(toolName(index), { description: `Create order ${index}`, inputSchema: input, outputSchema: output }, (args) => {
    lastInput.value = args;
    const structuredContent = { id: 'o-1', createdAt: createdAt.toISOString() };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  });
}

/** toolwright: generate and decorate the tool classes, then create the server (entries derived once). */
export function toolwrightServer(indices: number[], tools: ToolLike[] = indices.map((index) => toolwrightTool(index))) {
  return createMcpServer({ name: 'bench-toolwright', version: '1.0.0', tools });
}

/** SDK: build the zod schemas and register each tool on a McpServer. */
export function sdkServer(indices: number[], contracts?: ZodContract[]): McpServer {
  const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
  indices.forEach((index, i) => registerSdkTool(server, index, contracts?.[i]));
  return server;
}

/** Connects an SDK Client to a server over InMemoryTransport. */
export async function connect(server: { connect(transport: InMemoryTransport): Promise<void> }): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

export const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
