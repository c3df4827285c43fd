/**
 * Input built to break the invoker: nested thousands deep, hundreds of thousands of unknown keys,
 * strings that are not Unicode. Every transport answers with a bounded input failure, and nothing
 * reaches onException.
 */
import { ArrayMaxSize, IsString, MaxLength } from 'class-validator';
import {
  configure,
  Expects,
  Exposes,
  Field,
  InputValidationError,
  invoke,
  Invoker,
  Tool,
  UnserializableValueError,
} from 'toolwright';
import { toAiSdkTools, ToolCallFailedError } from 'toolwright/ai';
import { Toolbox } from 'toolwright/openai';
import { connectInMemory } from '../helpers/mcp';

const reported: unknown[] = [];
beforeAll(() => configure({ onException: (error) => reported.push(error) }));
afterAll(() => configure({ onException: undefined }));
beforeEach(() => (reported.length = 0));

/** A self-referential input contract: a tree of any depth is valid by its schema. */
class TreeNode {
  @Field({ optional: true }) label?: string;
  @Field({ type: () => TreeNode, optional: true }) child?: TreeNode;
  @Field({ type: () => [TreeNode], optional: true }) children?: TreeNode[];
}

let ran = 0;

@Tool({ name: 'walk_tree', error: 'Could not walk the tree' })
@Expects(TreeNode)
class WalkTree {
  call(input: TreeNode) {
    ran++;
    return { label: input.label ?? null };
  }
}

/** `{ child: { child: … { label } } }`, `levels` objects deep counting the outermost, as JSON text sends it. */
function nested(levels: number, leaf: Record<string, unknown> = {}): Record<string, unknown> {
  let text = JSON.stringify(leaf);
  text = '{"child":'.repeat(levels - 1) + text + '}'.repeat(levels - 1);
  return JSON.parse(text);
}

beforeEach(() => (ran = 0));

describe('input depth is bounded (maxInputDepth, default 64)', () => {
  const DEPTH_FAILURE = 'Could not walk the tree: the input is nested deeper than 64 levels';

  it('3,000 levels (60 KB of JSON) is an input failure naming the limit, not a stack overflow', async () => {
    const args = nested(3_000);
    expect(JSON.stringify(args).length).toBeGreaterThan(27_000);
    const result = await invoke(WalkTree, args);
    expect(result.outcome).toBe('failure');
    expect(result.error).toBe(DEPTH_FAILURE);
    expect(result.fieldErrors).toEqual([{ field: 'base', message: 'the input is nested deeper than 64 levels', keyword: 'depth', params: { limit: 64 } }]);
    expect(result.exception).toBeInstanceOf(InputValidationError);
    expect(Invoker.inputInvalid(result)).toBe(true);
    expect(ran).toBe(0);
    expect(reported).toEqual([]);
  });

  it('64 levels pass, 65 do not; arrays count as levels', async () => {
    expect((await invoke(WalkTree, nested(64, { label: 'leaf' }))).value).toEqual({ label: null });
    expect((await invoke(WalkTree, nested(65))).error).toBe(DEPTH_FAILURE);
    // { children: [ {…} ] }: each array is a level of its own.
    let value: Record<string, unknown> = {};
    for (let level = 1; level < 33; level++) value = { children: [value] };
    expect(JSON.stringify(value).length).toBeGreaterThan(0);
    expect((await invoke(WalkTree, value)).error).toBe(DEPTH_FAILURE);
  });

  it('the limit is an option, and the check runs before anything else reads the input', async () => {
    const shallow = new Invoker({ maxInputDepth: 3 });
    expect((await shallow.invoke(WalkTree, nested(3))).ok).toBe(true);
    expect((await shallow.invoke(WalkTree, nested(4))).error).toBe('Could not walk the tree: the input is nested deeper than 3 levels');
    // Deep input under an unknown key is refused just the same: no step ever walks it.
    expect((await invoke(WalkTree, { junk: nested(5_000) })).error).toBe(DEPTH_FAILURE);
  });

  it('an in-process cycle or heavily shared object is bounded too', async () => {
    const cycle: Record<string, unknown> = { label: 'a' };
    cycle.child = cycle;
    expect((await invoke(WalkTree, cycle)).error).toBe(DEPTH_FAILURE);
    // 40 levels of an object listed twice: 2^40 paths, walked in bounded time.
    let shared: Record<string, unknown> = {};
    for (let level = 0; level < 40; level++) shared = { child: shared, children: [shared] };
    const result = await invoke(WalkTree, shared);
    expect(result.error).toBe(DEPTH_FAILURE);
  });

  it.each([0, -1, 1.5, 1_001, '64', Infinity])('maxInputDepth %p is refused when the invoker is built', (maxInputDepth) => {
    expect(() => new Invoker({ maxInputDepth: maxInputDepth as number })).toThrow(
      new TypeError(`Invoker: maxInputDepth must be a whole number from 1 to 1000; got ${typeof maxInputDepth === 'string' ? `'${maxInputDepth}'` : maxInputDepth}.`),
    );
  });

  it('the MCP handler answers it as a tool error (SDK Client over InMemoryTransport)', async () => {
    const { client, close } = await connectInMemory({ name: 'deep', version: '1', tools: [WalkTree] });
    try {
      const answer = await client.callTool({ name: 'walk_tree', arguments: nested(3_000) });
      expect(answer).toEqual({
        isError: true,
        content: [{ type: 'text', text: DEPTH_FAILURE }],
        _meta: { fieldErrors: [{ field: 'base', message: 'the input is nested deeper than 64 levels' }] },
      });
      // The server still serves.
      expect(await client.callTool({ name: 'walk_tree', arguments: { label: 'x' } })).toEqual({ content: [{ type: 'text', text: '{"label":"x"}' }] });
    } finally {
      await close();
    }
    expect(ran).toBe(1);
  });

  it('Toolbox.invoke gives a failed record, and invokeAll keeps the rest of the batch', async () => {
    const toolbox = new Toolbox([WalkTree]);
    const deep = JSON.stringify(nested(3_000));
    const record = await toolbox.invoke({ id: 'c1', name: 'walk_tree', arguments: deep });
    expect(record).toMatchObject({ status: 'failed', output: 'Invalid tool arguments: the input is nested deeper than 64 levels' });
    const records = await toolbox.invokeAll([
      { id: 'a', name: 'walk_tree', arguments: deep },
      { id: 'b', name: 'walk_tree', arguments: '{"label":"ok"}' },
    ]);
    expect(records.map((r) => r.status)).toEqual(['failed', 'completed']);
    expect(records[1].output).toBe('{"label":"ok"}');
  });

  it('the AI SDK execute reports it as the tool’s error', async () => {
    const tools = toAiSdkTools([WalkTree]);
    const execute = tools.walk_tree.execute!;
    const error = await Promise.resolve(execute(nested(3_000), { toolCallId: 't1', messages: [] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallFailedError);
    expect((error as Error).message).toBe('Invalid tool arguments: the input is nested deeper than 64 levels');
  });
});

describe('unknown keys and long problem lists are answered in bounded size', () => {
  class Tags {
    @IsString({ each: true }) @MaxLength(3, { each: true }) @ArrayMaxSize(1_000_000) tags!: string[];
    @Field({ optional: true }) note?: string;
  }
  @Tool({ name: 'tag' }) @Expects(Tags) class Tag {
    call() {
      ran++;
    }
  }

  it('300,000 unknown keys (3.3 MB): five by name and a count, in the message and the field errors', async () => {
    const args: Record<string, unknown> = { tags: ['a'] };
    for (let i = 0; i < 300_000; i++) args[`k${i}`] = i;
    expect(JSON.stringify(args).length).toBeGreaterThan(3_000_000);
    const result = await invoke(Tag, args);
    expect(result.error).toBe('unknown inputs: k0, k1, k2, k3, k4 and 299,995 more');
    expect(result.fieldErrors).toEqual([
      { field: 'k0', message: 'unknown input: k0', keyword: 'unknown', params: {} },
      { field: 'k1', message: 'unknown input: k1', keyword: 'unknown', params: {} },
      { field: 'k2', message: 'unknown input: k2', keyword: 'unknown', params: {} },
      { field: 'k3', message: 'unknown input: k3', keyword: 'unknown', params: {} },
      { field: 'k4', message: 'unknown input: k4', keyword: 'unknown', params: {} },
      { field: 'base', message: 'and 299,995 more unknown inputs', keyword: 'unknown', params: { count: 299_995 } },
    ]);
    expect(JSON.stringify(result).length).toBeLessThan(1_000);
    expect(ran).toBe(0);
  });

  it('five or fewer keep the one-message-each form', async () => {
    const result = await invoke(Tag, { tags: ['a'], x: 1, y: 2 });
    expect(result.error).toBe('unknown input: x and unknown input: y');
  });

  it('a nested object’s unknown keys are capped the same way', async () => {
    class Box {
      @Field({ type: () => TreeNode }) node!: TreeNode;
    }
    @Tool({ name: 'box' }) @Expects(Box) class BoxTool {
      call() {}
    }
    const node: Record<string, unknown> = {};
    for (let i = 0; i < 50_000; i++) node[`n${i}`] = i;
    const result = await invoke(BoxTool, { node });
    expect(result.error).toBe('unknown inputs: node.n0, node.n1, node.n2, node.n3, node.n4 and 49,995 more');
    expect(JSON.stringify(result).length).toBeLessThan(1_000);
  });

  it('an unknown key a megabyte long is shortened in the answer', async () => {
    const key = 'k'.repeat(1_000_000);
    const result = await invoke(Tag, { tags: ['a'], [key]: 1 });
    expect(result.error).toBe(`unknown input: ${'k'.repeat(79)}…`);
    expect(JSON.stringify(result).length).toBeLessThan(1_000);
  });

  it('100,000 invalid array items (ajv allErrors): twenty problems listed, the rest counted', async () => {
    const result = await invoke(Tag, { tags: Array.from({ length: 100_000 }, () => 'too long') });
    expect(result.outcome).toBe('failure');
    expect(result.fieldErrors).toHaveLength(21);
    expect(result.fieldErrors[0]).toEqual({ field: 'tags[0]', message: 'each value in tags[0] must be shorter than or equal to 3 characters', keyword: 'maxLength', params: { limit: 3 } });
    expect(result.fieldErrors[19]).toEqual({ field: 'tags[19]', message: 'each value in tags[19] must be shorter than or equal to 3 characters', keyword: 'maxLength', params: { limit: 3 } });
    expect(result.fieldErrors[20]).toEqual({ field: 'base', message: 'and 99,980 more problems', keyword: 'truncated', params: { count: 99_980 } });
    expect(result.error).toMatch(/^each value in tags\[0\] must be shorter than or equal to 3 characters, .* and 99,980 more problems$/);
    // Twenty-one entries, each with its keyword and params: bounded, whatever the input's size.
    expect(JSON.stringify(result).length).toBeLessThan(6_500);
  });

  it('unknown keys and other problems together', async () => {
    const args: Record<string, unknown> = { tags: ['a'], note: 5 };
    for (let i = 0; i < 7; i++) args[`k${i}`] = i;
    const result = await invoke(Tag, args);
    expect(result.error).toBe('unknown inputs: k0, k1, k2, k3, k4 and 2 more and note must be a string');
  });
});

describe('in-process arguments that cannot be read', () => {
  it('a Proxy or a throwing getter as arguments is an exception outcome, never a rejection', async () => {
    const thrower = () => {
      throw new Error('getter secret');
    };
    const proxy = new Proxy({}, { getPrototypeOf: thrower, ownKeys: thrower, get: thrower });
    const getter = Object.defineProperty({}, 'label', { enumerable: true, get: thrower });
    for (const args of [proxy, getter, { child: getter }]) {
      const result = await invoke(WalkTree, args);
      expect(result.outcome).toBe('exception');
      expect(result.error).toBe('Could not walk the tree');
    }
    expect(reported).toHaveLength(3);
    expect(ran).toBe(0);
  });
});

describe('over MCP, a wide call gets a small answer', () => {
  it('10,000 unknown arguments: five named, the rest counted, in the text and in _meta.fieldErrors', async () => {
    const { client, close } = await connectInMemory({ name: 'wide', version: '1', tools: [WalkTree] });
    try {
      const args: Record<string, unknown> = {};
      for (let i = 0; i < 10_000; i++) args[`x${i}`] = 'y'.repeat(10);
      const answer = await client.callTool({ name: 'walk_tree', arguments: args });
      expect(answer.content).toEqual([{ type: 'text', text: 'Could not walk the tree: unknown inputs: x0, x1, x2, x3, x4 and 9,995 more' }]);
      expect((answer._meta as { fieldErrors: unknown[] }).fieldErrors).toHaveLength(6);
      expect(JSON.stringify(answer).length).toBeLessThan(1_000);
    } finally {
      await close();
    }
  });
});

describe('strings that are not Unicode are refused at the input boundary', () => {
  @Tool({ name: 'echo' }) @Expects({ text: String, extra: { type: Object, optional: true } }) @Exposes({ text: String })
  class Echo {
    call({ text }: { text: string }) {
      ran++;
      return { text };
    }
  }

  it('a lone surrogate from the wire (JSON "\\ud800") is an input failure, never a reported bug', async () => {
    const args = JSON.parse('{"text":"abc\\ud800"}');
    expect(args.text.isWellFormed()).toBe(false);
    const result = await invoke(Echo, args);
    expect(result.outcome).toBe('failure');
    expect(result.fieldErrors).toEqual([
      { field: 'text', message: 'text contains an unpaired UTF-16 surrogate, which is not valid Unicode text', keyword: 'unpairedSurrogate', params: {} },
    ]);
    expect(ran).toBe(0);
    expect(reported).toEqual([]);
  });

  it('anywhere in the input, keys included', async () => {
    const nestedValue = await invoke(Echo, JSON.parse('{"text":"ok","extra":{"list":["fine","\\udc00"]}}'));
    expect(nestedValue.fieldErrors).toEqual([
      { field: 'extra.list[1]', message: 'extra.list[1] contains an unpaired UTF-16 surrogate, which is not valid Unicode text', keyword: 'unpairedSurrogate', params: {} },
    ]);
    const key = await invoke(Echo, JSON.parse('{"text":"ok","extra":{"\\ud800":1}}'));
    expect(key.fieldErrors).toEqual([
      { field: 'extra', message: 'extra has a key with an unpaired UTF-16 surrogate, which is not valid Unicode text', keyword: 'unpairedSurrogate', params: {} },
    ]);
    const topKey = await invoke(Echo, JSON.parse('{"text":"ok","\\ud800":1}'));
    expect(topKey.fieldErrors).toEqual([
      { field: 'base', message: 'the input has a key with an unpaired UTF-16 surrogate, which is not valid Unicode text', keyword: 'unpairedSurrogate', params: {} },
    ]);
    expect(reported).toEqual([]);
  });

  it('paired surrogates (emoji) are fine', async () => {
    expect((await invoke(Echo, { text: 'ok 😀' })).value).toEqual({ text: 'ok 😀' });
  });

  it('a tool that makes one up itself is still a reported bug', async () => {
    @Tool({ name: 'broken' }) @Exposes({ text: String }) class Broken {
      call() {
        return { text: '😀'.slice(0, 1) };
      }
    }
    const result = await invoke(Broken);
    expect(result.outcome).toBe('exception');
    expect(reported).toEqual([expect.any(UnserializableValueError)]);
  });

  it('over MCP, an echo of one can no longer flood onException', async () => {
    const { client, close } = await connectInMemory({ name: 'echo', version: '1', tools: [Echo] });
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await client.callTool({ name: 'echo', arguments: JSON.parse('{"text":"\\ud800"}') });
        expect(answer).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('unpaired UTF-16 surrogate') }] });
      }
    } finally {
      await close();
    }
    expect(reported).toEqual([]);
  });
});

describe('output depth', () => {
  class Chain {
    @Field({ type: () => Chain, optional: true }) next?: Chain;
  }
  function chain(levels: number): Chain {
    let value: Chain = {};
    for (let i = 1; i < levels; i++) value = { next: value };
    return value;
  }

  it('a tool returning a 10,000-deep value is an exception naming the limit, not a stack overflow', async () => {
    @Tool({ name: 'deep_out' }) @Exposes(Chain) class DeepOut {
      call() {
        return chain(10_000);
      }
    }
    const result = await invoke(DeepOut);
    expect(result.outcome).toBe('exception');
    expect(result.error).toBe('Something went wrong');
    expect(result.exception).toBeInstanceOf(UnserializableValueError);
    expect((result.exception as Error).message).toBe('next.next.next… is nested deeper than 1000 levels, which no JSON answer should be.');
    expect(reported).toHaveLength(1);
  });

  it('900 levels still render', async () => {
    @Tool({ name: 'deep_ok' }) @Exposes(Chain) class DeepOk {
      call() {
        return chain(900);
      }
    }
    expect((await invoke(DeepOk)).ok).toBe(true);
  });

  it('without @Exposes, over MCP: a mapping failure, reported, the server still serving', async () => {
    @Tool({ name: 'loose_deep' }) class LooseDeep {
      call() {
        return chain(10_000);
      }
    }
    const { client, close } = await connectInMemory({ name: 'loose', version: '1', tools: [LooseDeep] });
    try {
      expect(await client.callTool({ name: 'loose_deep', arguments: {} })).toEqual({
        isError: true,
        content: [{ type: 'text', text: 'The tool could not produce a valid response' }],
      });
    } finally {
      await close();
    }
    expect(reported).toEqual([expect.any(UnserializableValueError)]);
  });
});
