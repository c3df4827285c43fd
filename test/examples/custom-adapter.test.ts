import 'reflect-metadata';
import { AmbientContext, configure, Exposes, Expects, Field, SemanticHints, Tool, ToolwrightError, fail } from 'toolwright';
import { ChatAdapter, ChatAdapterError, ChatConfig } from '../../examples/custom-adapter/chat-adapter';

class Note {
  @Field() title!: string;
  @AmbientContext() userId!: string;
}

class Saved {
  @Field() id!: string;
  @Field() owner!: string;
  @Field({ optional: true }) when?: Date;
}

class Opaque {
  constructor(readonly inner = 1) {}
}

@Tool('chat', { error: 'Could not save the note' })
@SemanticHints('ephemeral')
@Expects(Note)
@Exposes(Saved)
class SaveNote {
  call(input: Note) {
    if (input.title === 'forbidden') fail('that title is taken');
    if (input.title === 'broken') return { id: 'n', owner: input.userId, when: new Opaque() };
    return { id: 'n-1', owner: input.userId };
  }
}

@Tool({ adapters: { chat: { presentAs: 'message' } }, success: 'Pinged!' })
class Ping {
  call() {
    return {};
  }
}

describe('an adapter written with the adapter kit alone', () => {
  beforeAll(() => configure({ onException: () => undefined }));
  afterAll(() => configure({ onException: undefined }));

  it('enumerates its members and wraps them', () => {
    const commands = ChatAdapter.tools();
    expect(commands.map((c) => [c.command, c.ephemeral])).toEqual([
      ['/ping', false],
      ['/save_note', true],
    ]);
    expect(commands[1].parameters).toEqual({
      type: 'object',
      properties: { title: { type: 'string', minLength: 1 } },
      required: ['title'],
      additionalProperties: false,
    });
  });

  it('runs through the invoker with trusted ambient values, and maps results', async () => {
    const save = ChatAdapter.wrap(SaveNote);
    const user = { id: 'u-7', team: 't-1' };
    expect(await save.run({ title: 'Groceries' }, user)).toEqual({ text: '{"id":"n-1","owner":"u-7"}', data: { id: 'n-1', owner: 'u-7' } });
    expect(await save.run({ title: 'forbidden' }, user)).toEqual({ text: 'Could not save the note: that title is taken', error: true });
    expect(await save.run({ title: 'x', userId: 'evil' }, user)).toEqual({ text: 'Could not save the note: unknown input: userId', error: true });
    expect(await save.run({ title: 'broken' }, user)).toEqual({ text: 'Could not save the note', error: true });
    expect(await ChatAdapter.wrap(Ping).run({}, user)).toEqual({ text: 'Pinged!' });
  });

  it('the response guard turns a mapping failure into the adapter’s own error reply', async () => {
    // No declared shape, and an opaque value: serializeExposed refuses it when the setting says so.
    @Tool('chat') class Leaky { call() { return { handle: new Opaque() }; } }
    const leaky = ChatAdapter.wrap(Leaky);
    const user = { id: 'u', team: 't' };
    expect(await leaky.run({}, user)).toEqual({ text: '{"handle":{"inner":1}}', data: { handle: { inner: 1 } } });
    ChatConfig.set('rejectOpaqueExposedValues', true);
    try {
      expect(await leaky.run({}, user)).toEqual({ text: 'The tool could not produce a valid response', error: true });
    } finally {
      ChatConfig.reset();
    }
  });

  it('its errors are in the toolwright family', () => {
    expect(new ChatAdapterError('x')).toBeInstanceOf(ToolwrightError);
  });
});
