/**
 * src/interop/tsyringe.ts reads the failing dependency out of tsyringe's error messages. These tests
 * fail when the installed tsyringe leaves the range that module was checked against, or when a
 * message form it reads changes (the dependency would silently go unnamed).
 */
import 'reflect-metadata';
import { inject, injectable } from 'tsyringe';
import { resolveTool, Tool, ToolResolutionError } from 'toolwright';
import { expectSupported } from '../helpers/supported-range';

interface Mailer {
  send(to: string): void;
}

function dependencyOf(tool: Function): string | undefined {
  try {
    resolveTool(tool);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolResolutionError);
    return (error as ToolResolutionError).dependency;
  }
  throw new Error(`${tool.name} resolved`);
}

describe('tsyringe interop (src/interop/tsyringe.ts)', () => {
  it('the installed tsyringe is in the range the module declares', () => {
    expectSupported('tsyringe', 'tsyringe');
  });

  it('every message form tsyringe throws for a missing dependency names it', () => {
    class Ledger {
      constructor(readonly url: string) {}
    }
    @Tool() class CloseAccount {
      constructor(readonly ledger: Ledger) {}
      call() {}
    }
    @Tool() class SendReport {
      constructor(@inject('ReportSink') readonly sink: unknown) {}
      call() {}
    }
    @Tool() class NotifyOfficer {
      constructor(readonly mailer: Mailer) {}
      call() {}
    }
    @injectable() class Clock {
      constructor() {
        throw new Error('no clock in tests');
      }
    }
    @Tool() class StampLetter {
      constructor(readonly clock: Clock) {}
      call() {}
    }
    expect(dependencyOf(CloseAccount)).toBe('Ledger'); // TypeInfo not known for "Ledger"
    expect(dependencyOf(SendReport)).toBe('ReportSink'); // unregistered dependency token: "ReportSink"
    expect(dependencyOf(NotifyOfficer)).toBe('Object'); // TypeInfo not known for "Object" (an interface)
    expect(dependencyOf(StampLetter)).toBe('clock'); // Cannot inject the dependency "clock" at position #0 of "StampLetter"
  });
});
