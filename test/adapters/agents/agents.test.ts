/**
 * toolwright/agents: the toolbox's functions as OpenAI Agents SDK function tools, run by the SDK's own
 * Runner against its ScriptedModel (no network): calls through the toolbox with its ambient values,
 * failures and content as the model reads them, and approvals as the SDK's interruptions.
 */
import 'reflect-metadata';
import { Agent, run, RunState } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { AmbientContext, Content, Expects, Exposes, Field, Tool } from 'toolwright';
import { approvalQuestionOf, toAgentsTools } from 'toolwright/agents';
import { serveHttp } from 'toolwright/mcp';
import { McpSecurityPolicy } from 'toolwright/mcp-client';
import { Toolbox } from 'toolwright/toolbox';
import { loanDeskServer } from '../../../examples/loan-desk/server';
import '../../../examples/loan-desk/tools';

class DeleteInput {
  @Field() path!: string;
}

class NoteInput {
  @Field({ description: 'What to note' }) text!: string;
  @Field({ optional: true }) tag?: string;
  @AmbientContext() user!: string;
}

class NoteOutput {
  @Field() saved!: string;
  @Field() by!: string;
}

const deleted: string[] = [];

@Tool('openai', { name: 'delete_file', approval: (input: DeleteInput) => input.path.startsWith('/etc') })
@Expects(DeleteInput)
class DeleteFile {
  call(input: DeleteInput) {
    deleted.push(input.path);
  }
}

@Tool('openai', { name: 'add_note', description: 'Adds a note' })
@Expects(NoteInput)
@Exposes(NoteOutput)
class AddNote {
  call(input: NoteInput): NoteOutput {
    return { saved: `${input.text}${input.tag ? ` #${input.tag}` : ''}`, by: input.user };
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

/** The function_call_result items the model was handed, by call id: their output as the SDK sent it. */
function outputs(model: ScriptedModel): Record<string, unknown> {
  const items = (model.lastCall?.request.input ?? []) as Array<{ type?: string; callId?: string; output?: unknown }>;
  return Object.fromEntries(items.filter((item) => item.type === 'function_call_result').map((item) => [item.callId!, item.output]));
}

describe('toAgentsTools', () => {
  it('lists each function as a tool with its JSON Schema, strict as the toolbox says, no ambient field', () => {
    const [note] = toAgentsTools(new Toolbox([AddNote]));
    expect(note).toMatchObject({ type: 'function', name: 'add_note', description: 'Adds a note', strict: false });
    expect(Object.keys(note.parameters.properties)).toEqual(['text', 'tag']);
    const [strictNote] = toAgentsTools(new Toolbox([AddNote]), { strict: true });
    expect(strictNote.strict).toBe(true);
    expect(strictNote.parameters).toMatchObject({ additionalProperties: false, required: ['text', 'tag'] });
  });

  it('runs the loop: calls through the toolbox with its ambient values (never the model\'s); a failure reaches the model as text', async () => {
    const toolbox = new Toolbox([AddNote], { ambientContext: { user: 'u-7' } });
    const model = new ScriptedModel([
      [
        functionCall('add_note', { text: 'milk' }, { callId: 'c1' }),
        functionCall('add_note', { text: 'eggs', user: 'mallory' }, { callId: 'c2' }),
        functionCall('add_note', { tag: 3 }, { callId: 'c3' }),
      ],
      [assistantMessage('Noted.')],
    ]);
    const agent = new Agent({ name: 'notes', instructions: 'Take notes.', model, tools: toAgentsTools(toolbox) });
    const result = await run(agent, 'Note milk');
    expect(result.finalOutput).toBe('Noted.');
    const sent = outputs(model);
    expect(sent.c1).toEqual({ type: 'text', text: '{"saved":"milk","by":"u-7"}' });
    expect(sent.c2).toEqual({ type: 'text', text: 'Invalid tool arguments: unknown input: user' });
    expect(sent.c3).toEqual({ type: 'text', text: expect.stringMatching(/^Invalid tool arguments: .*text/) });
  });

  it('strict: a null for an optional field is absent', async () => {
    const model = new ScriptedModel([[functionCall('add_note', { text: 'tea', tag: null }, { callId: 's1' })], [assistantMessage('ok')]]);
    const tools = toAgentsTools(new Toolbox([AddNote], { ambientContext: { user: 'u-1' } }), { strict: true });
    await run(new Agent({ name: 'notes', model, tools }), 'Note tea');
    expect(outputs(model).s1).toEqual({ type: 'text', text: '{"saved":"tea","by":"u-1"}' });
  });

  it('content: an image reaches the model as the SDK\'s image output', async () => {
    const model = new ScriptedModel([[functionCall('snapshot', {}, { callId: 'i1' })], [assistantMessage('A pixel.')]]);
    await run(new Agent({ name: 'eyes', model, tools: toAgentsTools(new Toolbox([Snapshot])) }), 'Look');
    expect(outputs(model).i1).toEqual([{ type: 'input_image', image: `data:image/png;base64,${PIXEL}` }]);
  });

  it('names what is wrong with its arguments', () => {
    expect(() => toAgentsTools({} as Toolbox)).toThrow(/toAgentsTools: expected a Toolbox/);
    expect(() => toAgentsTools(new Toolbox([AddNote]), { only: ['nope'] })).toThrow(/no function named 'nope'/);
    expect(() => toAgentsTools(new Toolbox([AddNote]), { strikt: true } as never)).toThrow(/toAgentsTools.*strikt/);
  });
});

describe('Agents SDK approvals', () => {
  const ask = (callId: string, path: string) =>
    new ScriptedModel([[functionCall('delete_file', { path }, { callId })], [assistantMessage('Done.')]]);

  it('a call that needs approval interrupts the run; approved, it runs once; the question is the toolbox\'s', async () => {
    const model = ask('a1', '/etc/passwd');
    const tools = toAgentsTools(new Toolbox([DeleteFile]));
    const agent = new Agent({ name: 'files', model, tools });
    const first = await run(agent, 'Delete it');
    expect(first.interruptions).toHaveLength(1);
    expect(deleted).toEqual([]);
    const [item] = first.interruptions;
    expect(approvalQuestionOf(tools, item)).toBe('Allow the tool delete_file to run with these arguments?\npath: "/etc/passwd"');
    expect(approvalQuestionOf(toAgentsTools(new Toolbox([DeleteFile])), item)).toBeUndefined();
    first.state.approve(item);
    const second = await run(agent, first.state);
    expect(second.finalOutput).toBe('Done.');
    expect(deleted).toEqual(['/etc/passwd']);
  });

  it('a call the rule does not flag runs at once; a rejected one never runs', async () => {
    const tools = toAgentsTools(new Toolbox([DeleteFile]));
    await run(new Agent({ name: 'files', model: ask('a2', '/tmp/x'), tools }), 'Clean');
    expect(deleted).toEqual(['/tmp/x']);
    const model = ask('a3', '/etc/hosts');
    const agent = new Agent({ name: 'files', model, tools });
    const first = await run(agent, 'Delete hosts');
    first.state.reject(first.interruptions[0]);
    await run(agent, first.state);
    expect(deleted).toEqual(['/tmp/x']);
  });

  it('a call whose arguments changed after its approval was asked (a restored state) does not run; the model is told why', async () => {
    const model = ask('a4', '/etc/passwd');
    const tools = toAgentsTools(new Toolbox([DeleteFile]));
    const agent = new Agent({ name: 'files', model, tools });
    const first = await run(agent, 'Delete it');
    const saved = first.state.toString().split('/etc/passwd').join('/etc/shadow');
    const state = await RunState.fromString(agent, saved);
    state.approve(state.getInterruptions()[0]);
    await run(agent, state);
    expect(deleted).toEqual([]);
    expect(outputs(model).a4).toEqual({ type: 'text', text: expect.stringMatching(/changed after its approval was requested/) });
  });
});

describe('a remote MCP server through the loop', () => {
  it('its tools, mounted in the toolbox, are Agents SDK tools the model calls', async () => {
    const http = await serveHttp(loanDeskServer, { port: 0 });
    const toolbox = new Toolbox();
    try {
      const security = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });
      await toolbox.addMcpServer('desk', { url: http.url }, { security });
      const model = new ScriptedModel([[functionCall('mcp__desk__check_credit', { applicant: 'Grace Hopper' }, { callId: 'r1' })], [assistantMessage('768.')]]);
      const tools = toAgentsTools(toolbox, { only: ['mcp__desk__check_credit'] });
      const result = await run(new Agent({ name: 'desk', model, tools }), 'Credit?');
      expect(result.finalOutput).toBe('768.');
      expect(JSON.parse((outputs(model).r1 as { text: string }).text)).toMatchObject({ score: 768 });
    } finally {
      await toolbox.close();
      await http.close();
    }
  });
});
