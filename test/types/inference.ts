/**
 * Type-level tests: compiled by `tsc -p tsconfig.json` (part of `npm test`), never run. An
 * inference that regresses fails the build: each `Expect<Equal<…>>` needs the two types to be
 * identical, and each `@ts-expect-error` needs the line under it to be an error.
 */
import 'reflect-metadata';
import {
  ContractType,
  defineTool,
  describeTool,
  Exposes,
  Expects,
  Field,
  Integer,
  invoke,
  Invoker,
  SettledResult,
  Tool,
  ToolOutput,
} from 'toolwright';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

class Tag {
  @Field() label!: string;
}
class Quote {
  @Field() price!: number;
}

@Tool()
@Expects({ symbol: String })
@Exposes(Quote)
class GetQuote {
  async call(input: { symbol: string }): Promise<Quote> {
    return { price: input.symbol.length };
  }
}

@Tool()
@Expects({})
class Ping {
  call() {
    return 'pong' as const;
  }
}

@Tool({ method: 'run' })
@Expects({ q: String })
class Runner {
  run(input: { q: string }) {
    return input.q;
  }
}

export async function invokeInfersTheEntryMethodsAwaitedReturnType() {
  const quote = await invoke(GetQuote, { symbol: 'ACME' });
  type _quote = Expect<Equal<typeof quote, SettledResult<Quote>>>;
  type _value = Expect<Equal<typeof quote.value, Quote | undefined>>;
  const pong = await invoke(Ping);
  type _pong = Expect<Equal<typeof pong, SettledResult<'pong'>>>;
  const viaInvoker = await new Invoker().invoke(GetQuote, {});
  type _invoker = Expect<Equal<typeof viaInvoker, SettledResult<Quote>>>;

  // Another entry method name, a ToolDefinition: unknown, and an explicit type still wins.
  const run = await invoke(Runner, { q: 'x' });
  type _run = Expect<Equal<typeof run, SettledResult<unknown>>>;
  const definition = await invoke(describeTool(GetQuote), {});
  type _definition = Expect<Equal<typeof definition, SettledResult<unknown>>>;
  const explicit = await invoke<string>(describeTool(Runner), { q: 'x' });
  type _explicit = Expect<Equal<typeof explicit, SettledResult<string>>>;
  type _output = Expect<Equal<ToolOutput<typeof GetQuote>, Quote>>;

  // `ok` narrows: the value on success, the user-facing error otherwise.
  if (quote.ok) {
    type _narrowed = Expect<Equal<typeof quote.value, Quote>>;
  } else {
    type _error = Expect<Equal<typeof quote.error, string>>;
  }
  // @ts-expect-error: the value is a Quote, not a string
  const wrong: string | undefined = quote.value;
  return [wrong];
}

export async function defineToolInfersTheInputFromTheInlineShape() {
  const search = defineTool(
    {
      name: 'search',
      expects: {
        q: String,
        n: Number,
        page: Integer,
        tags: [String],
        opt: { type: String, optional: true },
        limit: { type: Integer, optional: true, default: 10 },
        since: Date,
        owner: Tag,
        owners: { type: () => [Tag] },
        nested: { type: () => Quote, nullable: true },
        either: { anyOf: () => [Tag, Quote] },
        tier: { enum: ['standard', 'express'] },
        flag: { type: Boolean, default: false },
        officer: { type: String, ambient: true },
      },
    },
    (input) => {
      type _input = Expect<
        Equal<
          typeof input,
          {
            q: string;
            n: number;
            page: number;
            tags: string[];
            opt?: string;
            limit: number;
            since: Date;
            owner: Tag;
            owners: Tag[];
            nested?: Quote | null;
            either: Tag | Quote;
            tier: 'standard' | 'express';
            flag: boolean;
            officer: string;
          }
        >
      >;
      // @ts-expect-error: an optional field may be absent
      const length: number = input.opt.length;
      // @ts-expect-error: no such field
      void input.missing;
      return { hits: [input.q], length };
    },
  );
  const result = await invoke(search, { q: 'x' });
  type _result = Expect<Equal<typeof result, SettledResult<{ hits: string[]; length: number }>>>;

  // A DTO class, a thunk to one, and no contract at all.
  const fromClass = defineTool({ name: 'from_class', expects: Quote }, (input) => input.price);
  type _fromClass = Expect<Equal<Parameters<InstanceType<typeof fromClass>['call']>[0], Quote>>;
  const fromThunk = defineTool({ name: 'from_thunk', expects: () => Quote }, async (input) => input.price);
  type _fromThunk = Expect<Equal<Awaited<ReturnType<InstanceType<typeof fromThunk>['call']>>, number>>;
  const none = defineTool({ name: 'none' }, (input) => input);
  type _none = Expect<Equal<Parameters<InstanceType<typeof none>['call']>[0], Record<string, never>>>;
  type _contract = Expect<Equal<ContractType<{ a: [typeof Integer]; b: { type: typeof String; nullable: true; default: 'x' } }>, { a: number[]; b: string | null }>>;

  // @ts-expect-error: q is a string
  defineTool({ name: 'bad', expects: { q: String } }, (input) => input.q.toFixed());
  return [fromClass, fromThunk, none];
}
