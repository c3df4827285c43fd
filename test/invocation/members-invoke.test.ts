import 'reflect-metadata';
import { container, injectable } from 'tsyringe';
import {
  AmbientContext,
  Complete,
  Content,
  Expects,
  Field,
  Integer,
  invoke,
  Invoker,
  Prompt,
  PromptMessages,
  Resource,
  ResourceTemplate,
  ToolRegistry,
} from 'toolwright';
import type { CompletionRequest, ToolContext } from 'toolwright';
import { isolatedRegistry } from 'toolwright/testing';

/** invoke() of each member kind: the same contract, coercion, validation and DI as a tool. */
describe('invoking members', () => {
  let registry: ToolRegistry;
  beforeEach(() => {
    registry = isolatedRegistry();
  });

  class Loans {
    applicantOf(id: number): string {
      return `applicant of ${id}`;
    }
  }

  class ApplicationInput {
    @Field() id!: number;
    @AmbientContext() officer!: string;
  }

  @injectable()
  class LoanDesk {
    constructor(private readonly loans: Loans) {}

    @Resource('loans://policy', { mimeType: 'text/markdown' })
    policy() {
      return '# Lending policy';
    }

    @ResourceTemplate('loans://applications/{id}')
    @Expects(ApplicationInput)
    application(input: ApplicationInput) {
      return { id: input.id, type: typeof input.id, applicant: this.loans.applicantOf(input.id), officer: input.officer };
    }

    @ResourceTemplate('files://docs{/segments*}')
    document(input: { segments: string[] }) {
      return input.segments.join('/');
    }

    @Prompt({ description: 'Review a loan application' })
    @Expects({ applicant: String, amount: { type: Integer, min: 1 }, urgent: { type: Boolean, optional: true } })
    review(input: { applicant: string; amount: number; urgent?: boolean }) {
      return [
        Content.user(`Review ${input.applicant} for ${input.amount} (${typeof input.amount}${input.urgent ? ', urgent' : ''})`),
        Content.assistant('I will look at the credit history first.'),
      ];
    }

    @Complete('applicant', { of: 'review' })
    applicants(request: CompletionRequest) {
      const all = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper'];
      const values = all.filter((name) => name.toLowerCase().startsWith(request.value.toLowerCase()));
      return { values, total: values.length, hasMore: false, context: request.context };
    }
  }

  const member = (method: string) => registry.describe(LoanDesk, method);

  it('a fixed resource reads with no arguments, resolved through DI', async () => {
    expect(await invoke(member('policy'))).toMatchObject({ ok: true, value: '# Lending policy' });
    expect(await invoke(member('policy'), {})).toMatchObject({ ok: true, value: '# Lending policy' });
    const refused = await invoke(member('policy'), { id: 1 });
    expect(refused.ok).toBe(false);
    expect(refused.fieldErrors).toEqual([expect.objectContaining({ field: 'id', keyword: 'unknown' })]);
  });

  it('a class resource reads its context without declaring an input', async () => {
    @Resource('loans://whoami') class WhoAmI { call(_input: unknown, context: ToolContext) { return `read by ${context.tool.id}`; } }
    const result = await invoke(registry.describe(WhoAmI));
    expect([result.ok, result.value]).toEqual([true, 'read by WhoAmI']);
  });

  it('a template variable arrives coerced to its declared type, beside an ambient value', async () => {
    const result = await invoke(member('application'), { id: '42' }, { ambientContext: { officer: 'o-7' } });
    expect(result).toMatchObject({ ok: true, value: { id: 42, type: 'number', applicant: 'applicant of 42', officer: 'o-7' } });
    const bad = await invoke(member('application'), { id: 'forty-two' }, { ambientContext: { officer: 'o-7' } });
    expect([bad.ok, bad.message]).toEqual([false, 'id must be a number conforming to the specified constraints']);
    expect(bad.fieldErrors).toEqual([expect.objectContaining({ field: 'id', keyword: 'type' })]);
    expect(Invoker.inputInvalid(bad)).toBe(true);
  });

  it('without @Expects, each variable is a required string, an exploded one a list of strings', async () => {
    expect(member('document').inputSchema()).toMatchObject({
      properties: { segments: { type: 'array', items: { type: 'string' } } },
      required: ['segments'],
    });
    expect(await invoke(member('document'), { segments: ['guides', 'lending.md'] })).toMatchObject({ ok: true, value: 'guides/lending.md' });
    expect((await invoke(member('document'), {})).fieldErrors).toEqual([expect.objectContaining({ field: 'segments', keyword: 'required' })]);
    @ResourceTemplate('loans://{region}/{id}') class Loan { call(input: unknown) { return input; } }
    expect(registry.describe(Loan).inputSchema()).toMatchObject({ properties: { region: { type: 'string' }, id: { type: 'string' } }, required: ['region', 'id'] });
    expect(await invoke(registry.describe(Loan), { region: 'eu', id: '7' })).toMatchObject({ ok: true, value: { region: 'eu', id: '7' } });
  });

  it('prompt arguments arrive as text and are coerced (a number, a boolean), then validated with field errors', async () => {
    const result = await invoke(member('review'), { applicant: 'Ada', amount: '5000', urgent: 'true' });
    expect(result.ok).toBe(true);
    const value = result.value as PromptMessages[];
    expect(value.every((messages) => messages instanceof PromptMessages)).toBe(true);
    expect(value.flatMap((messages) => messages.messages)).toEqual([
      { role: 'user', content: { type: 'text', text: 'Review Ada for 5000 (number, urgent)' } },
      { role: 'assistant', content: { type: 'text', text: 'I will look at the credit history first.' } },
    ]);
    const bad = await invoke(member('review'), { amount: '0' });
    expect(bad.ok).toBe(false);
    expect(bad).toMatchObject({
      message: 'applicant is required and amount must not be less than 1',
      fieldErrors: [
        { field: 'applicant', keyword: 'required' },
        { field: 'amount', keyword: 'minimum' },
      ],
    });
    expect((await invoke(member('review'), { applicant: 'Ada', amount: 'lots' })).fieldErrors).toEqual([
      expect.objectContaining({ field: 'amount', message: 'amount must be an integer number' }),
    ]);
  });

  it('a completion receives the request (context defaults to {}) and answers its suggestions', async () => {
    expect(await invoke(member('applicants'), { argument: 'applicant', value: 'a' })).toMatchObject({
      ok: true,
      value: { values: ['Ada Lovelace', 'Alan Turing'], total: 2, hasMore: false, context: {} },
    });
    const withContext = await invoke(member('applicants'), { argument: 'applicant', value: 'g', context: { amount: '10' } });
    expect(withContext.value).toEqual({ values: ['Grace Hopper'], total: 1, hasMore: false, context: { amount: '10' } });
    expect((await invoke(member('applicants'), { value: 'a' })).fieldErrors).toEqual([expect.objectContaining({ field: 'argument', keyword: 'required' })]);
    expect(member('applicants').inputSchema()).toMatchObject({ required: ['argument', 'value'] });
  });

  it('a member resolves through a child container passed per call', async () => {
    const child = container.createChildContainer();
    child.register(Loans, { useValue: { applicantOf: (id: number) => `stub ${id}` } });
    const result = await invoke(member('application'), { id: '1' }, { container: child, ambientContext: { officer: 'o' } });
    expect(result).toMatchObject({ ok: true, value: { applicant: 'stub 1' } });
  });
});

describe('Content.user and Content.assistant', () => {
  it('build one message per content part, frozen', () => {
    const said = Content.user(Content.of(Content.text('Look at this'), Content.image(new Uint8Array([1, 2, 3]), 'image/png')));
    expect(said).toBeInstanceOf(PromptMessages);
    expect(said.messages.map((message) => [message.role, message.content.type])).toEqual([
      ['user', 'text'],
      ['user', 'image'],
    ]);
    expect(Object.isFrozen(said)).toBe(true);
    expect(Content.assistant('Sure.').messages).toEqual([{ role: 'assistant', content: { type: 'text', text: 'Sure.' } }]);
  });

  it('refuse what is not text or content, naming what to pass', () => {
    expect(() => Content.user(42 as never)).toThrow(
      'Content.user(text | Content.*): pass the message\'s text, or content built with Content.* (text, image, audio, resource, link); got 42.',
    );
    expect(() => Content.assistant({ text: 'hi' } as never)).toThrow('Content.assistant(text | Content.*): pass the message\'s text');
  });
});
