/**
 * Serving members beside tools: build-time refusals (duplicate URIs and names, templates matching
 * the same URIs, a member passed in the wrong option), capabilities declared only when there are
 * members (merged with the user's own), the 1.x Client over the in-memory transport (2025-11-25),
 * the request's context and ambient values reaching a template and a prompt, a completion hidden by
 * scopes, and the span of a read and of a prompt with their MCP attributes.
 */
import 'reflect-metadata';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { injectable } from 'tsyringe';
import { AmbientContext, Complete, Expects, Field, Prompt, Resource, ResourceTemplate, Tool } from 'toolwright';
import type { Middleware } from 'toolwright';
import { createMcpServer, mcpServerFactory, McpRequestContext } from 'toolwright/mcp';
import { connectInMemory } from '../../helpers/mcp';

const exporter = new InMemorySpanExporter();
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});

@Resource('notes://one', { name: 'one' })
class One {
  call(): string {
    return 'one';
  }
}

@Resource('notes://one', { name: 'one_again' })
class OneAgain {
  call(): string {
    return 'again';
  }
}

@ResourceTemplate('notes://by-id/{id}', { name: 'by_id' })
class ById {
  call({ id }: { id: string }): string {
    return id;
  }
}

@ResourceTemplate('notes://by-id/{key}', { name: 'by_key' })
class ByKey {
  call({ key }: { key: string }): string {
    return key;
  }
}

@Prompt({ name: 'ask' })
class Ask {
  call(): string {
    return 'ask';
  }
}

@Prompt({ name: 'ask' })
class AskToo {
  call(): string {
    return 'ask too';
  }
}

@injectable()
class Caller {
  constructor(readonly request: McpRequestContext) {}
}

class NoteVariables {
  @Field() id!: string;
  @AmbientContext() @Field() tenant!: string;
}

@ResourceTemplate('notes://mine/{id}', { name: 'mine' })
@Expects(NoteVariables)
@injectable()
class Mine {
  constructor(private readonly caller: Caller) {}
  call({ id, tenant }: NoteVariables): string {
    return `${tenant}/${id} read as request ${String(this.caller.request.requestId)}`;
  }
}

@Prompt({ name: 'brief', adapters: { mcp: { title: 'A brief' } } })
@Expects({ topic: String })
class Brief {
  call({ topic }: { topic: string }): string {
    return `Brief me on ${topic}`;
  }
}

@Complete(Brief, 'topic', { adapters: { mcp: { scopes: ['editor'] } } })
class BriefTopics {
  call(): string[] {
    return ['loans', 'rates'];
  }
}

@Tool({ name: 'noop' })
class Noop {
  call(): string {
    return 'noop';
  }
}

/** Nothing of a kind not under test (the registry holds every member this file declares, some colliding on purpose). */
const none = { tools: [], resources: [], prompts: [], completions: [] };

describe('members at build time', () => {
  it('refuses two resources at one URI, two prompts under one name and templates matching the same URIs, naming both classes', () => {
    expect(() => createMcpServer({ name: 's', version: '1', ...none, resources: [One, OneAgain] })).toThrow(
      "Resources One and OneAgain are both served as 'notes://one'. Give one another URI.",
    );
    expect(() => createMcpServer({ name: 's', version: '1', ...none, resources: [ById, ByKey] })).toThrow(
      /^Resource templates ById and ByKey are both served as 'notes:\/\/by-id\/\{key\}'\. Templates that differ only in their variable names match the same URIs/,
    );
    expect(() => createMcpServer({ name: 's', version: '1', ...none, prompts: [Ask, AskToo] })).toThrow(
      "Prompts Ask and AskToo are both served as 'ask'.",
    );
  });

  it('refuses a member passed in the option of another kind, naming it and the kind', () => {
    expect(() => createMcpServer({ name: 's', version: '1', ...none, prompts: [One] })).toThrow(
      'McpServedPrompts: One is a resource, not a prompt; serve it through the option of its kind (tools, resources, prompts, completions).',
    );
    expect(() => createMcpServer({ name: 's', version: '1', ...none, resources: [Noop] })).toThrow(/Noop is a tool, not a resource or resource template/);
  });

  it('at run time: a template matching the same URIs as one served is refused unless it replaces it; a non-class is refused', () => {
    const factory = mcpServerFactory({ name: 's', version: '1', ...none, resources: [ById] });
    expect(() => factory.resources.add(ByKey)).toThrow(/Resource templates ById and ByKey .*, or add\(resource, \{ replace: true \}\)\.$/);
    factory.resources.add(ByKey, { replace: true });
    expect(factory.resources.names()).toEqual(['notes://by-id/{key}']);
    expect(factory.resources.remove(ByKey)).toBe(true);
    expect(factory.resources.size).toBe(0);
    expect(() => createMcpServer({ name: 's', version: '1', ...none, prompts: ['ask' as never] })).toThrow(
      "McpServedPrompts: expected a class declared with @Prompt; got 'ask'.",
    );
  });

  it('declares resources, prompts and completions only when it serves such members, merged with the capabilities given', async () => {
    const bare = await connectInMemory({ name: 's', version: '1', tools: [Noop], resources: [], prompts: [], completions: [] });
    try {
      const capabilities = bare.client.getServerCapabilities();
      expect(capabilities).toEqual({ tools: { listChanged: true }, logging: {} });
      await expect(bare.client.listResources()).rejects.toThrow(/Method not found/);
    } finally {
      await bare.close();
    }
    const served = await connectInMemory({
      name: 's',
      version: '1',
      tools: [],
      resources: [One],
      prompts: [],
      completions: [],
      capabilities: { resources: { subscribe: false }, experimental: { mine: {} } },
    });
    try {
      expect(served.client.getServerCapabilities()).toEqual({
        tools: { listChanged: true },
        logging: {},
        experimental: { mine: {} },
        resources: { subscribe: true, listChanged: true },
      });
    } finally {
      await served.close();
    }
  });
});

describe('members over the in-memory transport (1.x Client, 2025-11-25)', () => {
  it('a template gets the request through DI and its ambient value from the server; a prompt is listed and got', async () => {
    const { client, close } = await connectInMemory({
      name: 's',
      version: '1',
      tools: [],
      resources: [Mine],
      prompts: [Brief],
      completions: [BriefTopics],
      ambientContext: () => ({ tenant: 'acme' }),
    });
    try {
      const read = await client.readResource({ uri: 'notes://mine/7' });
      expect(read.contents).toEqual([{ uri: 'notes://mine/7', mimeType: 'text/plain', text: expect.stringMatching(/^acme\/7 read as request \d+$/) }]);
      // The ambient field is no URI variable: the template lists and matches on id alone.
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'notes://mine/{id}', name: 'mine' }]);
      expect((await client.listPrompts()).prompts).toEqual([{ name: 'brief', title: 'A brief', arguments: [{ name: 'topic', required: true }] }]);
      expect((await client.getPrompt({ name: 'brief', arguments: { topic: 'rates' } })).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Brief me on rates' } },
      ]);
      // The completion needs a scope this caller lacks: the argument completes to nothing, as one without a completion.
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'brief' }, argument: { name: 'topic', value: '' } })).completion).toEqual({
        values: [],
        total: 0,
        hasMore: false,
      });
    } finally {
      await close();
    }
  });

  it('a read and a prompt open spans with the MCP attributes: mcp.resource.uri, gen_ai.prompt.name', async () => {
    exporter.reset();
    const { client, close } = await connectInMemory({
      name: 's',
      version: '1',
      tools: [],
      resources: [Mine],
      prompts: [Brief],
      completions: [],
      ambientContext: () => ({ tenant: 'acme' }),
    });
    try {
      await client.readResource({ uri: 'notes://mine/9' });
      await client.getPrompt({ name: 'brief', arguments: { topic: 'loans' } });
    } finally {
      await close();
    }
    const spans = exporter.getFinishedSpans();
    const read = spans.find((span) => span.attributes['mcp.method.name'] === 'resources/read');
    const prompt = spans.find((span) => span.attributes['mcp.method.name'] === 'prompts/get');
    expect(read?.attributes).toMatchObject({ 'mcp.resource.uri': 'notes://mine/9', 'mcp.protocol.version': '2025-11-25', 'toolwright.outcome': 'success' });
    expect(read?.attributes['jsonrpc.request.id']).toEqual(expect.any(String));
    expect(prompt?.attributes).toMatchObject({ 'gen_ai.prompt.name': 'brief', 'toolwright.outcome': 'success' });
    // Named as the MCP conventions say: {mcp.method.name} {target}, a resource's URI left out.
    expect(read?.name).toBe('resources/read');
    expect(prompt?.name).toBe('prompts/get brief');
  });
});

class LoginArgs {
  @Field() user!: string;
  @Field({ sensitive: true }) password!: string;
}

@Prompt({ name: 'login_help' })
@Expects(LoginArgs)
class LoginHelp {
  call({ user }: LoginArgs): string {
    return `Help ${user} log in`;
  }
}

@Resource('notes://broken', { name: 'broken' })
class Broken {
  call(): undefined {
    return undefined;
  }
}

@Complete(Brief, 'topic')
class BadTopics {
  call() {
    return [1, 2, 3];
  }
}

describe('the pipeline around members', () => {
  it('middleware sees a prompt call over MCP with its sensitive argument redacted, and may refuse a read', async () => {
    const seen: Array<{ tool: string; transport: string; input: unknown }> = [];
    const watch: Middleware = (call, next) => {
      seen.push({ tool: call.tool.id, transport: call.transport, input: call.redactedInput() });
      return call.tool.id === 'One' ? call.fail('Closed for inventory') : next();
    };
    const { client, close } = await connectInMemory({ ...none, name: 's', version: '1', resources: [One], prompts: [LoginHelp], invoker: { middleware: [watch] } });
    try {
      expect((await client.getPrompt({ name: 'login_help', arguments: { user: 'ada', password: 'hunter2' } })).messages[0].content).toEqual({
        type: 'text',
        text: 'Help ada log in',
      });
      await expect(client.readResource({ uri: 'notes://one' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('Closed for inventory') });
      expect(seen).toEqual([
        { tool: 'LoginHelp', transport: 'mcp', input: { user: 'ada', password: '[redacted]' } },
        { tool: 'One', transport: 'mcp', input: {} },
      ]);
    } finally {
      await close();
    }
  });

  it("a member's unusable answer is reported and answered -32603 without its detail", async () => {
    const { client, close } = await connectInMemory({
      ...none,
      name: 's',
      version: '1',
      resources: [Broken],
      prompts: [Brief],
      completions: [BadTopics],
    });
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(client.readResource({ uri: 'notes://broken' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('could not produce a valid response') });
      await expect(
        client.complete({ ref: { type: 'ref/prompt', name: 'brief' }, argument: { name: 'topic', value: '' } }),
      ).rejects.toMatchObject({ code: -32603, message: expect.not.stringContaining('string[]') });
      // Each reported once, naming the member and what it should return.
      const lines = spy.mock.calls.map((args) => args.map(String).join(' '));
      expect(lines).toEqual([
        expect.stringMatching(/broken \(Broken\) raised an exception: .*the resource returned nothing; return its text, bytes or a JSON value/),
        expect.stringMatching(/BadTopics: a completion returns string\[\] or \{ values: string\[\], total\?, hasMore\? \}/),
      ]);
    } finally {
      spy.mockRestore();
      await close();
    }
  });
});
