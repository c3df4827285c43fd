/**
 * Content beyond text: images, audio, embedded resources, resource links and mixed lists, with or
 * without an @Exposes contract, mapped by MCP (content blocks), the Toolbox (Chat Completions text
 * fallback, Responses API parts) and the AI SDK (its content output).
 */
import 'reflect-metadata';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Content, Exposes, invoke, Tool } from 'toolwright';
import { toAiSdkTools } from 'toolwright/ai';
import { Toolbox, toMessages } from 'toolwright/openai';
import { connectInMemory } from '../helpers/mcp';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const PNG_BASE64 = Buffer.from(PNG).toString('base64');

/** A chart: text, an image, a link and an embedded PDF, no contract. */
@Tool({ description: 'Draws a chart' })
class DrawChart {
  call() {
    return Content.of(
      Content.text('Sales by month:'),
      Content.image(PNG, 'image/png'),
      Content.link({ uri: 'file:///reports/sales.csv', name: 'sales.csv', mimeType: 'text/csv' }),
      Content.resource({ uri: 'file:///reports/sales.pdf', mimeType: 'application/pdf', bytes: Buffer.from('%PDF') }),
    );
  }
}

/** A structured value with an audio clip beside it. */
@Tool({ description: 'Speaks the total' })
@Exposes({ total: Number })
class SpeakTotal {
  call() {
    return Content.with({ total: 42 }, Content.audio(Buffer.from('RIFF'), 'audio/wav'));
  }
}

/** An array of parts is a mixed list too. */
@Tool({ description: 'Two notes' })
class TwoNotes {
  call() {
    return [Content.text('one'), Content.resource({ uri: 'memo://2', text: 'two' })];
  }
}

describe('Content constructors', () => {
  it('encode bytes as base64 and keep base64 strings', () => {
    expect(Content.image(PNG, 'image/png').parts).toEqual([{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }]);
    expect(Content.image(PNG_BASE64, 'image/png').parts[0]).toEqual(Content.image(PNG.buffer, 'image/png').parts[0]);
  });

  it('refuse what they cannot carry, naming the constructor and the rule', () => {
    expect(() => Content.image(PNG, 'audio/wav')).toThrow("Content.image(bytes, mimeType): mimeType must be an image type like 'image/png'; got 'audio/wav'.");
    expect(() => Content.audio('not base64!', 'audio/wav')).toThrow(
      "Content.audio(bytes, mimeType): a string must be base64 (or pass the bytes as a Uint8Array); got 'not base64!'.",
    );
    expect(() => Content.image(42 as never, 'image/png')).toThrow(
      'Content.image(bytes, mimeType): the bytes must be a Uint8Array (a Buffer), an ArrayBuffer or a base64 string; got 42.',
    );
    expect(() => Content.resource({ uri: 'memo://1' })).toThrow('give exactly one of text (a string) and bytes');
    expect(() => Content.resource({ uri: 'memo://1', text: 'a', bytes: PNG })).toThrow('give exactly one of text (a string) and bytes');
    expect(() => Content.link({ uri: 'relative/path', name: 'x' })).toThrow(
      "Content.link({ uri, name, … }): uri must be an absolute URI like 'file:///report.pdf'; got 'relative/path'.",
    );
    expect(() => Content.of({ type: 'text', text: 'forged' } as never)).toThrow(
      'Content.of: part 0 must be built with Content.* (text, image, audio, resource, link)',
    );
  });
});

describe('invoke()', () => {
  it('puts the parts on the Result, and the Content.with value through the contract', async () => {
    const chart = await invoke(DrawChart);
    expect(chart.ok).toBe(true);
    expect(chart.value).toBeUndefined();
    expect(chart.content?.map((part) => part.type)).toEqual(['text', 'image', 'resource_link', 'resource']);
    const total = await invoke(SpeakTotal);
    expect(total.value).toEqual({ total: 42 });
    expect(total.content).toEqual([{ type: 'audio', data: Buffer.from('RIFF').toString('base64'), mimeType: 'audio/wav' }]);
  });

  it('content without the value an @Exposes contract needs breaks the contract', async () => {
    @Tool({ description: 'Forgets its value' })
    @Exposes({ total: Number })
    class Forgets {
      call() {
        return Content.text('no value');
      }
    }
    const result = await invoke(Forgets, {}, { onException: () => undefined });
    expect(result.outcome).toBe('exception');
  });
});

describe('MCP', () => {
  it('answers with the content blocks; with a contract, structuredContent, its JSON text, then the blocks', async () => {
    const { client, close } = await connectInMemory({ name: 'content', version: '1', tools: [DrawChart, SpeakTotal, TwoNotes] });
    try {
      expect((await client.callTool({ name: 'draw_chart', arguments: {} })).content).toEqual([
        { type: 'text', text: 'Sales by month:' },
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///reports/sales.csv', name: 'sales.csv', mimeType: 'text/csv' },
        { type: 'resource', resource: { uri: 'file:///reports/sales.pdf', mimeType: 'application/pdf', blob: Buffer.from('%PDF').toString('base64') } },
      ]);
      const spoken = await client.callTool({ name: 'speak_total', arguments: {} });
      expect(spoken.structuredContent).toEqual({ total: 42 });
      expect(spoken.content).toEqual([
        { type: 'text', text: '{"total":42}' },
        { type: 'audio', data: Buffer.from('RIFF').toString('base64'), mimeType: 'audio/wav' },
      ]);
      expect((await client.callTool({ name: 'two_notes', arguments: {} })).content).toEqual([
        { type: 'text', text: 'one' },
        { type: 'resource', resource: { uri: 'memo://2', text: 'two' } },
      ]);
    } finally {
      await close();
    }
  });
});

describe('function calling', () => {
  it('Chat Completions gets text, with one-line stand-ins for what it cannot carry', async () => {
    const toolbox = new Toolbox([DrawChart]);
    const record = await toolbox.invoke({ id: 'c1', type: 'function', function: { name: 'draw_chart', arguments: '{}' } });
    expect(record.output).toBe(
      [
        'Sales by month:',
        '[image: image/png, 7 bytes, not shown]',
        '[resource link: sales.csv <file:///reports/sales.csv>]',
        '[resource file:///reports/sales.pdf (application/pdf), not shown]',
      ].join('\n'),
    );
    expect(toMessages([record])).toEqual([{ role: 'tool', tool_call_id: 'c1', content: record.output }]);
  });

  it('the Responses API gets the image and the file themselves', async () => {
    const toolbox = new Toolbox([DrawChart, SpeakTotal]);
    const records = await toolbox.invokeAll([
      { type: 'function_call', call_id: 'r1', name: 'draw_chart', arguments: '{}' },
      { type: 'function_call', call_id: 'r2', name: 'speak_total', arguments: '{}' },
    ]);
    const [chart, total] = toMessages(records);
    expect(chart.output).toEqual([
      { type: 'input_text', text: 'Sales by month:' },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG_BASE64}`, detail: 'auto' },
      { type: 'input_text', text: '[resource link: sales.csv <file:///reports/sales.csv>]' },
      { type: 'input_file', file_data: `data:application/pdf;base64,${Buffer.from('%PDF').toString('base64')}`, filename: 'sales.pdf' },
    ]);
    // Audio has no Responses part: the text, with the value's JSON first.
    expect(total.output).toBe('{"total":42}\n[audio: audio/wav, 4 bytes, not shown]');
  });

  it('the AI SDK hands the model its content output: image-data, file-data and text', async () => {
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const prompts: unknown[] = [];
    const turns = [
      {
        content: [{ type: 'tool-call' as const, toolCallId: 't1', toolName: 'draw_chart', input: '{}' }],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      { content: [{ type: 'text' as const, text: 'Done.' }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] },
    ];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt);
        return turns.shift()!;
      },
    });
    await generateText({ model, tools: toAiSdkTools([DrawChart]), prompt: 'Chart it', stopWhen: stepCountIs(3) });
    const toolMessage = (prompts[1] as Array<{ role: string; content: Array<{ output: unknown }> }>).find((message) => message.role === 'tool')!;
    expect(toolMessage.content[0].output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'Sales by month:' },
        { type: 'image-data', data: PNG_BASE64, mediaType: 'image/png' },
        { type: 'text', text: '[resource link: sales.csv <file:///reports/sales.csv>]' },
        { type: 'file-data', data: Buffer.from('%PDF').toString('base64'), mediaType: 'application/pdf', filename: 'sales.pdf' },
      ],
    });
  });
});
