/**
 * Asks of a stateless MCP 2025-11-25 call (elicitation, sampling, roots): the per-request server
 * sends its request to the client on the call's SSE stream, and the client answers in a LATER POST,
 * which reaches another per-request transport. Each such request goes out under an unguessable wire
 * id (128 random bits) recorded here with the asking transport and the caller; a later POST's
 * response with a known id, from the same caller, is handed to the asking server under its own id.
 * Anything else (an unknown, guessed, answered or expired id, another caller's answer) goes where it
 * went before: to the new server, which drops it, and the POST is answered 202 either way (no oracle).
 * One process holds the table: behind several replicas, the answer must reach the same one (sticky
 * routing).
 */
import { randomBytes } from 'node:crypto';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';

/** One ask waiting for its answer. */
interface PendingAsk {
  /** The caller (callerIdentity) the ask was sent to: the only one whose answer is taken. */
  readonly caller: string;
  /** The id the asking server gave its request. */
  readonly id: RequestId;
  /** Hands a message to the asking server. */
  readonly deliver: (message: JSONRPCMessage) => void;
}

/**
 * The asks of stateless calls waiting for their answers, at most `max`: past it a new ask is refused
 * (the tool's elicit/sample/roots rejects saying so). An ask is dropped when answered, when the
 * asking server cancels it (its timeout, the call's cancellation) and when its call's stream closes.
 */
export class StatelessAsks {
  private readonly pending = new Map<string, PendingAsk>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.pending.size;
  }

  /**
   * Wraps a per-request transport (already connected to its server) of `caller`: the requests its
   * server sends go out under wire ids, and the responses it receives to another transport's asks
   * (known wire ids of the same caller) go to that transport's server. Returns what forgets this
   * transport's asks, for when its response closes.
   */
  serve(transport: Transport, caller: string): () => void {
    const mine = new Set<string>();
    const send = transport.send.bind(transport);
    const receive = transport.onmessage;
    const deliver = (message: JSONRPCMessage) => receive?.(message);
    transport.send = (message, options) => {
      if (isJSONRPCRequest(message)) {
        if (this.pending.size >= this.max) return Promise.reject(new SdkError(SdkErrorCode.SendFailed, this.refusal(message.method)));
        const wire = randomBytes(16).toString('base64url');
        this.pending.set(wire, { caller, id: message.id, deliver });
        mine.add(wire);
        return send({ ...message, id: wire }, options).catch((error: unknown) => {
          this.forget(mine, wire);
          throw error;
        });
      }
      if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        const wire = this.wireIdOf(mine, message.params?.requestId);
        if (wire !== undefined) {
          this.forget(mine, wire);
          return send({ ...message, params: { ...message.params, requestId: wire } }, options);
        }
      }
      return send(message, options);
    };
    transport.onmessage = (message, extra) => {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        const ask = typeof message.id === 'string' ? this.pending.get(message.id) : undefined;
        if (ask && ask.caller === caller) {
          this.pending.delete(message.id as string);
          return ask.deliver({ ...message, id: ask.id });
        }
      }
      receive?.(message, extra);
    };
    return () => {
      for (const wire of mine) this.pending.delete(wire);
      mine.clear();
    };
  }

  /** The wire id this transport's server sent its request `id` under. */
  private wireIdOf(mine: Set<string>, id: unknown): string | undefined {
    for (const wire of mine) if (this.pending.get(wire)?.id === id) return wire;
    return undefined;
  }

  private forget(mine: Set<string>, wire: string): void {
    mine.delete(wire);
    this.pending.delete(wire);
  }

  private refusal(method: string): string {
    return `toolwright/mcp: ${this.max} requests of stateless calls to their clients are waiting for answers (maxPendingAsks), so this ${method} is not sent. Retry the call later, raise serveHttp's maxPendingAsks, or serve with sessions.`;
  }
}
