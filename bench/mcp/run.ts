/**
 * bench/mcp: toolwright's MCP server (`createMcpServer`, the SDK's low-level `Server`) side by side
 * with the SDK 2.x's own path (`McpServer.registerTool` with the equivalent zod 4 schemas, built once),
 * both talking to the SDK 2.x `Client` over its `InMemoryTransport`, in one run: tools/call throughput and latency,
 * tools/list with 1,000 tools, server set-up time, and heap per registered tool.
 */
import * as path from 'node:path';
import { fmt, machine, markdownTable, median, writeReport } from '../lib/stats';
import type { CallRequest } from './call-worker';
import type { ListRequest } from './list-worker';
import { runOnce, Session } from './spawn';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 7);
const THROUGHPUT_MS = 300;
const LATENCY_CALLS = 1000;
const TOOLS = 1000;
const CONTENDERS: Array<[string, string]> = [
  ['toolwright', 'toolwright `createMcpServer`'],
  ['sdk', 'SDK `McpServer.registerTool` + zod 4'],
];
const KEYS = CONTENDERS.map(([key]) => key);

/** Contenders in alternating order, so that drift over the run spreads over both. */
const order = (round: number) => (round % 2 === 0 ? KEYS : [...KEYS].reverse());
const push = (map: Map<string, number[]>, id: string, value: number) => map.set(id, [...(map.get(id) ?? []), value]);
const at = (map: Map<string, number[]>, id: string) => median(map.get(id)!);
const x = (ratio: number) => `${fmt(ratio)}×`;
const percent = (ratio: number) => `${Math.abs(Math.round((ratio - 1) * 100))}%`;
const kib = (bytes: number) => `${fmt(bytes / 1024)} KiB`;
const verdict = (met: boolean) => (met ? '**met**' : '**not met**');

async function sessions(script: string): Promise<Map<string, Session>> {
  const map = new Map(KEYS.map((key) => [key, new Session(path.join(__dirname, script), [key])]));
  await Promise.all([...map.values()].map((session) => session.started()));
  return map;
}

async function main(): Promise<void> {
  const results = new Map<string, number[]>();

  // tools/call: each contender in its own process, sampled in turn.
  const callers = await sessions('call-worker.ts');
  for (let round = 0; round < SAMPLES; round++) {
    for (const key of order(round)) {
      const caller = callers.get(key)!;
      push(results, `${key}:call`, await caller.ask<number>({ kind: 'throughput', minMs: THROUGHPUT_MS } satisfies CallRequest));
      const latency = await caller.ask<{ median: number; p99: number }>({ kind: 'latency', calls: LATENCY_CALLS } satisfies CallRequest);
      push(results, `${key}:latency`, latency.median);
      push(results, `${key}:p99`, latency.p99);
    }
  }
  callers.forEach((session) => session.close());

  // tools/list with 1,000 tools: each contender in its own process, after one warm-up list.
  const listers = await sessions('list-worker.ts');
  for (let round = 0; round < SAMPLES; round++) {
    for (const key of order(round)) {
      for (const kind of ['request', 'listTools'] as const) {
        push(results, `${key}:${kind}`, await listers.get(key)!.ask<number>({ kind } satisfies ListRequest));
      }
    }
  }
  listers.forEach((session) => session.close());

  // Set-up time and heap: a fresh process per sample, started with --expose-gc.
  for (let round = 0; round < SAMPLES; round++) {
    for (const key of [...order(round), 'dto']) {
      const sample = runOnce<Record<string, number>>(path.join(__dirname, 'heap-worker.ts'), [key, String(TOOLS)], ['--expose-gc']);
      for (const [name, value] of Object.entries(sample)) push(results, `${key}:${name}`, value);
      push(results, `${key}:setupMs`, sample.defineMs + (sample.createMs ?? 0));
    }
  }

  const tw = (name: string) => at(results, `toolwright:${name}`);
  const sdk = (name: string) => at(results, `sdk:${name}`);
  const callSpeed = sdk('call') / tw('call'); // per-call times: the inverse of the ops/s ratio
  const latencySpeed = sdk('latency') / tw('latency');
  const listRequestRatio = sdk('request') / tw('request');
  const listToolsRatio = sdk('listTools') / tw('listTools');
  const heapRatio = sdk('registeredBytes') / tw('registeredBytes');
  const clientCompile = (key: string) => at(results, `${key}:listTools`) - at(results, `${key}:request`);

  const callTable = markdownTable(
    ['server', 'ops/s', 'toolwright speed ×', 'median latency', 'toolwright speed ×', 'p99 latency'],
    CONTENDERS.map(([key, label]) => [
      label,
      `${fmt(1e3 / at(results, `${key}:call`))}k`,
      key === 'toolwright' ? '1.00×' : x(callSpeed),
      `${fmt(at(results, `${key}:latency`))} µs`,
      key === 'toolwright' ? '1.00×' : x(latencySpeed),
      `${fmt(at(results, `${key}:p99`))} µs`,
    ]),
  );
  const listTable = markdownTable(
    ['server', '`tools/list` request', 'vs toolwright', '`client.listTools()`', 'vs toolwright'],
    CONTENDERS.map(([key, label]) => [
      label,
      `${fmt(at(results, `${key}:request`))} ms`,
      key === 'toolwright' ? '1.00×' : x(listRequestRatio),
      `${fmt(at(results, `${key}:listTools`))} ms`,
      key === 'toolwright' ? '1.00×' : x(listToolsRatio),
    ]),
  );
  const setupTable = markdownTable(
    [
      'server',
      'define 1,000 tools',
      'create the server',
      'total',
      'vs toolwright',
      'connect, list once, call each tool once',
      'vs toolwright',
    ],
    CONTENDERS.map(([key, label]) => [
      label,
      `${fmt(at(results, `${key}:defineMs`))} ms`,
      `${fmt(at(results, `${key}:createMs`))} ms`,
      `${fmt(at(results, `${key}:setupMs`))} ms`,
      key === 'toolwright' ? '1.00×' : x(sdk('setupMs') / tw('setupMs')),
      `${fmt(at(results, `${key}:firstCallsMs`))} ms`,
      key === 'toolwright' ? '1.00×' : x(sdk('firstCallsMs') / tw('firstCallsMs')),
    ]),
  );
  const heapTable = markdownTable(
    ['server', 'defined', 'registered (defined + server)', 'vs toolwright', 'after serving each tool once', 'vs toolwright'],
    [
      ...CONTENDERS.map(([key, label]) => [
        label,
        kib(at(results, `${key}:definedBytes`) / TOOLS),
        kib(at(results, `${key}:registeredBytes`) / TOOLS),
        key === 'toolwright' ? '1.00×' : x(heapRatio),
        kib(at(results, `${key}:servedBytes`) / TOOLS),
        key === 'toolwright' ? '1.00×' : x(sdk('servedBytes') / tw('servedBytes')),
      ]),
      ['reference: the DTO classes alone (no tool, no server)', kib(at(results, 'dto:definedBytes') / TOOLS), '', '', '', ''],
    ],
  );
  const ownBytes = tw('registeredBytes') - at(results, 'dto:definedBytes');

  const callsMet = callSpeed >= 1 && latencySpeed >= 1;
  const report = [
    '## MCP server (`bench/mcp`)',
    '',
    `${machine()}; median of ${SAMPLES} samples per cell, contenders interleaved, each contender in its own process.`,
    '',
    "toolwright's `createMcpServer` (the SDK 2.x's low-level `Server`) against the SDK 2.x's own path, `McpServer.registerTool`",
    'with the equivalent zod 4 input and output schemas (closed objects, the integers coerced, the boolean defaulted),',
    'both answering the SDK 2.x `Client` over its `InMemoryTransport` (which hands messages over by reference: no JSON encoding',
    "on either side). The tool is bench/schema's eight-field contract; on both sides a call validates and coerces the",
    'arguments (`quantity` sent as `"42"`, `notify` omitted), runs, and returns `{ id, createdAt }` as `structuredContent`',
    'plus a text block of its JSON. Each server checks the output before sending it (toolwright against `@Exposes`, the',
    'SDK with zod), and the Client checks it again against the output schema it cached from `listTools()`. The',
    'run first checks that both sides hand the tool the same input, return the same result, and refuse a bad payload.',
    "Each contender runs in its own process, so that neither is charged for the other's process-wide state: JIT feedback",
    "in the SDK's protocol code both servers share, the other's heap, and toolwright's `AsyncLocalStorage`, which turns",
    'on promise hooks for every promise in its process.',
    '"toolwright speed ×" and "vs toolwright" are the SDK\'s cost divided by toolwright\'s: above 1× means toolwright is',
    'faster or smaller.',
    '',
    'Goals:',
    '',
    `- tools/call at least as fast as the SDK's own path: ${verdict(callsMet)}; toolwright's throughput is ${x(callSpeed)} the SDK's` +
      ` (${percent(callSpeed)} ${callSpeed >= 1 ? 'faster' : 'slower'}) and its median latency ${x(latencySpeed)}` +
      ` (${percent(latencySpeed)} ${latencySpeed >= 1 ? 'faster' : 'slower'}).`,
    `- tools/list for 1,000 tools in at most a tenth of the SDK's time: ${verdict(listRequestRatio >= 10)} for the \`tools/list\` request` +
      ` (the SDK takes ${x(listRequestRatio)} as long; it converts 2,000 zod schemas to JSON Schema on every list, toolwright answers` +
      ` from the list it built with the server); ${verdict(listToolsRatio >= 10)} for \`client.listTools()\` end to end (${x(listToolsRatio)}),` +
      ` which also compiles an ajv validator in the Client for each of the 1,000 output schemas on every call:` +
      ` ${fmt(clientCompile('toolwright'))} ms of toolwright's ${fmt(tw('listTools'))} ms and ${fmt(clientCompile('sdk'))} ms of the SDK's` +
      ` ${fmt(sdk('listTools'))} ms, client-side work no server can remove.`,
    `- At most a quarter of the SDK's heap per registered tool: ${verdict(heapRatio >= 4)}; toolwright holds` +
      ` ${kib(tw('registeredBytes') / TOOLS)} per tool against the SDK's ${kib(sdk('registeredBytes') / TOOLS)}` +
      ` (${x(tw('registeredBytes') / sdk('registeredBytes'))} of it, where the goal is 0.25×). Of toolwright's share,` +
      ` ${kib(at(results, 'dto:definedBytes') / TOOLS)} is the DTO classes' own decorator metadata (class-validator,` +
      ` class-transformer, reflect-metadata: the reference row), alone ${x(at(results, 'dto:definedBytes') / sdk('registeredBytes'))} of the SDK's figure;` +
      ` the tool class, the definitions, the derived field models and schemas and the prebuilt list add` +
      ` ${kib(ownBytes / TOOLS)} (${x(ownBytes / sdk('registeredBytes'))} of the SDK's).`,
    '',
    `**tools/call**: one tool; throughput from back-to-back sequential calls for ≥${THROUGHPUT_MS} ms, latency from`,
    `${LATENCY_CALLS} calls timed one by one (p99 is the median over samples of each sample's p99).`,
    '',
    callTable,
    '',
    `**tools/list with ${TOOLS.toLocaleString('en')} tools**, after one warm-up list. The \`tools/list\` request is`,
    "`client.request({ method: 'tools/list' }, ListToolsResultSchema)`, which the Client answers without caching",
    'validators; `client.listTools()` also compiles and caches one ajv validator per output schema.',
    '',
    listTable,
    '',
    `**Setting up ${TOOLS.toLocaleString('en')} tools**, in a fresh process per sample, as at server start-up. Define:`,
    'toolwright generates and decorates the DTO and tool classes (class-validator, class-transformer, toolwright',
    'decorators); the SDK side builds the zod input and output schemas. Create: `createMcpServer({ tools })`, which',
    'derives every tool entry and its schemas and prebuilds the tools/list answer; `new McpServer` and 1,000',
    '`registerTool` calls, which keep the zod schemas and convert them on each list. The last column connects a Client,',
    "lists once and calls every tool once: toolwright compiles a tool's validators on its first call, zod its parsers.",
    "The total is the median of each sample's sum, so it need not equal the sum of the two medians.",
    '',
    setupTable,
    '',
    `**Heap per tool** (\`heapUsed\` after \`gc()\`, divided by ${TOOLS.toLocaleString('en')}), in the same processes, from a`,
    'baseline taken after the modules are loaded and one warm-up tool has been registered, listed and called on the',
    'same side. Registered counts everything defining and registering the tools created (toolwright: the classes and',
    'their metadata, the tool definitions, derived schemas and the prebuilt list; SDK: the zod schemas and the',
    'registered-tool records); after serving adds what the first list and call of each tool left behind. The reference',
    'row holds only the DTO classes, with their class-validator and class-transformer decorators (and one `@Field`).',
    '',
    heapTable,
    '',
  ].join('\n');
  writeReport('mcp', report);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
