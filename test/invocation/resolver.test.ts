/**
 * The resolver seam: a resolver makes the instance a member runs on, in place of tsyringe, for
 * invoke(), the MCP server and the HTTP adapter; tsyringe stays the default.
 */
import 'reflect-metadata';
import { container } from 'tsyringe';
import { Expects, Exposes, Field, Invoker, invoke, ResolveCall, Tool, ToolResolutionError, ToolResolver, tsyringeResolver } from 'toolwright';
import { McpRequestContext } from 'toolwright/mcp';
import { serveHttpApi } from 'toolwright/http';
import { connectInMemory } from '../helpers/mcp';

class Greeter {
  constructor(readonly greeting: string) {}
}

class GreetInput {
  @Field() name!: string;
}

@Tool('mcp', 'http', { description: 'Greets someone', error: 'Could not greet' })
@Expects(GreetInput)
@Exposes({ text: String })
class GreetWithResolver {
  constructor(readonly greeter: Greeter) {}
  call(input: GreetInput) {
    return { text: `${this.greeter.greeting} ${input.name}` };
  }
}

/** A hand-made container: a map of factories, recording what each call told it. */
function handMade(greeting: string) {
  const seen: ResolveCall[] = [];
  const resolver: ToolResolver = {
    resolve(target, call) {
      seen.push(call);
      if (target === GreetWithResolver) return new GreetWithResolver(new Greeter(greeting));
      throw new Error(`no factory for ${target.name}`);
    },
  };
  return { resolver, seen };
}

describe('the resolver seam', () => {
  it('invoke() makes the instance through a given resolver, telling it the definition and the transport', async () => {
    const { resolver, seen } = handMade('Hello');
    const result = await invoke(GreetWithResolver, { name: 'Ada' }, { resolver });
    expect(result.ok && result.value).toEqual({ text: 'Hello Ada' });
    expect(seen).toHaveLength(1);
    expect(seen[0].definition.target).toBe(GreetWithResolver);
    expect(seen[0].transport).toBe('inprocess');
    expect(seen[0].request).toBeUndefined();
  });

  it('a per-call resolver wins over the invoker\'s, and the call\'s request reaches it', async () => {
    const invoker = new Invoker({ resolver: handMade('Hi').resolver });
    const other = handMade('Good day');
    const request = { user: 'u-1' };
    const result = await invoker.invoke(GreetWithResolver, { name: 'Bo' }, { resolver: other.resolver, request });
    expect(result.ok && result.value).toEqual({ text: 'Good day Bo' });
    expect(other.seen[0].request).toBe(request);
    expect((await invoker.invoke(GreetWithResolver, { name: 'Bo' })).value).toEqual({ text: 'Hi Bo' });
  });

  it('an asynchronous resolver is awaited', async () => {
    const resolver: ToolResolver = {
      async resolve() {
        await new Promise((resolve) => setImmediate(resolve));
        return new GreetWithResolver(new Greeter('Later,'));
      },
    };
    const result = await invoke(GreetWithResolver, { name: 'Cy' }, { resolver });
    expect(result.ok && result.value).toEqual({ text: 'Later, Cy' });
  });

  it('a resolver that throws (or rejects) fails the call with a ToolResolutionError naming the member and quoting it', async () => {
    const throwing: ToolResolver = {
      resolve() {
        throw new Error('no provider for Greeter');
      },
    };
    const rejecting: ToolResolver = {
      resolve: () => Promise.reject(new Error('scope closed')),
    };
    for (const [resolver, quoted] of [
      [throwing, 'no provider for Greeter'],
      [rejecting, 'scope closed'],
    ] as const) {
      const result = await invoke(GreetWithResolver, { name: 'Di' }, { resolver, onException: () => {} });
      expect(result.ok).toBe(false);
      expect(result.outcome).toBe('exception');
      expect(result.error).toBe('Could not greet');
      expect(result.exception).toBeInstanceOf(ToolResolutionError);
      expect((result.exception as Error).message).toBe(
        `greet_with_resolver (GreetWithResolver) could not be resolved by the resolver: ${quoted}`,
      );
    }
  });

  it('a resolver that returns something without the member\'s method fails the call naming what to return', async () => {
    const resolver: ToolResolver = { resolve: () => ({}) };
    const result = await invoke(GreetWithResolver, { name: 'Ed' }, { resolver, onException: () => {} });
    expect(result.exception).toBeInstanceOf(ToolResolutionError);
    expect((result.exception as Error).message).toBe(
      'greet_with_resolver (GreetWithResolver) could not be resolved: the resolver returned {}, which has no method call; return an instance of GreetWithResolver.',
    );
  });

  it('a resolver that is not one is refused when the invoker is made', () => {
    expect(() => new Invoker({ resolver: 'nest' as unknown as ToolResolver })).toThrow(
      "Invoker: 'resolver' must be an object with a resolve(target, call) method (a ToolResolver); got",
    );
  });

  it('tsyringe stays the default, and tsyringeResolver(container) resolves from that container', async () => {
    const child = container.createChildContainer();
    child.register(Greeter, { useValue: new Greeter('Howdy') });
    const result = await invoke(GreetWithResolver, { name: 'Flo' }, { resolver: tsyringeResolver(child) });
    expect(result.ok && result.value).toEqual({ text: 'Howdy Flo' });
    // The `container` option as before: the default resolver uses it.
    expect((await invoke(GreetWithResolver, { name: 'Flo' }, { container: child })).value).toEqual({ text: 'Howdy Flo' });
    // Without either, tsyringe's root container cannot build a Greeter (not injectable): the same error as before.
    const root = await invoke(GreetWithResolver, { name: 'Flo' }, { onException: () => {} });
    expect((root.exception as Error).message).toMatch(
      /^greet_with_resolver \(GreetWithResolver\) could not be resolved: dependency Greeter; register it in the container or mark it @injectable\(\)\./,
    );
  });

  it('the MCP server resolves through its resolver, handing it the McpRequestContext', async () => {
    const { resolver, seen } = handMade('Welcome');
    const { client, close } = await connectInMemory({ name: 't', version: '1', tools: [GreetWithResolver], resources: [], prompts: [], completions: [], resolver });
    try {
      const answer = await client.callTool({ name: 'greet_with_resolver', arguments: { name: 'Gus' } });
      expect(answer.structuredContent).toEqual({ text: 'Welcome Gus' });
      expect(seen[0].transport).toBe('mcp');
      expect(seen[0].request).toBeInstanceOf(McpRequestContext);
    } finally {
      await close();
    }
  });

  it('the MCP server answers a throwing resolver as the tool\'s error, without the detail', async () => {
    const resolver: ToolResolver = {
      resolve() {
        throw new Error('secret: no provider');
      },
    };
    const { client, close } = await connectInMemory({
      name: 't',
      version: '1',
      tools: [GreetWithResolver],
      resources: [],
      prompts: [],
      completions: [],
      resolver,
      invoker: { onException: () => {} },
    });
    try {
      const answer = await client.callTool({ name: 'greet_with_resolver', arguments: { name: 'Hal' } });
      expect(answer.isError).toBe(true);
      expect(JSON.stringify(answer.content)).not.toContain('secret');
      expect(JSON.stringify(answer.content)).toContain('Could not greet');
    } finally {
      await close();
    }
  });

  it('the HTTP adapter resolves through its resolver, handing it the Fastify request', async () => {
    const { resolver, seen } = handMade('Hey');
    const api = await serveHttpApi({ tools: [GreetWithResolver], docs: false, resolver }, { port: 0 });
    try {
      const response = await fetch(`${api.url}/greet_with_resolver/v1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-caller': 'ivy' },
        body: JSON.stringify({ name: 'Ivy' }),
      });
      expect(await response.json()).toEqual({ text: 'Hey Ivy' });
      expect(seen[0].transport).toBe('http');
      expect((seen[0].request as { headers: Record<string, string> }).headers['x-caller']).toBe('ivy');
    } finally {
      await api.close();
    }
  });
});
