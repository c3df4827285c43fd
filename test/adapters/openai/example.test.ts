import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..', '..');

describe('the function-calling example', () => {
  it('runs the loop over the loan-desk tools against the scripted model and prints the conversation', () => {
    const output = execFileSync(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'examples/function-calling/main.ts'],
      { cwd: repo, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
    );
    const lines = output.split('\n');
    expect(lines[0]).toBe('tools: approve_loan, cancel_loan, check_credit, list_loans, loan_status');
    // The model guesses a parameter name, reads the error and corrects itself.
    expect(lines).toContain('assistant → list_loans({"status":"pending"})  [call_1]');
    expect(lines).toContain('tool ✗ list_loans [call_1]: Invalid tool arguments: unknown input: status');
    expect(lines).toContain('assistant → list_loans({"state":"pending"})  [call_2]');
    // Parallel calls, each answered by id.
    expect(lines).toContain('tool ✓ check_credit [call_5]: {"score":540,"band":"poor"}');
    // The credit bureau refuses one approval; the model reads the refusal and cancels that loan.
    expect(lines).toContain('tool ✗ approve_loan [call_8]: Could not approve the loan: the applicant’s credit score is too low');
    expect(lines).toContain(
      "tool ✗ notify_applicants [call_9]: Unknown tool 'notify_applicants'. Available tools: approve_loan, cancel_loan, check_credit, list_loans and loan_status.",
    );
    expect(lines).toContain('tool ✓ cancel_loan [call_12]: {"loanId":"c3a5e7f9-1b2d-4e6f-8a0c-2d4f6b8e0a13","cancelled":true}');
    // The officer is an ambient value from the application, never from the model.
    expect(lines.filter((line) => line.includes('"approvedBy":"officer-7"'))).toHaveLength(2);
    expect(output).not.toMatch(/assistant → [^\n]*officer/);
    expect(lines).toContain(
      'assistant: Approved: Ada Lovelace (by officer-7), Grace Hopper (by officer-7). ' +
        'Cancelled: Alan Turing (Could not approve the loan: the applicant’s credit score is too low). ' +
        'I could not notify the applicants: there is no tool for that.',
    );
  });
});
