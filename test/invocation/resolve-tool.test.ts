import 'reflect-metadata';
import { container, inject, injectable, singleton } from 'tsyringe';
import { describeTool, isToolwrightError, resolveTool, Tool, ToolResolutionError, ToolwrightError } from 'toolwright';

@injectable()
class LoanRepository {
  readonly label: string = 'real';
}

class Clock {
  now() {
    return 0;
  }
}

describe('DI resolution', () => {
  it('resolves a class tool with constructor dependencies without its own @injectable()', () => {
    @Tool() class ApproveLoan {
      constructor(readonly loans: LoanRepository, readonly clock: Clock) {}
      call() {}
    }
    const tool = resolveTool(ApproveLoan) as ApproveLoan;
    expect(tool).toBeInstanceOf(ApproveLoan);
    expect(tool.loans).toBeInstanceOf(LoanRepository);
    expect(tool.clock).toBeInstanceOf(Clock);
  });

  it('resolves a subclass tool that inherits its constructor and dependencies', () => {
    @injectable() class Base {
      constructor(readonly loans: LoanRepository) {}
    }
    @Tool() class ApproveLoanChild extends Base {
      call() {}
    }
    expect((resolveTool(ApproveLoanChild) as ApproveLoanChild).loans).toBeInstanceOf(LoanRepository);
  });

  it('resolves a class tool that is @injectable()', () => {
    @Tool() @injectable() class CheckCredit {
      constructor(readonly loans: LoanRepository) {}
      call() {}
    }
    expect((resolveTool(CheckCredit) as CheckCredit).loans.label).toBe('real');
  });

  it('resolves the service class of a method tool, respecting a singleton registration', () => {
    @singleton() class LoanService {
      constructor(readonly loans: LoanRepository) {}
      @Tool() status() {}
    }
    const definition = describeTool(LoanService, 'status');
    const first = resolveTool(definition);
    expect(first).toBeInstanceOf(LoanService);
    expect(resolveTool(definition)).toBe(first);
  });

  it('a child container overrides registrations for that call only', () => {
    @Tool() class ApproveLoan {
      constructor(readonly loans: LoanRepository) {}
      call() {}
    }
    const child = container.createChildContainer();
    const fake = { label: 'fake' } as LoanRepository;
    child.register(LoanRepository, { useValue: fake });
    expect((resolveTool(ApproveLoan, child) as ApproveLoan).loans).toBe(fake);
    expect((resolveTool(ApproveLoan) as ApproveLoan).loans.label).toBe('real');
  });

  it('a dependency typed as an interface is a toolwright error naming the tool and the dependency', () => {
    interface Mailer { send(): void }
    @Tool() class NotifyOfficer {
      constructor(readonly mailer: Mailer) {}
      call() {}
    }
    let caught: unknown;
    try {
      resolveTool(NotifyOfficer);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolResolutionError);
    expect(caught).toBeInstanceOf(ToolwrightError);
    expect(isToolwrightError(caught)).toBe(true);
    const error = caught as ToolResolutionError;
    expect(error.code).toBe('TOOL_RESOLUTION');
    expect(error.dependency).toBe('Object');
    expect(error.message).toMatch(
      /^notify_officer \(NotifyOfficer\) could not be resolved: a dependency typed as an interface or union \(reflected as Object\); inject it with @inject\(token\)\.\nCannot inject the dependency "mailer" at position #0 of "NotifyOfficer" constructor/,
    );
  });

  it('an unregistered token names the token and says what to do', () => {
    @Tool() class SendReport {
      constructor(@inject('ReportSink') readonly sink: unknown) {}
      call() {}
    }
    expect(() => resolveTool(SendReport)).toThrow(
      'send_report (SendReport) could not be resolved: dependency ReportSink; register it in the container or mark it @injectable().',
    );
  });

  it('a dependency of a dependency that cannot be built is named', () => {
    class Ledger {
      constructor(readonly url: string) {}
    }
    @injectable() class Accounts {
      constructor(readonly ledger: Ledger) {}
    }
    @Tool() class CloseAccount {
      constructor(readonly accounts: Accounts) {}
      call() {}
    }
    expect(() => resolveTool(CloseAccount)).toThrow(
      'close_account (CloseAccount) could not be resolved: dependency Ledger; register it in the container or mark it @injectable().',
    );
  });

  it('a constructor that throws is reported as such', () => {
    @Tool() class Exploding {
      constructor() {
        throw new Error('boom');
      }
      call() {}
    }
    expect(() => resolveTool(Exploding)).toThrow('exploding (Exploding) could not be resolved: its constructor failed.\nboom');
  });
});
