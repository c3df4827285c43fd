/**
 * toolwright/langchain: the toolbox's functions as LangChain.js tools, bound to @langchain/core's fake
 * chat model that emits tool calls (no network): the loop runs the model's calls through the toolbox
 * (its ambient values, never the model's), feeds the ToolMessages back, and hands the application
 * the record of a call that waits for approval.
 */
import 'reflect-metadata';
import { AIMessage, BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { AmbientContext, Content, Expects, Exposes, Field, Tool } from 'toolwright';
import { recordOf, toLangChainTools, toolMessageOf } from 'toolwright/langchain';
import { serveHttp } from 'toolwright/mcp';
import { McpSecurityPolicy } from 'toolwright/mcp-client';
import { Toolbox } from 'toolwright/toolbox';
import { loanDeskServer } from '../../../examples/loan-desk/server';
import '../../../examples/loan-desk/tools';

class NoteInput {
  @Field({ description: 'What to note' }) text!: string;
  @Field({ optional: true }) tag?: string;
  @AmbientContext() user!: string;
}

class DeleteInput {
  @Field() path!: string;
}

const deleted: string[] = [];

@Tool('openai', { name: 'add_note', description: 'Adds a note' })
@Expects(NoteInput)
@Exposes({ saved: String, by: String })
class AddNote {
  call(input: NoteInput) {
    return { saved: `${input.text}${input.tag ? ` #${input.tag}` : ''}`, by: input.user };
  }
}

@Tool('openai', { name: 'delete_file', approval: (input: DeleteInput) => input.path.startsWith('/etc') })
@Expects(DeleteInput)
class DeleteFile {
  call(input: DeleteInput) {
    deleted.push(input.path);
  }
}

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

@Tool('openai', { name: 'snapshot', description: 'Takes a picture' })
class Snapshot {
  call() {
    return Content.image(PIXEL, 'image/png');
  }
}

beforeEach(() => (deleted.length = 0));

/** The loop: ask the model, run its tool calls, feed the ToolMessages back, until it answers in text. */
async function loop(model: ReturnType<typeof fakeModel>, tools: ReturnType<typeof toLangChainTools>, prompt: string): Promise<BaseMessage[]> {
  const bound = model.bindTools(tools);
  const messages: BaseMessage[] = [new HumanMessage(prompt)];
  for (let turn = 0; turn < 4; turn++) {
    const reply = await bound.invoke(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    for (const call of reply.tool_calls) {
      const tool = tools.find((one) => one.name === call.name)!;
      messages.push(await tool.invoke(call));
    }
  }
  return messages;
}

const toolMessages = (messages: BaseMessage[]) => messages.filter((message): message is ToolMessage => message instanceof ToolMessage);

describe('toLangChainTools', () => {
  it('each function is a tool whose schema is its JSON Schema, as bindTools hands it to the provider', () => {
    const model = fakeModel();
    const [note] = toLangChainTools(new Toolbox([AddNote]));
    expect(note.name).toBe('add_note');
    expect(note.description).toBe('Adds a note');
    expect(Object.keys((note.schema as { properties: object }).properties)).toEqual(['text', 'tag']);
    model.bindTools([note]);
    const [strictNote] = toLangChainTools(new Toolbox([AddNote]), { strict: true });
    expect(strictNote.schema).toMatchObject({ additionalProperties: false, required: ['text', 'tag'] });
  });

  it('runs the loop through the toolbox with its ambient values; a failure is an error message the model reads', async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: 'add_note', args: { text: 'milk' }, id: 'c1' },
        { name: 'add_note', args: { tag: 3 }, id: 'c2' },
      ])
      .respond(new AIMessage('Noted.'));
    const messages = await loop(model, toLangChainTools(new Toolbox([AddNote], { ambientContext: { user: 'u-7' } })), 'Note milk');
    expect(messages.at(-1)?.content).toBe('Noted.');
    const [ok, failed] = toolMessages(messages);
    expect(ok).toMatchObject({ tool_call_id: 'c1', status: 'success', content: '{"saved":"milk","by":"u-7"}' });
    expect(recordOf(ok)).toMatchObject({ status: 'completed', data: { saved: 'milk', by: 'u-7' } });
    // The invoker's own message, not LangChain's schema check's: the toolbox is the one validation.
    expect(failed).toMatchObject({ tool_call_id: 'c2', status: 'error', content: expect.stringMatching(/^Invalid tool arguments: .*text/) });
    // The model read both results on its second turn.
    expect(model.calls[1].messages.filter((message) => message instanceof ToolMessage)).toHaveLength(2);
  });

  it('an ambient value the model sends never reaches the tool', async () => {
    const [note] = toLangChainTools(new Toolbox([AddNote], { ambientContext: { user: 'u-7' } }));
    const message = (await note.invoke({ type: 'tool_call', id: 'm1', name: 'add_note', args: { text: 'x', user: 'mallory' } })) as ToolMessage;
    expect(message).toMatchObject({ status: 'error', content: 'Invalid tool arguments: unknown input: user' });
    // The same through the older call(toolCall).
    const called = (await note.call({ type: 'tool_call', id: 'm2', name: 'add_note', args: { text: 'x', user: 'mallory' } })) as ToolMessage;
    expect(called).toMatchObject({ tool_call_id: 'm2', status: 'error', content: 'Invalid tool arguments: unknown input: user' });
  });

  it('strict: a null for an optional field is absent', async () => {
    const [note] = toLangChainTools(new Toolbox([AddNote], { ambientContext: { user: 'u-1' } }), { strict: true });
    const message = (await note.invoke({ type: 'tool_call', id: 's1', name: 'add_note', args: { text: 'tea', tag: null } })) as ToolMessage;
    expect(message.content).toBe('{"saved":"tea","by":"u-1"}');
  });

  it('content: an image is a standard image block, the record the artifact', async () => {
    const [snap] = toLangChainTools(new Toolbox([Snapshot]));
    const message = (await snap.invoke({ type: 'tool_call', id: 'i1', name: 'snapshot', args: {} })) as ToolMessage;
    expect(message.content).toEqual([{ type: 'image', data: PIXEL, mimeType: 'image/png' }]);
    // Invoked with plain arguments, a tool answers the content alone.
    expect(await snap.invoke({})).toEqual([{ type: 'image', data: PIXEL, mimeType: 'image/png' }]);
  });

  it('names what is wrong with its arguments', () => {
    expect(() => toLangChainTools({} as Toolbox)).toThrow(/toLangChainTools: expected a Toolbox/);
    expect(() => toLangChainTools(new Toolbox([AddNote]), { only: ['nope'] })).toThrow(/no function named 'nope'/);
    expect(() => toLangChainTools(new Toolbox([AddNote]), { strikt: true } as never)).toThrow(/toLangChainTools.*strikt/);
  });
});

describe('LangChain approvals', () => {
  it('a call that needs approval does not run: the app gets the record and question, approves, and sends the answer in its place', async () => {
    const toolbox = new Toolbox([DeleteFile]);
    const tools = toLangChainTools(toolbox);
    const model = fakeModel().respondWithTools([{ name: 'delete_file', args: { path: '/etc/passwd' }, id: 'a1' }]);
    const [call] = (await model.bindTools(tools).invoke([new HumanMessage('Delete it')])).tool_calls!;
    const pending = (await tools[0].invoke(call)) as ToolMessage;
    const record = recordOf(pending)!;
    expect(record.status).toBe('approval_required');
    expect(record.question).toBe('Allow the tool delete_file to run with these arguments?\npath: "/etc/passwd"');
    expect(deleted).toEqual([]);
    const answer = toolMessageOf(await toolbox.approve(record));
    expect(answer).toMatchObject({ tool_call_id: 'a1', status: 'success' });
    expect(deleted).toEqual(['/etc/passwd']);
    expect(() => toolbox.approve(record)).toThrow(/not yet answered/);
  });

  it('a denied call never runs; the model reads why', async () => {
    const toolbox = new Toolbox([DeleteFile]);
    const [del] = toLangChainTools(toolbox);
    const pending = (await del.invoke({ type: 'tool_call', id: 'a2', name: 'delete_file', args: { path: '/etc/hosts' } })) as ToolMessage;
    const answer = toolMessageOf(await toolbox.deny(recordOf(pending)!, 'not today'));
    expect(answer.status).toBe('error');
    expect(String(answer.content)).toMatch(/not today/);
    expect(deleted).toEqual([]);
    expect(recordOf(new AIMessage('hi'))).toBeUndefined();
  });
});

describe('a remote MCP server through the loop', () => {
  it('its tools, mounted in the toolbox, are LangChain tools the model calls', async () => {
    const http = await serveHttp(loanDeskServer, { port: 0 });
    const toolbox = new Toolbox();
    try {
      const security = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });
      await toolbox.addMcpServer('desk', { url: http.url }, { security });
      const model = fakeModel()
        .respondWithTools([{ name: 'mcp__desk__check_credit', args: { applicant: 'Grace Hopper' }, id: 'r1' }])
        .respond(new AIMessage('768.'));
      const messages = await loop(model, toLangChainTools(toolbox, { only: ['mcp__desk__check_credit'] }), 'Credit?');
      expect(messages.at(-1)?.content).toBe('768.');
      expect(recordOf(toolMessages(messages)[0])).toMatchObject({ status: 'completed', data: { score: 768 } });
    } finally {
      await toolbox.close();
      await http.close();
    }
  });
});
