/**
 * A tool can throw anything. A Proxy whose every trap throws, a revoked Proxy, an object whose
 * `message`, `name`, `toString` or `Symbol.toPrimitive` throw: each is an exception outcome with the
 * generic message, on every transport, and its text never reaches the caller.
 */
import { configure, ExceptionHandler, Expects, FailsOn, fail, Invoker, invoke, Tool } from 'toolwright';
import { describeValue } from 'toolwright/kit';
import { toAiSdkTools, ToolCallFailedError } from 'toolwright/ai';
import { Toolbox } from 'toolwright/openai';
import { format } from 'node:util';
import { connectInMemory } from '../helpers/mcp';

const SECRET = 'secret-from-the-trap';

function thrower(): never {
  throw new Error(SECRET);
}

/** A Proxy whose every trap throws (over an Error, so a careless check would take it for one). */
function trapEverything(): object {
  return new Proxy(new Error(SECRET), {
    get: thrower,
    getPrototypeOf: thrower,
    has: thrower,
    ownKeys: thrower,
    getOwnPropertyDescriptor: thrower,
    defineProperty: thrower,
    set: thrower,
    deleteProperty: thrower,
    isExtensible: thrower,
    preventExtensions: thrower,
    setPrototypeOf: thrower,
  });
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable(new Error(SECRET), {});
  revoke();
  return proxy;
}

function hostileGetters(): object {
  const value = new Error(SECRET);
  for (const key of ['message', 'name', 'stack', 'cause', 'code']) Object.defineProperty(value, key, { get: thrower });
  Object.defineProperty(value, 'toString', { value: thrower });
  Object.defineProperty(value, Symbol.toPrimitive, { value: thrower });
  return value;
}

/** An error class whose instanceof check throws, as a @FailsOn rule would meet it. */
class Touchy extends Error {
  static override [Symbol.hasInstance](): boolean {
    throw new Error(SECRET);
  }
}

const HOSTILE: Array<[string, () => unknown]> = [
  ['a Proxy whose every trap throws', trapEverything],
  ['a revoked Proxy', revoked],
  ['an error whose message, name, stack, toString and toPrimitive throw', hostileGetters],
  ['a thenable whose then getter throws', () => ({ get then() { return thrower(); } })],
];

let next: () => unknown = trapEverything;

@Tool({ name: 'explode', error: 'Could not do it' })
@FailsOn(Touchy, 'touchy')
class Explode {
  call() {
    throw next();
  }
}

@Tool({ name: 'explode_async' })
class ExplodeAsync {
  async call() {
    await Promise.resolve();
    throw next();
  }
}

@Tool({ name: 'return_hostile' })
class ReturnHostile {
  call() {
    return next(); // awaited by the invoker: a thenable with a throwing getter, a Proxy…
  }
}

const reported: unknown[] = [];
const quiet: ExceptionHandler = (error) => reported.push(error);

beforeEach(() => (reported.length = 0));

describe.each(HOSTILE)('%s', (_label, make) => {
  beforeEach(() => (next = make));

  it('thrown (sync or async): an exception outcome with the generic message, reported once', async () => {
    for (const tool of [Explode, ExplodeAsync]) {
      const result = await new Invoker({ onException: quiet }).invoke(tool);
      expect(result.outcome).toBe('exception');
      expect(result.error).toBe(tool === Explode ? 'Could not do it' : 'Something went wrong');
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(Invoker.inputInvalid(result)).toBe(false);
    }
    expect(reported).toHaveLength(2);
  });

  it('returned instead of thrown: never escapes either', async () => {
    const result = await new Invoker({ onException: quiet }).invoke(ReturnHostile);
    expect(['success', 'exception']).toContain(result.outcome);
    expect(String(result.error)).not.toContain(SECRET);
  });

  it('the default onException handler (console.error) survives it, and so does a handler that throws it back', async () => {
    const printed: unknown[][] = [];
    // Formats exactly as console.error does (util.format), which itself throws on some of these values.
    const spy = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      printed.push([format(...args)]);
    });
    try {
      configure({ onException: undefined });
      expect((await invoke(Explode)).outcome).toBe('exception');
      configure({
        onException: (error) => {
          throw error;
        },
      });
      expect((await invoke(Explode)).outcome).toBe('exception');
    } finally {
      configure({ onException: undefined });
      spy.mockRestore();
    }
    expect(printed.length).toBeGreaterThanOrEqual(2);
    expect(printed.every(([line]) => String(line).startsWith('toolwright: '))).toBe(true);
  });

  it('over MCP: a tool error with the generic message, the server still serving', async () => {
    const { client, close } = await connectInMemory({ name: 'hostile', version: '1', tools: [Explode], invoker: { onException: quiet } });
    try {
      for (let i = 0; i < 2; i++) {
        expect(await client.callTool({ name: 'explode', arguments: {} })).toEqual({
          isError: true,
          content: [{ type: 'text', text: 'Could not do it' }],
        });
      }
    } finally {
      await close();
    }
  });

  it('Toolbox and the AI SDK: a failed record with the generic message', async () => {
    const toolbox = new Toolbox([Explode], { invoker: new Invoker({ onException: quiet }) });
    const [record] = await toolbox.invokeAll([{ id: 'a', name: 'explode', arguments: '{}' }]);
    expect(record).toMatchObject({ status: 'failed', output: 'Could not do it' });
    const tools = toAiSdkTools(toolbox);
    const error = await Promise.resolve(tools.explode.execute!({}, { toolCallId: 't', messages: [] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallFailedError);
    expect((error as Error).message).toBe('Could not do it');
  });
});

describe('checks that meet hostile values', () => {
  it('describeValue (used in every error message) never throws and stays one short line', () => {
    expect(describeValue(trapEverything())).toBe('a value that cannot be described');
    expect(describeValue(revoked())).toBe('a value that cannot be described');
    expect(describeValue('x'.repeat(100_000))).toBe(`'${'x'.repeat(199)}…'`);
    expect(describeValue(Array.from({ length: 1_000 }, (_, i) => i))).toBe('[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, … 990 more]');
    let deep: unknown[] = [];
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(describeValue(deep)).toBe('[[[[…]]]]');
  });

  it('a @FailsOn rule whose instanceof throws is skipped, not fatal', async () => {
    next = () => new Error('plain');
    const result = await new Invoker({ onException: quiet }).invoke(Explode);
    expect(result).toMatchObject({ outcome: 'exception', error: 'Could not do it' });
  });

  it('a fail() still reads as a failure after all this', async () => {
    next = () => {
      try {
        fail('no such loan');
      } catch (error) {
        return error;
      }
    };
    expect((await invoke(Explode)).error).toBe('Could not do it: no such loan');
  });

  it('an aborted call whose tool throws a hostile value is still a cancellation', async () => {
    next = trapEverything;
    @Tool({ name: 'abort_then_explode' }) @Expects({}) class AbortThenExplode {
      async call(_input: unknown, { signal }: { signal: AbortSignal }) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        throw next();
      }
    }
    const controller = new AbortController();
    const pending = new Invoker({ onException: quiet }).invoke(AbortThenExplode, {}, { signal: controller.signal });
    controller.abort();
    expect((await pending).error).toBe('The call was cancelled.');
  });
});
