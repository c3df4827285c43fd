/**
 * examples/nest shares its class-validator DTOs between the REST controller and the tools. This
 * differential test sends one table of good and bad payloads to both: the controller over real HTTP
 * (Nest's `ValidationPipe`, on Express and on Fastify) and a tool whose input is the same DTO
 * (toolwright's validation, through `invoke`), and compares what each accepts and, when it refuses,
 * which properties it names.
 */
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Expects, invoke, Tool } from 'toolwright';
import { createLoanDesk, type Platform } from '../../examples/nest/app';
import { ApproveLoanDto, ApproveLoanInput, CreditQueryDto } from '../../examples/nest/dto';

@Tool('mcp', { name: 'credit_dto' })
@Expects(CreditQueryDto)
class CreditDtoTool {
  call(): string {
    return 'accepted';
  }
}

@Tool('mcp', { name: 'approval_dto' })
@Expects(ApproveLoanDto)
class ApprovalDtoTool {
  call(): string {
    return 'accepted';
  }
}

/** The tool the example serves takes the controller's DTO plus the officer from the request. */
@Tool('mcp', { name: 'approval_input' })
@Expects(ApproveLoanInput)
class ApprovalInputTool {
  call(): string {
    return 'accepted';
  }
}

const LOAN = '6f1c9a52-3b0e-4c52-9a8e-1f2d3c4b5a60';
const UNKNOWN_LOAN = '9a7e4d21-8c3a-4f19-b6d2-7e5a9c1f3d42';

/** [label, payload, the properties both must name (none: accepted)]. */
const CREDIT: Array<[string, unknown, string[]]> = [
  ['applicant only', { applicant: 'Ada Lovelace' }, []],
  ['applicant and months', { applicant: 'Grace Hopper', months: 24 }, []],
  ['months at both limits', { applicant: 'A', months: 120 }, []],
  ['applicant of 200 characters', { applicant: 'x'.repeat(200) }, []],
  ['nothing', {}, ['applicant']],
  ['empty applicant', { applicant: '' }, ['applicant']],
  ['applicant a number', { applicant: 42 }, ['applicant']],
  ['applicant an array', { applicant: ['Ada'] }, ['applicant']],
  ['applicant null', { applicant: null }, ['applicant']],
  ['applicant of 201 characters', { applicant: 'x'.repeat(201) }, ['applicant']],
  ['months 0', { applicant: 'A', months: 0 }, ['months']],
  ['months 121', { applicant: 'A', months: 121 }, ['months']],
  ['months not whole', { applicant: 'A', months: 1.5 }, ['months']],
  ['months a string', { applicant: 'A', months: 'many' }, ['months']],
  ['months a boolean', { applicant: 'A', months: true }, ['months']],
  ['an unknown property', { applicant: 'A', score: 850 }, ['score']],
  ['applicant of spaces (not empty)', { applicant: '   ' }, []],
  ['months empty text', { applicant: 'A', months: '' }, ['months']],
  ['two bad properties', { applicant: 7, months: -1 }, ['applicant', 'months']],
];

const APPROVAL: Array<[string, unknown, string[]]> = [
  ['loan and amount', { loanId: UNKNOWN_LOAN, amount: 20_000 }, []],
  ['with a tier', { loanId: UNKNOWN_LOAN, amount: 1, tier: 'express' }, []],
  ['amount at the maximum', { loanId: UNKNOWN_LOAN, amount: 1_000_000 }, []],
  ['nothing', {}, ['amount', 'loanId']],
  ['not a UUID', { loanId: 'loan-1', amount: 100 }, ['loanId']],
  ['amount 0', { loanId: LOAN, amount: 0 }, ['amount']],
  ['amount above the maximum', { loanId: LOAN, amount: 1_000_001 }, ['amount']],
  ['amount not whole', { loanId: LOAN, amount: 10.5 }, ['amount']],
  ['amount a string', { loanId: LOAN, amount: 'lots' }, ['amount']],
  ['unknown tier', { loanId: LOAN, amount: 100, tier: 'rush' }, ['tier']],
  ['the officer in the body', { loanId: LOAN, amount: 100, officerId: 'officer-mallory' }, ['officerId']],
];

/**
 * Where the two differ on purpose (docs/guide/nestjs.md, "Shared DTOs and @nestjs/swagger"): [label, payload, the pipe's verdict, the tool's].
 * - Numeric text for a number: toolwright converts it (models write numbers as text; the handler
 *   still gets a number), the default pipe refuses it. The pipe's `enableImplicitConversion` would
 *   accept it too, but also turns 42 into '42' and true into 1, which toolwright refuses.
 * - null for an `@IsOptional()` field: class-validator skips null; toolwright's schema says the
 *   field may be left out, not that it may be null, and the runtime keeps to the schema (a call
 *   with `nullMeansAbsent` reads the null as left out, and agrees with the pipe).
 */
const DIFFERENCES: Array<[string, unknown, string[], string[]]> = [
  ['months as numeric text', { applicant: 'A', months: '24' }, ['months'], []],
  ['amount as numeric text', { loanId: UNKNOWN_LOAN, amount: '100' }, ['amount'], []],
  ['months null', { applicant: 'A', months: null }, [], ['months']],
];

/** What the tool side refuses: the properties its field errors name (top level). */
async function toolVerdict(tool: Function, payload: unknown, ambientContext?: Record<string, unknown>, nullMeansAbsent = false): Promise<string[]> {
  const result = await invoke(tool as never, payload, { ...(ambientContext ? { ambientContext } : {}), nullMeansAbsent });
  if (result.ok) return [];
  expect(result.fieldErrors.length).toBeGreaterThan(0);
  return [...new Set(result.fieldErrors.map((error) => error.field.split(/[.[]/)[0]))].sort();
}

describe.each<Platform>(['express', 'fastify'])("examples/nest's shared DTOs on %s: ValidationPipe and the tool agree", (platform) => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await createLoanDesk(platform);
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => app.close());

  /** What the controller refuses: [] when its pipe lets the body through (whatever the handler answers then). */
  async function httpVerdict(path: string, payload: unknown): Promise<string[]> {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer dev-token-ada', 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const body = (await response.json()) as { properties?: string[] };
    if (response.status !== 400) return [];
    return [...new Set(body.properties ?? ['(none named)'])].sort();
  }

  it.each(CREDIT)('credit query, %s', async (_label, payload, expected) => {
    const [http, tool] = [await httpVerdict('/credit-checks', payload), await toolVerdict(CreditDtoTool, payload)];
    expect({ http, tool }).toEqual({ http: expected, tool: expected });
  });

  it.each(APPROVAL)('approval, %s', async (_label, payload, expected) => {
    const [http, tool] = [await httpVerdict('/approvals', payload), await toolVerdict(ApprovalDtoTool, payload)];
    expect({ http, tool }).toEqual({ http: expected, tool: expected });
    // The served tool's input (the DTO plus the ambient officer) says the same of the model's arguments.
    expect(await toolVerdict(ApprovalInputTool, payload, { officerId: 'officer-ada' })).toEqual(expected);
  });

  it.each(DIFFERENCES)('where they differ on purpose: %s', async (_label, payload, pipe, tool) => {
    const credit = 'applicant' in (payload as object);
    const http = await httpVerdict(credit ? '/credit-checks' : '/approvals', payload);
    expect({ http, tool: await toolVerdict(credit ? CreditDtoTool : ApprovalDtoTool, payload) }).toEqual({ http: pipe, tool });
    // With nullMeansAbsent, a null reads as left out: the tool then agrees with the pipe on null.
    if ((payload as { months?: unknown }).months === null) expect(await toolVerdict(CreditDtoTool, payload, undefined, true)).toEqual(pipe);
  });
});
