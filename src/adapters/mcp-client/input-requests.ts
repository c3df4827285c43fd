/**
 * A remote server that needs the user or the model mid-call: a 2025-11-25 server sends
 * `elicitation/create` / `sampling/createMessage` while its tool runs, a 2026-07-28 server answers
 * the call `input_required` and the SDK's Client calls the same registered handlers before it
 * retries with the answers and the server's `requestState`. Either way the request is answered by
 * the handlers of the call it belongs to (`McpCallOptions.input`), never by another call's.
 *
 * Finding that call: the call runs in an AsyncLocalStorage scope, and the Client subclass enters
 * the scope of the call whose `input_required` it fulfils (the originating call's signal is ours).
 * A 2025-11-25 request pushed over Streamable HTTP arrives on the call's own response stream, so in
 * its scope too; over stdio the wire relates it to nothing, so it goes to the one call in flight,
 * and is declined when several are (there is no telling whose it is).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ElicitResult, ElicitSchema, SampleRequest, SampleResult } from '../../index';
import type { Sdk } from './sdk';

/** How one call answers a remote server's requests for the user or the model. */
export interface McpInputHandlers {
  /** Asks the user to fill in a form; without it the server's `elicitation/create` is declined. */
  elicit?(message: string, schema: ElicitSchema): ElicitResult | Promise<ElicitResult>;
  /** Asks the caller's model; without it the server's `sampling/createMessage` is refused. */
  sample?(request: SampleRequest): SampleResult | Promise<SampleResult>;
}

/** The `_meta` key of the client capabilities a 2026-07-28 request carries. */
export const CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/** What the client declares: form elicitation and sampling, which a call may answer. */
export const CLIENT_CAPABILITIES = Object.freeze({ elicitation: { form: {} }, sampling: {} });

/** The capabilities one call can answer (2026-07-28 sends them with each request). */
export function capabilitiesOf(input: McpInputHandlers | undefined): Record<string, object> {
  return {
    ...(input?.elicit ? { elicitation: { form: {} } } : {}),
    ...(input?.sample ? { sampling: {} } : {}),
  };
}

type ElicitValue = NonNullable<ElicitResult['content']>[string];

/** A form default the answer can carry: a primitive, or a list of strings (a multi-select). */
function isElicitValue(value: unknown): value is ElicitValue {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string');
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * An accepted form's content with every field the user left out that the form gives a `default`
 * filled from it (SEP-1034: an accepted form carries the defaults the user did not change); what
 * the user answered is kept.
 */
function withDefaults(schema: ElicitSchema, content: ElicitResult['content']): Record<string, ElicitValue> {
  const properties: Record<string, unknown> = typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {};
  const defaults = Object.entries(properties).flatMap(([name, field]) => {
    const value = typeof field === 'object' && field !== null ? (field as { default?: unknown }).default : undefined;
    return isElicitValue(value) ? [[name, value] as const] : [];
  });
  return Object.fromEntries([...defaults, ...Object.entries(content ?? {})]);
}

/** The calls in flight on one connection, by their own signal, and the scope that names the current one. */
export class InputRouter {
  private readonly scope = new AsyncLocalStorage<McpInputHandlers>();
  private readonly calls = new Map<AbortSignal, McpInputHandlers>();

  constructor(private readonly alias: string) {}

  /** Runs one call with its handlers in scope, known by `signal` until it settles. */
  async run<T>(signal: AbortSignal, input: McpInputHandlers, call: () => Promise<T>): Promise<T> {
    this.calls.set(signal, input);
    try {
      return await this.scope.run(input, call);
    } finally {
      this.calls.delete(signal);
    }
  }

  /** Runs `fulfil` in the scope of the call whose signal is `signal` (the Client's input_required driver). */
  within<T>(signal: unknown, fulfil: () => T): T {
    const input = signal instanceof AbortSignal ? this.calls.get(signal) : undefined;
    return input ? this.scope.run(input, fulfil) : fulfil();
  }

  /** The handlers of the call a request belongs to, or why there are none. */
  private current(): McpInputHandlers | string {
    const scoped = this.scope.getStore();
    if (scoped) return scoped;
    if (this.calls.size === 1) return [...this.calls.values()][0];
    return this.calls.size === 0
      ? 'no call is in flight on this connection'
      : `${this.calls.size} calls are in flight on this connection and the request does not say whose it is`;
  }

  /** Registers the elicitation and sampling handlers on a Client. */
  install(client: InstanceType<Sdk['Client']>, sdk: Sdk): void {
    const where = `MCP server '${this.alias}'`;
    client.setRequestHandler('elicitation/create', async (request) => {
      const input = this.current();
      const params = request.params as { message: string; requestedSchema?: ElicitSchema };
      if (typeof input === 'string' || !input.elicit) return { action: 'decline' };
      const schema = params.requestedSchema ?? { type: 'object', properties: {} };
      const answer = await input.elicit(params.message, schema);
      const content = answer.action === 'accept' ? withDefaults(schema, answer.content) : answer.content && { ...answer.content };
      return { action: answer.action, ...(content !== undefined ? { content } : {}) };
    });
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const input = this.current();
      if (typeof input === 'string' || !input.sample) {
        const why = typeof input === 'string' ? input : 'the call that caused it has no sample handler';
        // -1: the spec's "the user rejected the sampling request".
        throw new sdk.ProtocolError(-1, `${where} asked for a completion (sampling/createMessage), which was declined: ${why}.`);
      }
      const answer = await input.sample(request.params as unknown as SampleRequest);
      return {
        role: answer.role,
        content: answer.content,
        model: answer.model,
        ...(answer.stopReason ? { stopReason: answer.stopReason } : {}),
      };
    });
  }
}
