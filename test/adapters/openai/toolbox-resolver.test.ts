/**
 * The Toolbox's `resolver` option (a `ToolResolver`, as `invoke`, the MCP server, the HTTP API and
 * the queue worker take): the toolbox's own or a call's makes the tool's instance and is handed the
 * call; a malformed one is refused when given, naming the option.
 */
import 'reflect-metadata';
import { Expects, Tool, type ResolveCall, type ToolResolver } from 'toolwright';
import { Toolbox } from 'toolwright/openai';

class Greeter {
  constructor(readonly greeting: string) {}
}

@Tool('openai', { name: 'greet', description: 'Greet someone' })
@Expects({ name: String })
class Greet {
  constructor(private readonly greeter: Greeter) {}
  call(input: { name: string }) {
    return { text: `${this.greeter.greeting}, ${input.name}` };
  }
}

@Tool('openai', { name: 'greet_carefully', description: 'Greet someone, once approved', approval: 'required' })
@Expects({ name: String })
class GreetCarefully extends Greet {}

/** A resolver making each tool with `greeting`, recording the calls it is handed. */
function resolverSaying(greeting: string, seen: ResolveCall[] = []): ToolResolver & { seen: ResolveCall[] } {
  return {
    seen,
    resolve(target, call) {
      seen.push(call);
      return new (target as new (greeter: Greeter) => object)(new Greeter(greeting));
    },
  };
}

const call = (name: string, id = 'c1') => ({ id, name, arguments: { name: 'Ada' } });

describe('Toolbox: resolver', () => {
  it("the toolbox's resolver makes the tool and is handed the call (member, transport, no request)", async () => {
    const resolver = resolverSaying('Hello');
    const toolbox = new Toolbox([Greet], { resolver });
    const record = await toolbox.invoke(call('greet'));
    expect(record.status).toBe('completed');
    expect(JSON.parse(record.output)).toEqual({ text: 'Hello, Ada' });
    expect(resolver.seen).toHaveLength(1);
    expect(resolver.seen[0].definition.target).toBe(Greet);
    expect(resolver.seen[0].transport).toBe('openai');
  });

  it("a call's resolver replaces the toolbox's, for that call only", async () => {
    const own = resolverSaying('Hello');
    const toolbox = new Toolbox([Greet], { resolver: own });
    const other = resolverSaying('Bonjour');
    expect(JSON.parse((await toolbox.invoke(call('greet'), { resolver: other })).output)).toEqual({ text: 'Bonjour, Ada' });
    expect([own.seen.length, other.seen.length]).toEqual([0, 1]);
    const [record] = await toolbox.invokeAll([call('greet', 'c2')], { resolver: other });
    expect(JSON.parse(record.output)).toEqual({ text: 'Bonjour, Ada' });
    expect(JSON.parse((await toolbox.invoke(call('greet', 'c3'))).output)).toEqual({ text: 'Hello, Ada' });
  });

  it('a call held for approval runs later with the resolver it was made with', async () => {
    const toolbox = new Toolbox([GreetCarefully]);
    const resolver = resolverSaying('Welcome');
    const held = await toolbox.invoke(call('greet_carefully'), { resolver });
    expect(held.status).toBe('approval_required');
    expect(resolver.seen).toHaveLength(0);
    const approved = await toolbox.approve(held);
    expect(JSON.parse(approved.output)).toEqual({ text: 'Welcome, Ada' });
    expect(resolver.seen.map((seen) => seen.definition.target)).toEqual([GreetCarefully]);
  });

  it("a resolver that fails fails the call with the tool's generic error, not the resolver's words", async () => {
    const reported = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const toolbox = new Toolbox([Greet], {
      resolver: {
        resolve() {
          throw new Error('vault password is hunter2');
        },
      },
    });
    const record = await toolbox.invoke(call('greet'));
    expect(record.status).toBe('failed');
    expect(record.result?.outcome).toBe('exception');
    expect(record.output).not.toContain('hunter2');
    expect(String(reported.mock.calls[0]?.[1])).toContain('could not be resolved');
    reported.mockRestore();
  });

  it('refuses a resolver without resolve(), on the toolbox or on a call, naming the option', async () => {
    const message = (where: string, got: string) =>
      `${where}: 'resolver' must be an object with a resolve(target, call) method (a ToolResolver); got ${got}.`;
    expect(() => new Toolbox([Greet], { resolver: {} as never })).toThrow(new TypeError(message('new Toolbox', '{}')));
    expect(() => new Toolbox([Greet], { resolver: (() => new Greet(new Greeter('x'))) as never })).toThrow(/new Toolbox: 'resolver' must be an object/);
    const toolbox = new Toolbox([Greet]);
    await expect(toolbox.invoke(call('greet'), { resolver: 'nest' as never })).rejects.toThrow(new TypeError(message('Toolbox.invoke', "'nest'")));
    await expect(toolbox.invokeAll([call('greet')], { resolver: { resolve: 1 } as never })).rejects.toThrow(/Toolbox\.invokeAll: 'resolver' must be an object/);
  });
});
