import { randomUUID } from 'node:crypto';
import { singleton } from 'tsyringe';

export type LoanState = 'pending' | 'approved' | 'cancelled';

export interface Loan {
  id: string;
  applicant: string;
  amount: number;
  state: LoanState;
  approvedBy?: string;
  approvedAt?: Date;
}

/** An in-memory loan book, seeded with a few pending applications. One per process. */
@singleton()
export class LoanRepository {
  private readonly loans = new Map<string, Loan>();

  constructor() {
    for (const [id, applicant, amount] of [
      ['6f1c9a52-3b0e-4c52-9a8e-1f2d3c4b5a60', 'Ada Lovelace', 25_000],
      ['0b7e4d21-8c3a-4f19-b6d2-7e5a9c1f3d42', 'Grace Hopper', 180_000],
      ['c3a5e7f9-1b2d-4e6f-8a0c-2d4f6b8e0a13', 'Alan Turing', 4_000],
    ] as const) {
      this.loans.set(id, { id, applicant, amount, state: 'pending' });
    }
  }

  find(id: string): Loan | undefined {
    return this.loans.get(id);
  }

  list(state?: LoanState): Loan[] {
    return [...this.loans.values()].filter((loan) => !state || loan.state === state);
  }

  approve(loan: Loan, amount: number, officerId: string): string {
    loan.state = 'approved';
    loan.amount = amount;
    loan.approvedBy = officerId;
    loan.approvedAt = new Date();
    return randomUUID();
  }

  cancel(loan: Loan): void {
    loan.state = 'cancelled';
  }
}
