/**
 * Gemini's function calls in and function responses out, with what a model or an application can
 * get wrong: calls without ids or names, malformed sources, records that are not records or still
 * wait for approval, and content parts beside a value.
 */
import 'reflect-metadata';
import { Content, Expects, Exposes, Field, Tool } from 'toolwright';
import { fromGeminiCalls, toFunctionResponses } from 'toolwright/gemini';
import { Toolbox } from 'toolwright/toolbox';

class EchoInput {
  @Field() text!: string;
}

@Tool('openai', { name: 'echo', approval: (input: EchoInput) => input.text === 'ask' })
@Expects(EchoInput)
@Exposes({ text: String })
class Echo {
  call(input: EchoInput) {
    return { text: input.text };
  }
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

@Tool('openai', { name: 'report', description: 'A chart, its total and a note' })
@Exposes({ total: Number })
class Report {
  call() {
    return Content.with({ total: 42 }, Content.image(PNG, 'image/png'), Content.text('Sales are up.'), Content.resource({ uri: 'file:///r.pdf', mimeType: 'application/pdf', bytes: Buffer.from('%PDF') }));
  }
}

describe('fromGeminiCalls', () => {
  it('reads a response, a content’s parts and a list of calls alike; parts without a call are skipped', () => {
    const call = { id: 'fc_1', name: 'echo', args: { text: 'hi' } };
    const expected = [{ id: 'fc_1', name: 'echo', arguments: { text: 'hi' } }];
    expect(fromGeminiCalls({ functionCalls: [call] })).toEqual(expected);
    expect(fromGeminiCalls([{ text: 'thinking…' } as never, { functionCall: call }])).toEqual(expected);
    expect(fromGeminiCalls([call])).toEqual(expected);
    expect(fromGeminiCalls({ functionCalls: undefined })).toEqual([]);
  });

  it('a call without an id, name or args still gives a record the model reads; its response carries no id', async () => {
    const toolbox = new Toolbox([Echo]);
    const records = await toolbox.invokeAll(fromGeminiCalls([{ name: 'echo' }, { args: { text: 'x' } } as never]));
    expect(records.map((record) => [record.status, record.output])).toEqual([
      ['failed', 'Invalid tool arguments: text is required'],
      ['failed', "Unknown tool ''. Available tools: echo."],
    ]);
    expect(toFunctionResponses(records).map((part) => part.functionResponse)).toEqual([
      { name: 'echo', response: { error: 'Invalid tool arguments: text is required' } },
      { name: '', response: { error: "Unknown tool ''. Available tools: echo." } },
    ]);
  });

  it('a source that is none of the shapes is an error saying which shapes', () => {
    expect(() => fromGeminiCalls('echo' as never)).toThrow("fromGeminiCalls: expected a generateContent response (its 'functionCalls'), a content's parts, or a list of function calls { id?, name, args }; got 'echo'.");
    expect(() => fromGeminiCalls({ functionCalls: 'echo' } as never)).toThrow("fromGeminiCalls: 'functionCalls' must be a list; got 'echo'.");
    expect(() => fromGeminiCalls({ functionCalls: [{ id: 7, name: 'echo' }] } as never)).toThrow("fromGeminiCalls: call 0's id must be a string; got 7.");
  });
});

describe('toFunctionResponses', () => {
  it('a value with media: the images and files as inlineData parts, the value and the other parts’ text as output', async () => {
    const [record] = await new Toolbox([Report]).invokeAll([{ id: 'r1', name: 'report', arguments: {} }]);
    expect(toFunctionResponses([record])).toEqual([
      {
        functionResponse: {
          id: 'r1',
          name: 'report',
          response: { output: '{"total":42}\nSales are up.' },
          parts: [
            { inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } },
            { inlineData: { mimeType: 'application/pdf', data: Buffer.from('%PDF').toString('base64') } },
          ],
        },
      },
    ]);
  });

  it('refuses a record still waiting for approval, and anything that is not a record', async () => {
    const toolbox = new Toolbox([Echo]);
    const [pending] = await toolbox.invokeAll([{ id: 'a1', name: 'echo', arguments: { text: 'ask' } }]);
    expect(() => toFunctionResponses([pending])).toThrow(
      'toFunctionResponses: record 0 (echo) is waiting for approval. Answer it first with toolbox.approve(record) or toolbox.deny(record), and send the record that returns.',
    );
    expect(toFunctionResponses([await toolbox.approve(pending)])).toEqual([{ functionResponse: { id: 'a1', name: 'echo', response: { output: { text: 'ask' } } } }]);
    expect(() => toFunctionResponses([{ id: 'x' }] as never)).toThrow('toFunctionResponses: record 0 is not a tool call record (from Toolbox.invoke or invokeAll)');
    expect(() => toFunctionResponses('records' as never)).toThrow("toFunctionResponses: expected the records Toolbox.invokeAll returned; got 'records'.");
  });
});
