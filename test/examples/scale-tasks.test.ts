/**
 * Scale-out for MCP 2026-07-28 tasks: two stateless server replicas (real processes) behind a real
 * nginx, one worker, one redis-server. A task created through nginx is served by the other replica,
 * and still served after its creating replica is SIGKILLed.
 */
import { NginxTaskReport, runNginxTaskDemo } from '../../examples/scale/tasks-through-nginx';

jest.setTimeout(180_000); // three ts-node processes start on a shared 2-core machine

let report: NginxTaskReport;
beforeAll(async () => {
  report = await runNginxTaskDemo();
});

describe('MCP 2026-07-28 tasks through nginx over two replicas', () => {
  it('a task created on one replica has its result served by the other (each answer names its replica)', () => {
    const { createdBy, servedBy } = report.handedOver;
    expect(['a', 'b']).toContain(createdBy);
    expect(['a', 'b']).toContain(servedBy);
    expect(servedBy).not.toBe(createdBy);
    expect(report.handedOver).toMatchObject({ status: 'completed', symbol: 'NGX' });
  });

  it('with the creating replica SIGKILLed before the result is read, the surviving replica serves it', () => {
    const { killed, servedBy } = report.afterKill;
    expect(['a', 'b']).toContain(killed);
    expect(servedBy).toBe(killed === 'a' ? 'b' : 'a');
    expect(report.afterKill).toMatchObject({ status: 'completed', symbol: 'KILL' });
  });
});
