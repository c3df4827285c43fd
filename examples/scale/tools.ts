/**
 * The scale-out example's tools. Each records every start and every finish in Redis (the shared
 * ledger), so the demo can prove what ran where and that nothing ran twice that must not.
 */
import 'reflect-metadata';
import IORedis from 'ioredis';
import { Expects, Exposes, Integer, SemanticHints, Tool, ToolContext } from 'toolwright';

let ledger: IORedis | undefined;

/** The ledger's connection (REDIS_URL), opened on first use. */
export function ledgerClient(): IORedis {
  ledger ??= new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  return ledger;
}

export const STARTED = 'scale:started';
export const FINISHED = 'scale:finished';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

async function recorded<T>(callId: string, ms: number, signal: AbortSignal, value: () => T): Promise<T> {
  await ledgerClient().hincrby(STARTED, callId, 1);
  await sleep(ms, signal); // waits on I/O: a downstream service answering in `ms`
  await ledgerClient().hincrby(FINISHED, callId, 1);
  return value();
}

/** Looks a price up: safe to run again, so the queue may retry it elsewhere. */
@Tool({ adapters: { mcp: { taskSupport: 'optional' }, queue: {} } })
@SemanticHints('idempotent')
@Expects({ callId: String, symbol: String, ms: { type: Integer, min: 0, max: 60_000, default: 20 } })
@Exposes({ symbol: String, price: Number })
export class QuotePrice {
  call({ callId, symbol, ms }: { callId: string; symbol: string; ms: number }, { signal }: ToolContext) {
    return recorded(callId, ms, signal, () => ({ symbol, price: symbol.length * 100 }));
  }
}

/** Charges a card: never run twice. */
@Tool({ adapters: { mcp: { taskSupport: 'optional' }, queue: {} } })
@Expects({ callId: String, cents: { type: Integer, min: 1 }, ms: { type: Integer, min: 0, max: 60_000, default: 20 } })
@Exposes({ charged: Integer })
export class ChargeCard {
  call({ callId, cents, ms }: { callId: string; cents: number; ms: number }, { signal }: ToolContext) {
    return recorded(callId, ms, signal, () => ({ charged: cents }));
  }
}

export const SCALE_TOOLS = [QuotePrice, ChargeCard];
