/**
 * toolwright/kit's own helpers, as a third-party adapter uses them: the unknown-option check, the
 * per-call option check, the loopback rule and the shared default invoker.
 */
import 'reflect-metadata';
import { DeclarationError, Expects, Exposes, invoke, Invoker, Tool } from 'toolwright';
import { checkCallOptions, checkKnownKeys, checkOptionsObject, DEFAULT_ERROR, defaultInvoker, isLoopbackHost } from 'toolwright/kit';
import { MCP_ADAPTER } from 'toolwright/mcp';
import { OPENAI_ADAPTER } from 'toolwright/openai';
import { Tools } from 'toolwright';
import { isolatedRegistry } from 'toolwright/testing';

describe('checkKnownKeys', () => {
  it('passes an object whose keys are all known, whatever their values', () => {
    expect(() => checkKnownKeys('toChat', { only: undefined, strict: true }, ['only', 'strict'])).not.toThrow();
    expect(() => checkKnownKeys('toChat', {}, [])).not.toThrow();
  });

  it('names where, the first unknown key and the known ones: a TypeError', () => {
    expect(() => checkKnownKeys('toChat', { strcit: true, other: 1 }, ['only', 'strict'])).toThrow(
      new TypeError("toChat: unknown option 'strcit'. Known options: only, strict."),
    );
  });

  it('takes any iterable of known keys (a Set too), and words the message as asked', () => {
    const known = new Set(['command', 'args']);
    expect(() => checkKnownKeys("MCP server 'a'", { argv: [] }, known, { noun: 'key' })).toThrow(
      "MCP server 'a': unknown key 'argv'. Known keys: command, args.",
    );
    expect(() => checkKnownKeys('auth', { a: 1, b: 2 }, ['x', 'y', 'z'], { all: true, heading: 'Known', quoted: true })).toThrow(
      "auth: unknown options 'a' and 'b'. Known: 'x', 'y' and 'z'.",
    );
    expect(() => checkKnownKeys('@Chat', { name: 'x' }, ['key'], { instead: "The only option is 'key'." })).toThrow(
      "@Chat: unknown option 'name'. The only option is 'key'.",
    );
  });

  it('keeps the message short for 100,000 unknown keys and for a key a megabyte long', () => {
    const many = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    let message = '';
    try {
      checkKnownKeys('toChat', many, ['only'], { all: true });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe("toChat: unknown options 'k0', 'k1', 'k2', 'k3', 'k4' and 99995 more. Known options: only.");
    const long = { ['x'.repeat(1_000_000)]: 1 };
    expect(() => checkKnownKeys('toChat', long, ['only'])).toThrow(/^toChat: unknown option 'x{79}…'\. Known options: only\.$/);
  });

  it('checks own enumerable keys only: an inherited or a symbol key is no option', () => {
    const options = Object.assign(Object.create({ inherited: 1 }) as object, { only: [] });
    expect(() => checkKnownKeys('toChat', options, ['only'])).not.toThrow();
    expect(() => checkKnownKeys('toChat', { [Symbol('s')]: 1 }, ['only'])).not.toThrow();
  });
});

describe('checkOptionsObject', () => {
  const known = new Set(['only', 'strict']);

  it('takes undefined as no options, and returns a plain object with known keys as it is', () => {
    expect(checkOptionsObject('toChat', undefined, known)).toEqual({});
    const options = { strict: true };
    expect(checkOptionsObject('toChat', options, known)).toBe(options);
  });

  it('refuses what is not a plain object, and an unknown key, with a DeclarationError naming it', () => {
    for (const bad of [null, 42, 'strict', ['only'], new Map()]) {
      expect(() => checkOptionsObject('toChat', bad, known)).toThrow(/^toChat: options must be an object; got /);
    }
    expect(() => checkOptionsObject('toChat', { strcit: true }, known)).toThrow("toChat: unknown option 'strcit'. Known options: only, strict.");
    expect(() => checkOptionsObject('toChat', 42, known)).toThrow(DeclarationError);
  });
});

describe('checkCallOptions', () => {
  it('passes absent and well-formed per-call options', () => {
    expect(() => checkCallOptions('chat.run', {})).not.toThrow();
    expect(() =>
      checkCallOptions('chat.run', { ambientContext: new Map(), signal: new AbortController().signal, approve: () => true, context: {} }),
    ).not.toThrow();
  });

  it.each([
    ['ambientContext', 'abc', "chat.run: 'ambientContext' must be a Map or an object keyed by ambient key; got 'abc'."],
    ['container', {}, "chat.run: 'container' must be a tsyringe DependencyContainer; got {}."],
    ['signal', 'stop', "chat.run: 'signal' must be an AbortSignal; got 'stop'."],
    ['approve', true, "chat.run: 'approve' must be a function (call) => boolean | { approved, reason }; got true."],
  ])('refuses a bad %s, naming it', (option, value, message) => {
    expect(() => checkCallOptions('chat.run', { [option]: value })).toThrow(new TypeError(message));
  });
});

describe('isLoopbackHost: 127.0.0.0/8, ::1 and localhost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'localhost:3000',
    '127.0.0.1',
    '127.1.2.3',
    '127.255.255.255:80',
    '127.1',
    '0x7f.1',
    '::1',
    '[::1]',
    '[::1]:8080',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '[::FFFF:127.9.9.9]:1',
  ])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    '',
    '0.0.0.0',
    '128.0.0.1',
    '10.0.0.1',
    '::',
    '::2',
    '[::ffff:128.0.0.1]',
    'localhost.evil.example',
    '127.0.0.1.nip.io',
    'evil.example',
    'evil.example:127',
    '127.0.0.1 evil.example',
    'http://127.0.0.1',
    'user@127.0.0.1',
    '127.0.0.1/path',
    '1'.repeat(1_000_000),
  ])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it('refuses what is not a string instead of throwing', () => {
    for (const value of [undefined, null, 127, { toString: () => 'localhost' }]) expect(isLoopbackHost(value as never)).toBe(false);
  });
});

describe('defaultInvoker', () => {
  beforeEach(() => isolatedRegistry());

  it('is an Invoker that runs a tool as invoke() does', async () => {
    @Tool({ description: 'Adds one' })
    @Expects({ n: Number })
    @Exposes({ n: Number })
    class AddOne {
      call(input: { n: number }) {
        return { n: input.n + 1 };
      }
    }
    expect(defaultInvoker).toBeInstanceOf(Invoker);
    const [direct, shared] = await Promise.all([invoke(AddOne, { n: 1 }), defaultInvoker.invoke(AddOne, { n: 1 })]);
    expect(shared).toMatchObject({ ok: true, value: { n: 2 } });
    expect(shared.value).toEqual(direct.value);
  });

  it('is frozen: one adapter cannot replace its methods for every other', () => {
    expect(Object.isFrozen(defaultInvoker)).toBe(true);
    expect(() => {
      (defaultInvoker as { invoke: unknown }).invoke = () => undefined;
    }).toThrow(TypeError);
  });
});

describe('the adapter keys and the default message', () => {
  it('toolwright/mcp and toolwright/openai name their keys as constants and register them on import', () => {
    expect([MCP_ADAPTER, OPENAI_ADAPTER]).toEqual(['mcp', 'openai']);
    expect(Tools.adapters()).toEqual(expect.arrayContaining([MCP_ADAPTER, OPENAI_ADAPTER]));
  });

  it('DEFAULT_ERROR is what a tool without an error headline says when it breaks', async () => {
    @Tool({ description: 'Breaks' })
    @Expects({})
    class Breaks {
      call(): never {
        throw new Error('internal detail');
      }
    }
    const result = await invoke(Breaks, {}, { onException: () => undefined });
    expect(result.error).toBe(DEFAULT_ERROR);
    expect(DEFAULT_ERROR).toBe('Something went wrong');
  });
});
