/**
 * One tool written against the transport-neutral context, run unchanged through invoke(), the
 * Toolbox, the AI SDK (generateText with its mock model) and MCP (the SDK Client over real
 * transports): each transport fills progress, log, elicit, sample and the call's identity as far as
 * it can, and says clearly when it cannot ask the user.
 */
import 'reflect-metadata';
import { IsString } from 'class-validator';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  configure,
  Expects,
  Exposes,
  fail,
  Field,
  invoke,
  Tool,
  ToolContext,
  ToolContextHandlers,
  ToolContextUnavailableError,
} from 'toolwright';
import { toAiSdkTools } from 'toolwright/ai';
import { mcpRequest, serveHttp } from 'toolwright/mcp';
import { Toolbox } from 'toolwright/openai';
import { connectInMemory } from '../helpers/mcp';

class BookInput {
  @Field() @IsString() restaurant!: string;
}

/** Books a table: reports progress, logs, asks the user for the party size and the model for a note. */
@Tool({ description: 'Books a table, asking how many people come' })
@Expects(BookInput)
@Exposes({ restaurant: String, size: Number, note: String, transport: String, requestId: String, sessionId: String })
class BookTable {
  async call(input: BookInput, context: ToolContext) {
    await context.progress(1, 3, 'looking for a table');
    await context.log('debug', 'details', { restaurant: input.restaurant });
    await context.log('info', `booking at ${input.restaurant}`);
    let size = 2;
    if (context.supports('elicit')) {
      const answer = await context.elicit('How many people?', {
        type: 'object',
        properties: { size: { type: 'integer', minimum: 1, default: 2 } },
        required: ['size'],
      });
      if (answer.action !== 'accept') fail('the user did not say how many people come');
      size = Number(answer.content?.size);
    }
    let note = '';
    if (context.supports('sample')) {
      const reply = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'A note for the waiter' } }], maxTokens: 20 });
      note = reply.content.type === 'text' ? reply.content.text : '';
    }
    await context.progress(3, 3);
    const { transport, requestId, sessionId } = context.call;
    return { restaurant: input.restaurant, size, note, transport, requestId: String(requestId ?? ''), sessionId: sessionId ?? '' };
  }
}

/** Asks the user without looking first. */
@Tool({ description: 'Asks the user a question' })
@Expects({})
class AskAlways {
  async call(_input: unknown, context: ToolContext) {
    const answer = await context.elicit('Sure?', { type: 'object', properties: { yes: { type: 'boolean' } } });
    return answer.action;
  }
}

/** In-process handlers that record what the tool sent. */
function recorder() {
  const seen: unknown[] = [];
  const handlers: ToolContextHandlers = {
    progress: (done, total, message) => void seen.push(['progress', done, total, message]),
    log: (level, message, data) => void seen.push(['log', level, message, data]),
    elicit: (message, schema) => {
      seen.push(['elicit', message, Object.keys(schema.properties)]);
      return { action: 'accept', content: { size: 4 } };
    },
    sample: (request) => {
      seen.push(['sample', request.maxTokens]);
      return { role: 'assistant', content: { type: 'text', text: 'window seat' }, model: 'test-model' };
    },
  };
  return { seen, handlers };
}

const EXPECTED_SEEN = [
  ['progress', 1, 3, 'looking for a table'],
  ['log', 'debug', 'details', { restaurant: 'Chez Nous' }],
  ['log', 'info', 'booking at Chez Nous', undefined],
  ['elicit', 'How many people?', ['size']],
  ['sample', 20],
  ['progress', 3, 3, undefined],
];

afterEach(() => configure({ toolContext: undefined }));

describe('invoke()', () => {
  it('runs the tool with the handlers in the call options, and an in-process identity', async () => {
    const { seen, handlers } = recorder();
    const result = await invoke(BookTable, { restaurant: 'Chez Nous' }, { context: handlers });
    expect(result.value).toEqual({ restaurant: 'Chez Nous', size: 4, note: 'window seat', transport: 'inprocess', requestId: '', sessionId: '' });
    expect(seen).toEqual(EXPECTED_SEEN);
  });

  it('falls back to configure({ toolContext }) handler by handler; the call options win', async () => {
    const process = recorder();
    const call = recorder();
    configure({ toolContext: process.handlers });
    const result = await invoke(BookTable, { restaurant: 'Chez Nous' }, { context: { log: call.handlers.log } });
    expect(result.ok).toBe(true);
    expect(call.seen.map((entry) => (entry as unknown[])[0])).toEqual(['log', 'log']);
    expect(process.seen.map((entry) => (entry as unknown[])[0])).toEqual(['progress', 'elicit', 'sample', 'progress']);
  });

  it('without a handler, elicit fails naming the tool, the transport and the fix; progress and log go nowhere', async () => {
    const reports: unknown[] = [];
    const result = await invoke(AskAlways, {}, { onException: (error) => reports.push(error) });
    expect(result.ok).toBe(false);
    expect(result.exception).toBeInstanceOf(ToolContextUnavailableError);
    expect((result.exception as Error).message).toBe(
      'ask_always (AskAlways) called context.elicit(), and this transport (inprocess) cannot ask the user: pass an `elicit` handler in the call options (invoke(tool, args, { context: { elicit } })) or configure({ toolContext: { elicit } }).',
    );
    expect(reports).toHaveLength(1);
    const plain = await invoke(BookTable, { restaurant: 'Chez Nous' });
    expect(plain.value).toMatchObject({ size: 2, note: '', transport: 'inprocess' });
  });

  it('a handler that throws does not fail the call for progress and logs, but does for elicit', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const broken = () => {
        throw new Error('sink down');
      };
      const result = await invoke(BookTable, { restaurant: 'X' }, { context: { progress: broken, log: broken } });
      expect(result.ok).toBe(true);
      expect(error).toHaveBeenCalledTimes(4);
      const asked = await invoke(AskAlways, {}, { context: { elicit: broken }, onException: () => undefined });
      expect(asked.exception).toEqual(new Error('sink down'));
    } finally {
      error.mockRestore();
    }
  });

  it('refuses bad arguments to the context with a message naming the tool and the rule', async () => {
    @Tool({ description: 'Misuses its context' })
    @Expects({})
    class Misuse {
      async call(_input: unknown, context: ToolContext) {
        await context.log('loud' as never, 'x');
      }
    }
    const result = await invoke(Misuse, {}, { onException: () => undefined });
    expect((result.exception as Error).message).toBe(
      "misuse (Misuse): context.log level must be one of debug, info, notice, warning, error, critical, alert, emergency; got 'loud'.",
    );
    expect(() => configure({ toolContext: { log: 'console' as never } })).toThrow(
      "configure: 'toolContext.log' must be a function; got 'console'.",
    );
  });
});

/** Asks for the roots, then asks twice under the keys it is given (`keys`), and says what came back. */
@Tool({ description: 'Asks under keys' })
@Expects({})
class KeyedAsks {
  static keys: unknown[] = ['first', 'second'];
  async call(_input: unknown, context: ToolContext) {
    const roots = await context.roots({ key: 'where' });
    const [a, b] = KeyedAsks.keys;
    const one = await context.elicit('One?', { type: 'object', properties: {} }, { key: a as string });
    const two = await context.sample({ messages: [], maxTokens: 1 }, { key: b as string });
    return `${roots.map((root) => root.uri).join()} ${one.action} ${two.model}`;
  }
}

describe('ask keys and roots', () => {
  const keyed: ToolContextHandlers = {
    roots: (call) => [{ uri: `file:///${call.key}` }],
    elicit: (_message, _schema, call) => ({ action: call.key === 'first' ? 'accept' : 'decline' }),
    sample: (_request, call) => ({ role: 'assistant', content: { type: 'text', text: '' }, model: String(call.key) }),
  };
  afterEach(() => (KeyedAsks.keys = ['first', 'second']));

  it("each handler receives its ask's key; roots come from the roots handler", async () => {
    expect((await invoke(KeyedAsks, {}, { context: keyed })).value).toBe('file:///where accept second');
  });

  it.each([
    [['first', 'first'], "context.sample(request, { key }) used the key 'first' a second time in this call; give each ask of one call its own key"],
    [['ask-2', 'x'], "context.elicit(message, schema, { key }) needs a key of 1 to 64 letters, digits, '_', '.' or '-', not of the form 'ask-<number>'"],
    [['has space', 'x'], "got 'has space'"],
    [['k'.repeat(65), 'x'], 'needs a key of 1 to 64 letters'],
    [['', 'x'], 'needs a key of 1 to 64 letters'],
    [[42, 'x'], 'got 42'],
  ])('a bad or repeated key %j is refused naming the tool and the key', async (keys, message) => {
    KeyedAsks.keys = keys;
    const result = await invoke(KeyedAsks, {}, { context: keyed, onException: () => undefined });
    expect(result.exception).toBeInstanceOf(TypeError);
    expect((result.exception as Error).message).toMatch(/^keyed_asks \(KeyedAsks\): context\./);
    expect((result.exception as Error).message).toContain(message);
  });

  it('without a roots handler, roots fails naming the fix, in process and in the Toolbox; supports() says so', async () => {
    const result = await invoke(KeyedAsks, {}, { onException: () => undefined });
    expect((result.exception as ToolContextUnavailableError).operation).toBe('roots');
    expect((result.exception as Error).message).toBe(
      'keyed_asks (KeyedAsks) called context.roots(), and this transport (inprocess) cannot ask the client for its roots: pass a `roots` handler in the call options (invoke(tool, args, { context: { roots } })) or configure({ toolContext: { roots } }).',
    );
    const reports: unknown[] = [];
    configure({ onException: (error) => reports.push(error) });
    try {
      expect((await new Toolbox([KeyedAsks]).invoke({ id: 'c', name: 'keyed_asks', arguments: '{}' })).status).toBe('failed');
      expect((reports[0] as Error).message).toContain('this transport (openai) cannot ask the client for its roots: pass a `roots` handler in the toolbox options');
    } finally {
      configure({ onException: undefined });
    }
  });
});

describe('the Toolbox', () => {
  it('runs the tool with its handlers; the identity is openai and the tool call id', async () => {
    const { seen, handlers } = recorder();
    const toolbox = new Toolbox([BookTable], { context: { log: handlers.log } });
    const record = await toolbox.invoke(
      { id: 'call_1', name: 'book_table', arguments: '{"restaurant":"Chez Nous"}' },
      { context: { progress: handlers.progress, elicit: handlers.elicit, sample: handlers.sample } },
    );
    expect(record.data).toEqual({ restaurant: 'Chez Nous', size: 4, note: 'window seat', transport: 'openai', requestId: 'call_1', sessionId: '' });
    expect(seen).toEqual(EXPECTED_SEEN);
  });

  it('without a handler, elicit fails saying how to give the toolbox one', async () => {
    const reports: unknown[] = [];
    configure({ onException: (error) => reports.push(error) });
    try {
      const record = await new Toolbox([AskAlways]).invoke({ id: 'c', name: 'ask_always', arguments: '{}' });
      expect(record.status).toBe('failed');
      expect((reports[0] as Error).message).toContain(
        'this transport (openai) cannot ask the user: pass an `elicit` handler in the toolbox options or the call options',
      );
    } finally {
      configure({ onException: undefined });
    }
  });

  it('checks the context option', () => {
    expect(() => new Toolbox([BookTable], { context: { elicit: 42 } as never })).toThrow(
      "new Toolbox: 'context.elicit' must be a function; got 42.",
    );
  });
});

describe('the AI SDK', () => {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };

  it('runs the tool through generateText; the identity is ai-sdk and the toolCallId', async () => {
    const { seen, handlers } = recorder();
    const turns = [
      {
        content: [{ type: 'tool-call' as const, toolCallId: 'tc-7', toolName: 'book_table', input: '{"restaurant":"Chez Nous"}' }],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      { content: [{ type: 'text' as const, text: 'Booked.' }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] },
    ];
    const model = new MockLanguageModelV3({ doGenerate: async () => turns.shift()! });
    const result = await generateText({
      model,
      tools: toAiSdkTools([BookTable], { context: handlers }),
      prompt: 'Book Chez Nous',
      stopWhen: stepCountIs(3),
    });
    expect(result.steps[0].toolResults[0].output).toEqual({
      restaurant: 'Chez Nous',
      size: 4,
      note: 'window seat',
      transport: 'ai',
      requestId: 'tc-7',
      sessionId: '',
    });
    expect(seen).toEqual(EXPECTED_SEEN);
  });

  it('checks the context option', () => {
    expect(() => toAiSdkTools([BookTable], { context: [] as never })).toThrow(
      "toAiSdkTools: 'context' must be an object of handlers { progress, log, elicit, sample, roots }; got [].",
    );
  });
});

describe('MCP', () => {
  /** A client that can ask its user and its model, answering as the recorder does. */
  function capableClient(seen: unknown[]): Client {
    const client = new Client({ name: 'capable', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      seen.push(['elicit', request.params.message]);
      return { action: 'accept', content: { size: 6 } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      seen.push(['sample', request.params.maxTokens]);
      return { role: 'assistant', content: { type: 'text', text: 'by the window' }, model: 'client-model' };
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void seen.push(['log', notification.params]));
    return client;
  }

  it('over Streamable HTTP: progress, logs at the level the client set, elicitation, sampling and the identity', async () => {
    const handle = await serveHttp({ name: 'ctx', version: '1', tools: [BookTable] }, { port: 0 });
    const seen: unknown[] = [];
    const client = capableClient(seen);
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
      await client.setLoggingLevel('info');
      const progress: unknown[] = [];
      const result = await client.callTool({ name: 'book_table', arguments: { restaurant: 'Chez Nous' } }, undefined, {
        onprogress: (update) => progress.push(update),
      });
      const value = result.structuredContent as Record<string, unknown>;
      expect(value).toMatchObject({ restaurant: 'Chez Nous', size: 6, note: 'by the window', transport: 'mcp' });
      expect(value.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(value.requestId).toMatch(/^\d+$/);
      expect(progress).toEqual([
        { progress: 1, total: 3, message: 'looking for a table' },
        { progress: 3, total: 3 },
      ]);
      // The debug line is under the level the client set; the info line arrives, named by the tool.
      expect(seen).toEqual([
        ['log', { level: 'info', logger: 'book_table', data: 'booking at Chez Nous' }],
        ['elicit', 'How many people?'],
        ['sample', 20],
      ]);
    } finally {
      await client.close();
      await handle.close();
    }
  });

  it('declares the logging capability; without a level set, every log line reaches the client with its data', async () => {
    const seen: unknown[] = [];
    const { client, close } = await connectInMemory({ name: 'ctx', version: '1', tools: [BookTable] });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void seen.push(notification.params));
    try {
      expect(client.getServerCapabilities()).toMatchObject({ logging: {}, tools: { listChanged: true } });
      const result = await client.callTool({ name: 'book_table', arguments: { restaurant: 'Chez Nous' } });
      // This client cannot ask its user or its model: the tool took its other path.
      expect(result.structuredContent).toMatchObject({ size: 2, note: '' });
      expect(seen).toEqual([
        { level: 'debug', logger: 'book_table', data: { message: 'details', data: { restaurant: 'Chez Nous' } } },
        { level: 'info', logger: 'book_table', data: 'booking at Chez Nous' },
      ]);
    } finally {
      await close();
    }
  });

  it('a client without the elicitation capability: elicit fails saying the client did not declare it', async () => {
    const reports: unknown[] = [];
    const { client, close } = await connectInMemory({
      name: 'ctx',
      version: '1',
      tools: [AskAlways],
      invoker: { onException: (error) => reports.push(error) },
    });
    try {
      const result = await client.callTool({ name: 'ask_always', arguments: {} });
      expect(result.isError).toBe(true);
      expect((reports[0] as Error).message).toBe(
        'ask_always (AskAlways) called context.elicit(), and this transport (mcp) cannot ask the user: the MCP client did not declare the elicitation capability (form mode) when it connected; use a client that can ask its user, or let the tool go on without asking (context.supports("elicit")).',
      );
    } finally {
      await close();
    }
  });

  it('mcpRequest() still works beside the context', async () => {
    @Tool({ description: 'Reads the MCP request both ways' })
    @Exposes({ same: Boolean })
    @Expects({})
    class Both {
      call(_input: unknown, context: ToolContext) {
        return { same: mcpRequest()?.requestId === context.call.requestId };
      }
    }
    const { client, close } = await connectInMemory({ name: 'ctx', version: '1', tools: [Both] });
    try {
      expect((await client.callTool({ name: 'both', arguments: {} })).structuredContent).toEqual({ same: true });
    } finally {
      await close();
    }
  });
});
