import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { IsInt, IsUUID, Max, Min } from 'class-validator';
import { inject, injectable } from 'tsyringe';
import {
  AmbientContext,
  configure,
  Description,
  Exposes,
  Expects,
  Field,
  SemanticHints,
  Tool,
  ToolVersion,
  fail,
} from 'toolwright';
import { McpAdapter, McpConfig, McpRequestContext, mcpRequest } from 'toolwright/mcp';
import { connectInMemory } from '../../helpers/mcp';

class TransferInput {
  @Field({ description: 'Account to debit' }) @IsUUID() from!: string;
  @Field({ description: 'Amount in cents' }) @IsInt() @Min(1) @Max(100_000) amount!: number;
  @AmbientContext() tellerId!: string;
}

class TransferReceipt {
  @Field() reference!: string;
  @Field() teller!: string;
  @Field() bookedAt!: Date;
}

@Tool('mcp', { description: 'Move money out of an account', error: 'Could not transfer', title: 'Transfer money' })
@ToolVersion(2)
@SemanticHints('destructive')
@Expects(TransferInput)
@Exposes(TransferReceipt)
class TransferV2 {
  call(input: TransferInput): TransferReceipt {
    if (input.amount === 666) fail('the account is frozen');
    if (input.amount === 500) throw new Error('ledger offline: postgres://secret');
    return { reference: `T-${input.amount}`, teller: input.tellerId, bookedAt: new Date('2026-01-02T03:04:05Z') };
  }
}

@Tool('mcp', { adapters: { mcp: { presentAs: 'message', title: 'Say hello' } }, success: 'Hello from the desk' })
@SemanticHints('readOnly', 'idempotent', 'closedWorld')
@Exposes({ greeting: String })
class Greet {
  call() {
    return { greeting: 'hi' };
  }
}

@Tool('mcp')
@Description('Plain text, no declared output')
class Motd {
  call() {
    return 'Markets open at nine.';
  }
}

const reported: unknown[] = [];
const tools = [TransferV2, Greet, Motd];
const server = { name: 'bank', version: '1.0.0', tools, ambientContext: () => ({ tellerId: 'teller-9' }) };
const account = '0b7e4d21-8c3a-4f19-b6d2-7e5a9c1f3d42';

let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  configure({ onException: (error) => reported.push(error) });
  ({ client, close } = await connectInMemory(server));
});
afterAll(async () => {
  await close();
  configure({ onException: undefined });
});
beforeEach(() => (reported.length = 0));

describe('tools/list', () => {
  it('lists every tool with its schemas, title, annotations and version, pinned', async () => {
    expect(await client.listTools()).toMatchSnapshot();
  });
});

describe('tools/call', () => {
  it('success: structuredContent with the rendered values and their JSON as text', async () => {
    const result = await client.callTool({ name: 'transfer', arguments: { from: account, amount: '250' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"reference":"T-250","teller":"teller-9","bookedAt":"2026-01-02T03:04:05.000Z"}' }],
      structuredContent: { reference: 'T-250', teller: 'teller-9', bookedAt: '2026-01-02T03:04:05.000Z' },
    });
  });

  it("presentAs: 'message' puts the tool's message in the text block, still with structured content", async () => {
    expect(await client.callTool({ name: 'greet', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'Hello from the desk' }],
      structuredContent: { greeting: 'hi' },
    });
  });

  it('a tool without @Exposes answers with text only', async () => {
    expect(await client.callTool({ name: 'motd', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'Markets open at nine.' }] });
  });

  it('failure: isError with the user-facing error, nothing reported', async () => {
    expect(await client.callTool({ name: 'transfer', arguments: { from: account, amount: 666 } })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Could not transfer: the account is frozen' }],
    });
    expect(reported).toEqual([]);
  });

  it('an exception: isError with the generic message only, reported once', async () => {
    const result = await client.callTool({ name: 'transfer', arguments: { from: account, amount: 500 } });
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'Could not transfer' }] });
    expect(JSON.stringify(result)).not.toContain('postgres');
    expect(reported).toHaveLength(1);
  });

  it('invalid arguments: isError naming each field, field errors in _meta', async () => {
    expect(await client.callTool({ name: 'transfer', arguments: { from: 'nope', amount: 0 } })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Could not transfer: from must be a UUID and amount must not be less than 1' }],
      _meta: {
        fieldErrors: [
          { field: 'from', message: 'from must be a UUID' },
          { field: 'amount', message: 'amount must not be less than 1' },
        ],
      },
    });
  });

  it('undeclared arguments are refused, and an ambient value from the model is refused', async () => {
    const result = await client.callTool({ name: 'transfer', arguments: { from: account, amount: 5, memo: 'x', tellerId: 'me' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'Could not transfer: unknown input: memo and unknown input: tellerId' }]);
  });

  it('an ambientContext the model smuggles in its arguments is dropped; the server’s wins', async () => {
    const result = await client.callTool({ name: 'transfer', arguments: { from: account, amount: 7, ambientContext: { tellerId: 'me' } } });
    expect(result.structuredContent).toMatchObject({ teller: 'teller-9' });
  });

  it('an unknown tool is a JSON-RPC invalid params error', async () => {
    const error = await client.callTool({ name: 'nope', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain('Unknown tool: nope');
  });

  it('concurrent calls each get their own result', async () => {
    const amounts = Array.from({ length: 20 }, (_, i) => i + 1);
    const results = await Promise.all(amounts.map((amount) => client.callTool({ name: 'transfer', arguments: { from: account, amount } })));
    expect(results.map((r) => (r.structuredContent as { reference: string }).reference)).toEqual(amounts.map((a) => `T-${a}`));
  });
});

describe('the client validates structured content against the advertised output schema', () => {
  it('passes for toolwright’s rendering, and fails when what is advertised disagrees', async () => {
    const entry = McpAdapter.wrap(TransferV2);
    (entry.tool.outputSchema as { required: string[] }).required.push('approvedBy');
    const tampered = await connectInMemory({ name: 'tampered', version: '1', tools: [entry], ambientContext: () => ({ tellerId: 't' }) });
    try {
      await tampered.client.listTools();
      const error = await tampered.client.callTool({ name: 'transfer', arguments: { from: account, amount: 3 } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).message).toMatch(/Structured content does not match the tool's output schema/);
    } finally {
      await tampered.close();
    }
  });
});

describe('per-request context', () => {
  it('each call gets a child container with the request registered, and mcpRequest() inside the call', async () => {
    @injectable()
    class Audit {
      constructor(readonly request: McpRequestContext) {}
    }
    const seen: Array<{ injected: unknown; current: unknown; same: boolean }> = [];
    @Tool('mcp')
    class WhoCalls {
      constructor(private readonly audit: Audit) {}
      call() {
        seen.push({ injected: this.audit.request.requestId, current: mcpRequest()?.requestId, same: this.audit.request === mcpRequest() });
        return 'ok';
      }
    }
    const { client: c, close: done } = await connectInMemory({ name: 'ctx', version: '1', tools: [WhoCalls] });
    try {
      await c.callTool({ name: 'who_calls', arguments: {} });
      await c.callTool({ name: 'who_calls', arguments: {} });
    } finally {
      await done();
    }
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s.same && s.injected === s.current)).toBe(true);
    expect(seen[0].injected).not.toEqual(seen[1].injected);
    expect(mcpRequest()).toBeUndefined();
  });

  it('@inject(McpRequestContext) names the token explicitly (it type-checks: the class is a concrete token), and the class is not built by hand', async () => {
    @injectable()
    class Headers {
      constructor(@inject(McpRequestContext) readonly request: Pick<McpRequestContext, 'requestId' | 'protocolVersion'>) {}
    }
    const seen: unknown[] = [];
    @Tool('mcp')
    class Injected {
      constructor(private readonly headers: Headers) {}
      call() {
        seen.push(this.headers.request === mcpRequest(), this.headers.request instanceof McpRequestContext);
        return 'ok';
      }
    }
    const { client: c, close: done } = await connectInMemory({ name: 'ctx', version: '1', tools: [Injected] });
    try {
      expect((await c.callTool({ name: 'injected', arguments: {} })).isError).toBeUndefined();
    } finally {
      await done();
    }
    expect(seen).toEqual([true, true]);
    expect(() => new McpRequestContext()).toThrow(
      'McpRequestContext is made by the MCP server for each request: inject it (a constructor parameter, or @inject(McpRequestContext)) or read mcpRequest() inside a call; do not construct it.',
    );
  });

  it('reports progress when the client asks for it', async () => {
    @Tool('mcp')
    class Crunch {
      async call() {
        for (let step = 1; step <= 3; step++) await mcpRequest()?.progress(step, 3, `step ${step}`);
        return 'done';
      }
    }
    const { client: c, close: done } = await connectInMemory({ name: 'progress', version: '1', tools: [Crunch] });
    const progress: unknown[] = [];
    try {
      await c.callTool({ name: 'crunch', arguments: {} }, undefined, { onprogress: (p) => progress.push(p) });
    } finally {
      await done();
    }
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('cancellation reaches the tool’s AbortSignal', async () => {
    let aborted: Promise<unknown> | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    @Expects({}) // takes no input, reads its context
    @Tool('mcp')
    class Wait {
      call(_input: unknown, { signal }: { signal: AbortSignal }) {
        aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason)));
        started();
        return aborted.then(() => 'never seen');
      }
    }
    const { client: c, close: done } = await connectInMemory({ name: 'cancel', version: '1', tools: [Wait] });
    try {
      const controller = new AbortController();
      const call = c.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
      await running;
      controller.abort('user pressed stop');
      await expect(call).rejects.toThrow();
      await expect(aborted).resolves.toBeDefined();
    } finally {
      await done();
    }
  });

  it('an ambientContext function that throws is the server’s problem: a generic isError, reported once', async () => {
    const { client: c, close: done } = await connectInMemory({ name: 'broken', version: '1', tools: [TransferV2], ambientContext: () => { throw new Error('session store down'); } });
    try {
      expect(await c.callTool({ name: 'transfer', arguments: { from: account, amount: 1 } })).toEqual({ isError: true, content: [{ type: 'text', text: 'Could not transfer' }] });
    } finally {
      await done();
    }
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe("the server's ambientContext function threw for transfer: session store down");
  });
});

describe('mapping failures', () => {
  it('answer "The tool could not produce a valid response" through guardToolResponse, reported once', async () => {
    class Handle {
      constructor(readonly fd = 3) {}
    }
    @Tool('mcp', { adapters: { mcp: { rejectOpaqueExposedValues: true } } })
    class Leak {
      call() {
        return { handle: new Handle() };
      }
    }
    const { client: c, close: done } = await connectInMemory({ name: 'leak', version: '1', tools: [Leak] });
    try {
      expect(await c.callTool({ name: 'leak', arguments: {} })).toEqual({ isError: true, content: [{ type: 'text', text: 'The tool could not produce a valid response' }] });
    } finally {
      await done();
    }
    expect(reported).toHaveLength(1);
  });
});

describe('declaring the server', () => {
  it('two tools served under one name are an error naming both', async () => {
    // Not mcp members: wrapped by hand under one name.
    @Tool('elsewhere') class LookupA { call() {} }
    @Tool('elsewhere') class LookupB { call() {} }
    const tools = [McpAdapter.wrap(LookupB, { name: 'lookup' }), McpAdapter.wrap(LookupA, { name: 'lookup' })];
    await expect(connectInMemory({ name: 'dup', version: '1', tools })).rejects.toThrow(
      "Tools LookupA and LookupB are both served as 'lookup'. Give one another name (wrap(tool, { name }) or @Tool({ adapters: { mcp: { name } } })).",
    );
  });

  it('wrap takes a name and a description', () => {
    const entry = McpAdapter.wrap(Greet, { name: 'hello', description: 'Says hello' });
    expect([entry.tool.name, entry.tool.description]).toEqual(['hello', 'Says hello']);
  });

  it('the title setting can be set adapter-wide… and a tool’s own wins', () => {
    McpConfig.set('title', 'Bank tool');
    try {
      expect(McpAdapter.wrap(Motd).tool.title).toBe('Bank tool');
      expect(McpAdapter.wrap(Greet).tool.title).toBe('Say hello');
    } finally {
      McpConfig.reset('title');
    }
  });

  it('McpAdapter.tools() takes no arguments and wraps every mcp member', () => {
    const names = McpAdapter.tools().map((entry) => entry.tool.name);
    expect(names).toEqual(expect.arrayContaining(['transfer', 'greet', 'motd']));
  });
});
