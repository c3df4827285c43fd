/**
 * One contender, 1,000 tools, in a fresh process started with --expose-gc. Prints
 * {"defineMs", "createMs", "firstCallsMs", "definedBytes", "registeredBytes", "servedBytes"}.
 *
 * Counted, on both sides, from a baseline taken after the modules are loaded and one warm-up tool
 * has been registered, listed and called (so module-level state created on first use is not charged
 * to the tools):
 * - define: toolwright generates and decorates the DTO classes (class-validator metadata,
 *   reflect-metadata, toolwright's facts) and the tool class; the SDK side builds the zod input and
 *   output schemas.
 * - create: toolwright `createMcpServer({ tools })` (tool definitions, derived schemas, the
 *   prebuilt tools/list answer); the SDK side `new McpServer` and 1,000 `registerTool` calls.
 * - served: after a Client has listed the tools once (the bare request: the Client keeps no
 *   validators) and called each tool once with the valid payload (toolwright compiles a tool's
 *   validators on its first call; zod compiles its parsers on first use).
 * Every object created stays reachable until the last measurement. Contender `dto` is a reference:
 * the tool's DTO classes alone (class-validator and class-transformer decorators, one `@Field`), with
 * no tool class and no server, to show what the application's own classes cost before toolwright.
 */
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolLike } from 'toolwright';
import { decoratedClasses } from '../schema/contracts';
import { connect, range, sdkServer, toolName, toolwrightServer, toolwrightTool, VALID_ARGS, zodContract, ZodContract } from './tools';

const contender = process.argv[2];
const COUNT = Number(process.argv[3] ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function heap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

function timed<T>(run: () => T): [T, number] {
  const start = process.hrtime.bigint();
  const value = run();
  return [value, Number(process.hrtime.bigint() - start) / 1e6];
}

type Server = Parameters<typeof connect>[0];

function build(indices: number[]): { define: () => unknown[]; create?: (defined: unknown[]) => Server } {
  switch (contender) {
    case 'toolwright':
      return {
        define: () => indices.map((index) => toolwrightTool(index)),
        create: (tools) => toolwrightServer(indices, tools as ToolLike[]),
      };
    case 'sdk':
      return { define: () => indices.map(() => zodContract()), create: (contracts) => sdkServer(indices, contracts as ZodContract[]) };
    case 'dto': // reference: the DTO classes alone, as an application has them before any tool or server exists
      return { define: () => indices.map((index) => decoratedClasses(index, true)) };
    default:
      throw new Error(`unknown contender ${contender}`);
  }
}

async function serveEvery(server: Server, indices: number[]) {
  const client = await connect(server);
  const { tools } = await client.request({ method: 'tools/list' }, ListToolsResultSchema);
  if (tools.length !== indices.length) throw new Error(`${contender}: listed ${tools.length} tools`);
  for (const index of indices) {
    const result = await client.callTool({ name: toolName(index), arguments: VALID_ARGS });
    if (result.isError) throw new Error(`${contender}: ${JSON.stringify(result)}`);
  }
  return client;
}

async function main(): Promise<void> {
  const warmup = build([COUNT + 1_000_000]);
  const warmupDefined = warmup.define();
  const warmupClient = warmup.create && (await serveEvery(warmup.create(warmupDefined), [COUNT + 1_000_000]));

  const indices = range(1, COUNT);
  const { define, create } = build(indices);
  const baseline = heap();
  const [defined, defineMs] = timed(define);
  const definedHeap = heap();
  if (!create) {
    if (!warmupDefined || !defined) throw new Error('unreachable');
    return void process.stdout.write(JSON.stringify({ defineMs, definedBytes: definedHeap - baseline }));
  }
  const [server, createMs] = timed(() => create(defined));
  const registeredHeap = heap();
  const start = process.hrtime.bigint();
  const client = await serveEvery(server, indices);
  const firstCallsMs = Number(process.hrtime.bigint() - start) / 1e6;
  const servedHeap = heap();
  // Keep everything reachable up to here.
  if (!warmupClient || !defined || !server || !client) throw new Error('unreachable');
  process.stdout.write(
    JSON.stringify({
      defineMs,
      createMs,
      firstCallsMs,
      definedBytes: definedHeap - baseline,
      registeredBytes: registeredHeap - baseline,
      servedBytes: servedHeap - baseline,
    }),
  );
}

void main();
