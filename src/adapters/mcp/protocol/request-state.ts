/**
 * The sealed `requestState` of MCP 2026-07-28 input-required rounds: the server's only memory
 * between the rounds of one tools/call. AES-256-GCM (integrity and confidentiality in one: the
 * client reads nothing of the answers it carries), a key id so keys rotate (seal with the first,
 * open with any), an expiry, and bound to the call: the tool, a digest of its arguments as sent and
 * of the verified caller are the cipher's additional data, so a state replayed for another tool,
 * other arguments or another caller does not open. Any refusal is the protocol's one answer:
 * -32602 "Invalid or expired requestState".
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { describeValue } from '../../../adapter-kit';
import { isPlainObject } from '../../../adapter-kit/internal';
import { DeclarationError, SetupError } from '../../../index';

/** `requestState` on createMcpServer / serveHttp / serveStdio: how 2026-07-28 rounds are sealed. */
export interface McpRequestStateOptions {
  /**
   * Secret keys, each at least 32 bytes (a string's UTF-8 bytes, or a Uint8Array). The first seals,
   * any of them opens: put a new key first to rotate, and drop an old one once its states expired.
   * Every replica behind one load balancer needs the same keys. Without keys a random key per
   * process is used (one process only; refused when NODE_ENV is production).
   */
  keys?: ReadonlyArray<string | Uint8Array>;
  /** How long a state stays valid after its round, in milliseconds (default 600,000: 10 minutes). */
  ttlMs?: number;
  /** Input-required rounds one call may take (default 8); beyond them the call fails with a tool error. */
  maxRounds?: number;
  /**
   * Where the states whose approval already ran a call are remembered, so that replaying one runs
   * nothing (an approval runs its call at most once). Default: this process's memory (at most
   * 100,000 states, each until it expires). Behind several replicas, pass one store they share,
   * e.g. Redis: `claim: async (id, expiresAt) => (await redis.set('tw:spent:' + id, '1', 'PXAT', expiresAt, 'NX')) === 'OK'`.
   */
  spentApprovals?: McpSpentApprovals;
}

/** Remembers the states whose approval ran a call (`requestState.spentApprovals`). */
export interface McpSpentApprovals {
  /**
   * Claims a state's approval (`id`: a digest of the state; `expiresAt`: when the state expires, in
   * epoch milliseconds): true the first time, false for an id claimed before. Must be atomic across
   * whoever shares the store.
   */
  claim(id: string, expiresAt: number): boolean | Promise<boolean>;
}

/** The default store of spent approvals: this process's memory, bounded. */
class SpentInMemory implements McpSpentApprovals {
  static readonly MAX = 100_000;
  private readonly spent = new Map<string, number>();

  claim(id: string, expiresAt: number): boolean {
    const now = Date.now();
    if ((this.spent.get(id) ?? 0) >= now) return false;
    this.spent.delete(id);
    if (this.spent.size >= SpentInMemory.MAX) {
      // Expired states first (they open no more); then the oldest claim goes, a state about to expire.
      for (const [key, until] of this.spent) if (until < now) this.spent.delete(key);
      if (this.spent.size >= SpentInMemory.MAX) this.spent.delete(this.spent.keys().next().value!);
    }
    this.spent.set(id, expiresAt);
    return true;
  }
}

/** A state longer than this is refused before it is decoded (the answers it may carry are bounded too). */
export const MAX_STATE_CHARS = 65_536;
const PREFIX = 'tw1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MIN_KEY_BYTES = 32;

interface Key {
  readonly id: string;
  readonly secret: Buffer;
}

/** The call a state belongs to: never stored in the state, only authenticated with it. */
export interface StateBinding {
  readonly tool: string;
  readonly args: unknown;
  /** The caller's identity (callerIdentity; '' for an anonymous caller). */
  readonly caller: string;
}

export function invalidState(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state' });
}

function keyOf(raw: string | Uint8Array): Key {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw);
  const id = createHash('sha256').update('toolwright.requestState.kid\0').update(bytes).digest('base64url').slice(0, 8);
  // One AES-256 key per secret, whatever its length: HKDF-SHA256.
  const secret = Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), 'toolwright/mcp requestState aes-256-gcm', 32));
  return { id, secret };
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

function additionalData({ tool, args, caller: identity }: StateBinding): Buffer {
  let argsDigest: string;
  try {
    argsDigest = digest(JSON.stringify(args ?? {}));
  } catch {
    argsDigest = `unmatchable:${randomBytes(8).toString('hex')}`;
  }
  const caller = identity === '' ? '-' : digest(identity);
  return Buffer.from(`toolwright.mcp.requestState\0${tool}\0${argsDigest}\0${caller}`, 'utf8');
}

/** The seal of one server: its keys, TTL and round cap, checked once when the server is created. */
export class RequestStateSeal {
  readonly ttlMs: number;
  /** Where approvals that ran a call are remembered (requestState.spentApprovals). */
  readonly spent: McpSpentApprovals;
  readonly maxRounds: number;
  /** Whether the keys were given (false: a random key of this process). */
  readonly shared: boolean;
  private readonly keys: readonly Key[];

  constructor(options: McpRequestStateOptions | undefined, where: string) {
    if (options !== undefined && !isPlainObject(options)) {
      throw new DeclarationError(
        `${where}: 'requestState' must be an object { keys, ttlMs?, maxRounds?, spentApprovals? }; got ${describeValue(options)}.`,
      );
    }
    const { keys, ttlMs = 600_000, maxRounds = 8, spentApprovals } = options ?? {};
    if (spentApprovals !== undefined && typeof (spentApprovals as { claim?: unknown } | null)?.claim !== 'function') {
      throw new DeclarationError(
        `${where}: 'requestState.spentApprovals' must be an object with claim(id, expiresAt) => boolean | Promise<boolean>; got ${describeValue(spentApprovals)}.`,
      );
    }
    if (keys !== undefined && (!Array.isArray(keys) || keys.length === 0)) {
      throw new DeclarationError(
        `${where}: 'requestState.keys' must be a non-empty array of secrets of at least ${MIN_KEY_BYTES} bytes (strings or Uint8Arrays); got ${describeValue(keys)}.`,
      );
    }
    (keys ?? []).forEach((key: unknown, index) => {
      const length = typeof key === 'string' ? Buffer.byteLength(key, 'utf8') : key instanceof Uint8Array ? key.byteLength : -1;
      if (length < MIN_KEY_BYTES) {
        throw new DeclarationError(
          `${where}: 'requestState.keys[${index}]' must be a secret of at least ${MIN_KEY_BYTES} bytes (a string or a Uint8Array), e.g. crypto.randomBytes(32).toString('base64'); ` +
            `got ${length < 0 ? describeValue(key) : `${length} bytes`}.`,
        );
      }
    });
    if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < 1) {
      throw new DeclarationError(
        `${where}: 'requestState.ttlMs' must be a whole number of milliseconds of at least 1; got ${describeValue(ttlMs)}.`,
      );
    }
    if (typeof maxRounds !== 'number' || !Number.isInteger(maxRounds) || maxRounds < 1 || maxRounds > 64) {
      throw new DeclarationError(
        `${where}: 'requestState.maxRounds' must be a whole number from 1 to 64; got ${describeValue(maxRounds)}.`,
      );
    }
    this.ttlMs = ttlMs;
    this.maxRounds = maxRounds;
    this.shared = keys !== undefined;
    this.keys = keys ? keys.map(keyOf) : [keyOf(randomBytes(32))];
    this.spent = (spentApprovals as McpSpentApprovals | undefined) ?? new SpentInMemory();
  }

  /** The id a state's approval is claimed under: a digest of the sealed state (unique: its IV is random). */
  static idOf(state: string): string {
    return digest(`toolwright.mcp.spentApproval\0${state}`);
  }

  /** Seals a JSON payload for this call; undefined when it is larger than a state may be. */
  seal(payload: object, binding: StateBinding): string | undefined {
    const [key] = this.keys;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.secret, iv);
    cipher.setAAD(additionalData(binding));
    const sealed = Buffer.concat([iv, cipher.update(JSON.stringify(payload), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const state = `${PREFIX}.${key.id}.${sealed.toString('base64url')}`;
    return state.length > MAX_STATE_CHARS ? undefined : state;
  }

  /** Opens a state for this call, or throws the protocol's -32602 (the reason goes to `onRefused`). */
  open(state: string, binding: StateBinding, onRefused?: (reason: string) => void): Record<string, unknown> {
    const refuse = (reason: string): never => {
      onRefused?.(reason);
      throw invalidState();
    };
    if (state.length > MAX_STATE_CHARS) refuse(`longer than ${MAX_STATE_CHARS} characters`);
    const [prefix, id, body, ...rest] = state.split('.');
    if (prefix !== PREFIX || rest.length > 0 || body === undefined) refuse('not a toolwright requestState');
    const key = this.keys.find((candidate) => candidate.id === id) ?? refuse('sealed with a key this server does not hold');
    const sealed = Buffer.from(body, 'base64url');
    // Only the one canonical spelling opens (base64url decoding skips stray characters).
    if (sealed.length < IV_BYTES + TAG_BYTES || sealed.toString('base64url') !== body) refuse('not a sealed state');
    let plain: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.secret, sealed.subarray(0, IV_BYTES));
      decipher.setAAD(additionalData(binding));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      plain = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return refuse('tampered with, or sealed for another tool, other arguments or another caller');
    }
    let payload: unknown;
    try {
      payload = JSON.parse(plain);
    } catch {
      return refuse('malformed payload');
    }
    if (!isPlainObject(payload) || typeof payload.e !== 'number') return refuse('malformed payload');
    if (payload.e < Date.now()) refuse('expired');
    return payload;
  }
}

/** The production rule: a per-process key breaks replicas, so production servers must name theirs. */
export function missingKeysError(): SetupError {
  return new SetupError(
    'createMcpServer: a tool asked a 2026-07-28 client for input, and the server has no requestState.keys. A random per-process key ' +
      'cannot open a state another replica sealed, so NODE_ENV=production refuses it: pass requestState: { keys: [process.env.MCP_STATE_KEY] } (each at least 32 bytes, the same on every replica).',
  );
}

let warned = false;
/** Outside production: one loud warning per process that the per-process key serves one process only. */
export function warnMissingKeysOnce(): void {
  if (warned) return;
  warned = true;
  console.warn(
    'toolwright/mcp: WARNING: no requestState.keys, so 2026-07-28 input-required rounds are sealed with a random key of this process. ' +
      'A round answered by another replica will be refused. Pass requestState: { keys: [...] } (the same secrets on every replica); NODE_ENV=production requires it.',
  );
}
