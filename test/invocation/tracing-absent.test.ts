/**
 * Without `@opentelemetry/api` (an optional peer) calls run as before and the tracing seam answers
 * "no span": the package is looked for once, lazily, and its absence is no error.
 */
import 'reflect-metadata';

jest.mock('@opentelemetry/api', () => {
  throw Object.assign(new Error("Cannot find module '@opentelemetry/api'"), { code: 'MODULE_NOT_FOUND' });
});

it('calls succeed and Tracing reports no span when the package cannot be loaded', async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { invoke, Tool, Tracing } = require('toolwright') as typeof import('toolwright');
  const seen: unknown[] = [];
  @Tool({ name: 'plain' }) class Plain {
    call() {
      seen.push(Tracing.currentSpan());
      return Tracing.annotateSpan({ a: 1 });
    }
  }
  const result = await invoke(Plain, {}, { callId: 'c1' });
  expect(result).toMatchObject({ ok: true, value: false });
  expect(seen).toEqual([undefined]);
  expect(() => require('@opentelemetry/api')).toThrow('Cannot find module');
});
