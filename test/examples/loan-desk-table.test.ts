import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');

describe('the loan-desk example', () => {
  it('npm start enumerates the mcp tools and prints the table', () => {
    const output = execFileSync('npm', ['start', '--silent'], { cwd: repo, encoding: 'utf8' });
    const rows = output.trim().split('\n').slice(2).map((line) => line.split(/\s{2,}/).slice(0, 3));
    expect(rows).toEqual([
      ['approve_loan', '1', '-'],
      ['approve_loan', '2', '-'],
      ['cancel_loan', '1', 'destructive'],
      ['check_credit', '1', 'readOnly, idempotent'],
      ['list_loans', '1', 'readOnly, idempotent'],
      ['loan_status', '1', 'readOnly, idempotent'],
    ]);
  });
});
