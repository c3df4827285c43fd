/**
 * Runs a tool under its time limit and its caller's signal. The call answers at the deadline or at
 * the caller's abort whether or not the tool stops: a tool that never settles never holds a call.
 * The timer is cleared as soon as the call settles, however it settles. The deadline is also checked
 * when the tool settles: a tool that blocked the event loop past it (so no timer could fire) ends as
 * the same timeout, whatever it returned or threw.
 */

/** How a running tool ended, as far as the call is concerned. */
export type Settlement =
  | { readonly kind: 'returned'; readonly value: unknown }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'timed-out'; readonly reason: unknown }
  | { readonly kind: 'cancelled'; readonly reason: unknown };

/** The signal of a call nothing can cancel. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/**
 * Starts `run` with the signal the tool receives: the caller's own signal when there is no limit
 * (so the tool sees exactly what its caller passed), or one that aborts at either the caller's
 * abort (with its reason) or the deadline (with `timeoutReason()` as its reason) while the call
 * runs. The caller's abort is passed on by the one listener the call needs anyway, not by
 * `AbortSignal.any`, whose bookkeeping cost about 20 µs of CPU per call on Node 20.
 */
export function settle(
  run: (signal: AbortSignal) => unknown,
  caller: AbortSignal | undefined,
  timeoutMs: number | undefined,
  timeoutReason: () => unknown,
): Promise<Settlement> {
  const deadline = timeoutMs === undefined ? undefined : new AbortController();
  if (deadline && caller?.aborted) deadline.abort(caller.reason);
  const signal = deadline ? deadline.signal : (caller ?? NEVER_ABORTED);
  const dueAt = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
  /** The timeout settlement; the tool's signal is aborted with its reason, as at the timer. */
  const expire = (): Settlement => {
    const reason = timeoutReason();
    deadline!.abort(reason);
    return { kind: 'timed-out', reason };
  };
  /** A settlement the tool made: past the deadline it is the timeout, whatever the tool did. */
  const late = (): boolean => deadline !== undefined && !deadline.signal.aborted && performance.now() >= dueAt;
  let pending: Promise<unknown>;
  try {
    // Promise.resolve never throws: a returned value whose `then` getter throws becomes a rejection.
    pending = Promise.resolve(run(signal));
  } catch (error) {
    return Promise.resolve(late() ? expire() : { kind: 'threw', error });
  }
  return new Promise<Settlement>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    let listening = false;
    const onAbort = () => {
      // The tool's own signal aborts first, with the caller's reason.
      deadline?.abort(caller!.reason);
      finish({ kind: 'cancelled', reason: caller!.reason });
    };
    const finish = (settlement: Settlement) => {
      // The first settlement wins; a late one (a tool finishing after its deadline) is dropped.
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (listening) caller!.removeEventListener('abort', onAbort);
      resolve(settlement);
    };
    const settleAs = (settlement: Settlement) => {
      if (settled) return;
      // An abort that came before the settlement was seen wins, as it would have through a listener.
      if (caller?.aborted) return onAbort();
      finish(late() ? expire() : settlement);
    };
    pending.then(
      (value) => settleAs({ kind: 'returned', value }),
      (error: unknown) => settleAs({ kind: 'threw', error }),
    );
    if (caller?.aborted) {
      onAbort(); // aborted while the tool started
    } else if (caller) {
      // Most tools settle at once (a value, or an already settled promise): their settlement runs in
      // the microtask before this one, and they never pay for an abort listener (an EventTarget
      // listener costs more than such a call). An abort in between is caught by the check here.
      queueMicrotask(() => {
        if (settled) return;
        if (caller.aborted) return onAbort();
        listening = true;
        caller.addEventListener('abort', onAbort, { once: true });
      });
    }
    if (deadline && !settled) {
      // What the tool spent synchronously counts: the timer waits only for what is left.
      timer = setTimeout(() => finish(expire()), Math.max(0, dueAt - performance.now()));
    }
  });
}
