/**
 * The scale-out example as a test: two stateless MCP server processes and two worker processes on
 * one Redis (its own redis-server, stopped afterwards). Real processes, a real SIGKILL.
 */
import { runScaleDemo, ScaleDemoReport } from '../../examples/scale/demo';

jest.setTimeout(300_000); // four ts-node processes start on a shared 2-core machine

let report: ScaleDemoReport;
beforeAll(async () => {
  report = await runScaleDemo({ calls: 500, clients: 20, throughputCalls: 100 });
});

describe('scale-out: two MCP servers and two workers on one Redis', () => {
  it('500 task calls from 20 concurrent clients over both servers all complete with the right result, each run exactly once', () => {
    expect(report.calls).toEqual({ total: 500, correct: 500, ranOnce: 500 });
  });

  it('after a worker is SIGKILLed mid-run, its idempotent calls complete on the other worker', () => {
    expect(report.kill.idempotent.completed).toBe(report.kill.idempotent.total);
    expect(report.kill.idempotent.startedTwice).toBe(report.kill.idempotent.total);
  });

  it('its non-idempotent call is reported failed and never run again', () => {
    expect(report.kill.nonIdempotent).toMatchObject({ status: 'failed', outcome: 'exception', started: 1, finished: 0 });
    expect(report.kill.nonIdempotent.message).toMatch(/stopped mid-call, and the tool is neither idempotent nor readOnly, so it is not run again/);
  });

  it('measures throughput with one worker process and with two', () => {
    expect(report.throughput.oneWorker).toBeGreaterThan(0);
    expect(report.throughput.twoWorkers).toBeGreaterThan(0);
  });
});
