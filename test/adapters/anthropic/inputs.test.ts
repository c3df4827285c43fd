/**
 * What `toolwright/anthropic` does with bad input: options and envelopes that are not what they
 * should be are errors naming the value and what to pass; what the model sends never throws.
 */
import 'reflect-metadata';
import { Content, Expects, Field, Tool } from 'toolwright';
import { Toolbox } from 'toolwright/toolbox';
import { toAnthropicTools, toolCalls, toToolResults } from 'toolwright/anthropic';

class LookupInput {
  @Field() id!: string;
}

@Tool({ description: 'Looks a thing up', adapters: { openai: { name: 'lookup' } } })
@Expects(LookupInput)
class Lookup {
  call(input: LookupInput) {
    return { id: input.id };
  }
}

@Tool({ description: 'A picture in a format a tool result cannot carry, and a PDF', adapters: { openai: { name: 'odd_picture' } } })
class OddPicture {
  call() {
    return Content.of(Content.image(Buffer.from('BM'), 'image/bmp'), Content.resource({ uri: 'file:///r/a.pdf', mimeType: 'application/pdf', bytes: Buffer.from('%PDF') }));
  }
}

describe('toolwright/anthropic with bad input', () => {
  const toolbox = new Toolbox([Lookup, OddPicture]);

  it.each([
    [{ strict: 'yes' }, "toAnthropicTools: 'strict' must be true or false; got 'yes'."],
    [{ toolSearch: 'vector' }, "toAnthropicTools: 'toolSearch' must be 'bm25' or 'regex'; got 'vector'."],
    [{ core: ['lookup'] }, "toAnthropicTools: 'core' names the tools loaded up front with Anthropic's tool search; pass toolSearch: 'bm25' or 'regex' too."],
    [{ toolSearch: 'bm25', core: ['nope'] }, "toAnthropicTools: 'core' names 'nope', not in this toolbox. Registered: lookup, odd_picture."],
    [{ only: ['lookup', 'nope'] }, "toAnthropicTools: 'only' names 'nope', not in this toolbox. Registered: lookup, odd_picture."],
    [{ only: 'lookup' }, "toAnthropicTools: 'only' must be a list of function names; got 'lookup'."],
    [{ deferLoading: true }, "toAnthropicTools: unknown option 'deferLoading'. Known options: only, strict, toolSearch, core."],
  ])('toAnthropicTools(toolbox, %j) is an error naming what is wrong', (options, message) => {
    expect(() => toAnthropicTools(toolbox, options as never)).toThrow(message);
  });

  it('toAnthropicTools needs a Toolbox', () => {
    expect(() => toAnthropicTools([Lookup] as never)).toThrow("toAnthropicTools: expected a Toolbox (new Toolbox([...]) from 'toolwright/toolbox')");
  });

  it('toolCalls takes a response or its content; a malformed tool_use block is an error naming it; other blocks are passed over', () => {
    const content = [
      { type: 'text', text: 'hi' },
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'x' } },
      { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { id: 'a' } },
    ];
    expect(toolCalls({ content })).toEqual([{ id: 'toolu_1', name: 'lookup', arguments: { id: 'a' } }]);
    expect(toolCalls(content)).toEqual(toolCalls({ content }));
    expect(() => toolCalls('nope' as never)).toThrow("toolCalls: expected a Messages API response or its content blocks; got 'nope'.");
    expect(() => toolCalls([{ type: 'tool_use', id: 7, name: 'lookup' }] as never)).toThrow('toolCalls: tool_use block 0 needs a string id and name');
  });

  it('what the model sends never throws: an unknown tool and arguments that are not an object come back as is_error results', async () => {
    const records = await toolbox.invokeAll(
      toolCalls([
        { type: 'tool_use', id: 'toolu_a', name: 'launch_rockets', input: {} },
        { type: 'tool_use', id: 'toolu_b', name: 'lookup', input: 'not an object' },
      ]),
    );
    expect(toToolResults(records)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_a', content: expect.stringContaining("Unknown tool 'launch_rockets'. Available tools: lookup and odd_picture."), is_error: true },
      { type: 'tool_result', tool_use_id: 'toolu_b', content: expect.stringContaining('Invalid tool arguments'), is_error: true },
    ]);
  });

  it('an image type a tool result cannot carry is its text stand-in; a PDF is a document block', async () => {
    const [result] = toToolResults(await toolbox.invokeAll(toolCalls([{ type: 'tool_use', id: 'toolu_p', name: 'odd_picture', input: {} }])));
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining('image/bmp') },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from('%PDF').toString('base64') } },
    ]);
  });

  it('toToolResults refuses what is not a list of records, naming it', () => {
    expect(() => toToolResults('x' as never)).toThrow("toToolResults: expected the records Toolbox.invokeAll returned; got 'x'.");
    expect(() => toToolResults([{ id: 1 }] as never)).toThrow('toToolResults: record 0 is not a tool call record (from Toolbox.invoke or invokeAll)');
  });
});
