/**
 * A second copy of toolwright's modules in the same process (jest.isolateModules loads every module
 * again, as a nested install would): it shares the first copy's catalog, default registry,
 * extensions and adapter settings. test/package/two-copies.test.ts does the same with two installed
 * copies of the packed package, including one of an incompatible version.
 */
import 'reflect-metadata';
import { Expects, invoke, Tool, ToolDefinition, Tools } from 'toolwright';
import { defineAdapterConfig, Extensions } from 'toolwright/kit';

type Toolwright = typeof import('toolwright') & typeof import('toolwright/kit');

function secondCopy(): Toolwright {
  let copy: Toolwright | undefined;
  jest.isolateModules(() => {
    copy = { ...require('toolwright'), ...require('toolwright/kit') } as Toolwright;
  });
  return copy!;
}

const copy = secondCopy();

describe('a second copy of the modules', () => {
  it('is really a second copy (its own classes), sharing the default registry', () => {
    expect(copy.Tool).not.toBe(Tool);
    expect(copy.ToolRegistry).not.toBe(Tools.constructor);
    expect(copy.Tools).toBe(Tools);
  });

  it('sees tools declared with the first copy, and the first sees the second copy’s, and either one calls them', async () => {
    class SecondCopyEcho {
      call(input: { text: string }) {
        return { text: input.text };
      }
    }
    Tool('second-copy', { description: 'Echoes' })(SecondCopyEcho);
    Expects({ text: { type: String } })(SecondCopyEcho);
    class SecondCopyShout {
      call(input: { text: string }) {
        return { text: input.text.toUpperCase() };
      }
    }
    copy.Tool('second-copy', { description: 'Shouts' })(SecondCopyShout);
    copy.Expects({ text: { type: String } })(SecondCopyShout);
    Tools.registerAdapter('second-copy');

    const names = (registry: typeof Tools) => registry.forAdapter('second-copy').map((definition) => definition.toolName());
    expect(names(copy.Tools)).toEqual(['second_copy_echo', 'second_copy_shout']);
    // A registry made by the second copy reads the same catalog.
    const own = new copy.ToolRegistry().registerAdapter('second-copy');
    expect(names(own)).toEqual(['second_copy_echo', 'second_copy_shout']);

    // A definition made by either copy is a ToolDefinition to both, so either invoker calls it.
    const [echo, shout] = Tools.forAdapter('second-copy');
    expect(echo).toBeInstanceOf(copy.ToolDefinition);
    expect(own.describe(SecondCopyEcho)).toBeInstanceOf(ToolDefinition);
    expect(await copy.invoke(echo, { text: 'hi' })).toMatchObject({ ok: true, value: { text: 'hi' } });
    expect(await invoke(own.resolve(shout), { text: 'hi' })).toMatchObject({ ok: true, value: { text: 'HI' } });
    expect({ toolName: () => 'forged' }).not.toBeInstanceOf(ToolDefinition);
  });

  it('shares the extension sets', () => {
    copy.Extensions.registerSemanticHint('secondCopyHint');
    expect(Extensions.isSemanticHint('secondCopyHint')).toBe(true);
  });

  it('shares an adapter’s settings when the same adapter declares its namespace again through the second copy', () => {
    const first = defineAdapterConfig('second-copy-settings', { verbose: { default: false } });
    const again = copy.defineAdapterConfig('second-copy-settings', { verbose: { default: false } });
    first.set('verbose', true);
    expect(again.get('verbose')).toBe(true);
    // Within one copy a namespace is still declared once.
    expect(() => defineAdapterConfig('second-copy-settings', { verbose: { default: false } })).toThrow(
      "defineAdapterConfig: the namespace 'second-copy-settings' is already declared.",
    );
  });

  it('refuses a second copy that declares the namespace with other settings, naming both', () => {
    defineAdapterConfig('second-copy-clash', { verbose: { default: false } });
    expect(() => copy.defineAdapterConfig('second-copy-clash', { quiet: { default: true } })).toThrow(
      /^defineAdapterConfig: the namespace 'second-copy-clash' is already declared by another copy of toolwright \(.+\) with the settings 'verbose'; this copy \(.+\) declares 'quiet'\. Install one version of the adapter and of toolwright \(npm ls toolwright\)\.$/,
    );
  });
});
