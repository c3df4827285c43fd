/**
 * `@Field({ sensitive: true })` values never reach a sink in clear, at any depth the field model
 * can nest them: a nested class, an array of them (and an array of arrays), a union member (a class,
 * a class nested in a member, an array member), and under optional + nullable. Each form goes
 * through every sink: the approval question (in process and over MCP elicitation), the audit
 * record, the onException arguments, and the call's span.
 */
import 'reflect-metadata';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { audit, AuditRecord, Expects, Field, Invoker, Tool } from 'toolwright';
import { createMcpServer } from 'toolwright/mcp';

class Card {
  @Field() holder!: string;
  @Field({ sensitive: true }) pan!: string;
}

class Bank {
  @Field() bank!: string;
  @Field({ sensitive: true }) iban!: string;
}

class Wallet {
  @Field() provider!: string;
  @Field({ type: () => Card }) card!: Card;
}

class PayInput {
  @Field({ type: () => Card, optional: true }) card?: Card;
  @Field({ type: () => [Card], optional: true }) cards?: Card[];
  @Field({ type: () => [[Card]], optional: true }) grid?: Card[][];
  @Field({ anyOf: () => [Card, Bank], optional: true }) method?: Card | Bank;
  @Field({ anyOf: () => [Wallet, Bank], optional: true }) source?: Wallet | Bank;
  @Field({ anyOf: () => [[Card], String], optional: true }) cardsOrNote?: Card[] | string;
  @Field({ type: () => Card, optional: true, nullable: true }) backup?: Card | null;
}

@Tool({ name: 'pay', approval: 'required' })
@Expects(PayInput)
class Pay {
  call() {
    throw new Error('the payment provider is down');
  }
}

const card = (pan: string) => ({ holder: 'Ada', pan });
const redactedCard = { holder: 'Ada', pan: '[redacted]' };

/** Each nesting form: the arguments (one secret inside) and what every sink must show instead. */
const FORMS: ReadonlyArray<[form: string, secret: string, args: Record<string, unknown>, shown: Record<string, unknown>, line: string]> = [
  ['nested class', 'PAN-NESTED', { card: card('PAN-NESTED') }, { card: redactedCard }, 'card: { holder: "Ada", pan: "[redacted]" }'],
  ['array of class', 'PAN-ARRAY', { cards: [card('ok'), card('PAN-ARRAY')] }, { cards: [redactedCard, redactedCard] }, 'cards: [{ holder: "Ada", pan: "[redacted]" }, { holder: "Ada", pan: "[redacted]" }]'],
  ['array of arrays', 'PAN-GRID', { grid: [[card('PAN-GRID')]] }, { grid: [[redactedCard]] }, 'grid: [[{ holder: "Ada", pan: "[redacted]" }]]'],
  ['union member (class)', 'PAN-UNION', { method: card('PAN-UNION') }, { method: redactedCard }, 'method: { holder: "Ada", pan: "[redacted]" }'],
  ['union member (other class)', 'IBAN-UNION', { method: { bank: 'B', iban: 'IBAN-UNION' } }, { method: { bank: 'B', iban: '[redacted]' } }, 'method: { bank: "B", iban: "[redacted]" }'],
  [
    'class nested in a union member',
    'PAN-IN-WALLET',
    { source: { provider: 'W', card: card('PAN-IN-WALLET') } },
    { source: { provider: 'W', card: redactedCard } },
    'source: { provider: "W", card: { holder: "Ada", pan: "[redacted]" } }',
  ],
  ['array union member', 'PAN-UNION-ARRAY', { cardsOrNote: [card('PAN-UNION-ARRAY')] }, { cardsOrNote: [redactedCard] }, 'cardsOrNote: [{ holder: "Ada", pan: "[redacted]" }]'],
  ['optional + nullable', 'PAN-BACKUP', { backup: card('PAN-BACKUP') }, { backup: redactedCard }, 'backup: { holder: "Ada", pan: "[redacted]" }'],
];

const exporter = new InMemorySpanExporter();
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterAll(() => {
  trace.disable();
  context.disable();
});

describe.each(FORMS)('a sensitive field (%s)', (_form, secret, args, shown, line) => {
  it('is redacted in the approval question, the audit record, the onException arguments and the span', async () => {
    exporter.reset();
    const records: AuditRecord[] = [];
    const reported: unknown[] = [];
    const questions: unknown[] = [];
    const invoker = new Invoker({
      middleware: [audit((record) => void records.push(record))],
      onException: (_error, { args: reportedArgs }) => void reported.push(reportedArgs),
    });
    const result = await invoker.invoke(Pay, args, {
      approve: (call) => {
        questions.push(call.redactedInput());
        return true;
      },
    });
    expect(result.outcome).toBe('exception'); // the call ran (approved), and threw

    expect(questions).toEqual([shown]);
    expect(records.map((record) => record.input)).toEqual([shown]);
    expect(reported).toEqual([shown]);
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(0);
    const everything = JSON.stringify({ questions, records, reported, spans: spans.map(({ attributes, events }) => ({ attributes, events })) });
    expect(everything).not.toContain(secret);
  });

  it('is redacted in the question an MCP client is asked (elicitation)', async () => {
    const server = createMcpServer({ name: 'pay', version: '1.0.0', tools: [Pay] });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'decline' };
    });
    await client.connect(clientTransport);
    try {
      const result = await client.callTool({ name: 'pay', arguments: args });
      expect(result.isError).toBe(true);
    } finally {
      await client.close();
    }
    expect(asked).toEqual([`Allow the tool pay to run with these arguments?\n${line}`]);
    expect(asked[0]).not.toContain(secret);
  });
});

describe('a class reached only through a cycle', () => {
  it('still has its sensitive fields redacted in exception reports (the cycle does not hide them)', async () => {
    // Holder reaches Account, which refers back to Holder: the secret lives in Holder only.
    class Account {
      @Field() id!: string;
      @Field({ type: () => Holder, optional: true }) owner?: unknown; // (Holder is declared below)
    }
    class Holder {
      @Field({ type: () => Account, optional: true }) account?: Account;
      @Field({ sensitive: true }) ssn!: string;
    }
    @Tool({ name: 'open_holder' }) @Expects(Holder) class OpenHolder {
      call() {
        throw new Error('down');
      }
    }
    @Tool({ name: 'open_account' }) @Expects(Account) class OpenAccount {
      call() {
        throw new Error('down');
      }
    }
    const reported: unknown[] = [];
    const invoker = new Invoker({ onException: (_error, { args: shownArgs }) => void reported.push(shownArgs) });
    await invoker.invoke(OpenHolder, { ssn: 'SSN-1' }); // walks Holder → Account → (Holder: seen)
    await invoker.invoke(OpenAccount, { id: 'a', owner: { ssn: 'SSN-2' } });
    expect(reported).toEqual([{ ssn: '[redacted]' }, { id: 'a', owner: { ssn: '[redacted]' } }]);
  });
});
