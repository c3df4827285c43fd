/**
 * MCP tasks on 2026-07-28: the `io.modelcontextprotocol/tasks` extension (SEP-2663), over the same
 * queue-backed store as the 2025-11-25 task methods (tasks.ts), so a task created on either revision
 * is answered by any server process on the queue. The SDK 2.x does not implement the extension; its
 * wire is written here:
 *
 * - the server advertises it under `capabilities.extensions`; a request opts in by declaring it in
 *   its `_meta` client capabilities (per request: 2026-07-28 has no session to remember it in);
 * - the server decides: a `tools/call` of a tool whose `taskSupport` is `optional` or `required`
 *   from a client that declared the extension answers a flat `CreateTaskResult`
 *   (`resultType: 'task'`, `taskId`, `status`, `ttlMs`, `pollIntervalMs`, ...); the 2025 `task` param
 *   is ignored; a `required` tool called by a client that did not declare it gets -32021 naming
 *   the extension;
 * - `tasks/get` answers the task with its result (`result`) or protocol error (`error`) inlined;
 *   these methods are answered at `serveHttp`'s entry (`taskRequestAnswerer`), since the SDK's
 *   2026-07-28 dispatch refuses the 2025 spec method names before any handler; `serveStdio` has no
 *   such entry, so it neither advertises the extension nor creates tasks for 2026-07-28 clients;
 *   `tasks/cancel` acks with an empty result whatever the task's state; `tasks/result` and
 *   `tasks/list` do not exist (-32601). All of them answer -32021 to a request that did not declare
 *   the extension, and -32602 for an unknown task id or another caller's task;
 * - a task asks inside its run: a tools/call whose request declares elicitation (form) or sampling
 *   enqueues its job with those asks; the tool's `context.elicit` / `context.sample` on the worker
 *   wait in the queue's Redis, `tasks/get` answers `input_required` with them as `inputRequests`
 *   (keyed by the worker's ask ids), and `tasks/update` delivers the client's `inputResponses`:
 *   each checked for its kind (and an elicitation's form) before any is taken, a second answer to
 *   one refused, keys that name no ask of the task ignored (SEP-2663); the ack is empty.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequest,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ElicitResult, Result, SampleResult, ToolDefinition } from '../../../index';
import { isPlainObject } from '../../../adapter-kit/internal';
import type { InboundClassification } from '../protocol/classify';
import { canElicitForm } from '../protocol/approval';
import { checkResponse, fitsForm } from '../protocol/round-answers';
import { McpTaskAsk, McpTaskJob, StoredTask, TaskStore, taskIdOf, TERMINAL } from './tasks';

/** The extension's identifier, as capabilities name it. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The JSON-RPC error of a header that disagrees with the body (SEP-2243 HeaderMismatch). */
const HEADER_MISMATCH = -32020;

/** The task methods of the extension this server answers. */
const EXTENSION_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** What a server that offers the extension adds to its 2026-07-28 capabilities. */
export const TASKS_EXTENSION_CAPABILITY = { extensions: { [TASKS_EXTENSION]: {} } };

/** Whether this 2026-07-28 request declared the tasks extension in its `_meta` client capabilities. */
export function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: unknown } | undefined;
  return isPlainObject(capabilities?.extensions) && capabilities.extensions[TASKS_EXTENSION] !== undefined;
}

/**
 * What the tool of a task created by this request may ask its client while it runs: what the
 * request's client capabilities declare (form elicitation, sampling).
 */
export function taskAsks(ctx: ServerContext): Array<'elicit' | 'sample'> {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return [...(canElicitForm(capabilities) ? ['elicit' as const] : []), ...(capabilities?.sampling ? ['sample' as const] : [])];
}

/** A task's ask as the extension's wire carries it in `inputRequests`. */
function wireRequest(ask: McpTaskAsk): InputRequest {
  return ask.kind === 'elicit'
    ? inputRequired.elicit({ mode: 'form', message: ask.message, requestedSchema: ask.schema as never })
    : inputRequired.createMessage(ask.request as never);
}

/** The -32021 of a request that needs the extension and did not declare it. */
export function missingTasksExtension(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${what} needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities (capabilities.extensions["${TASKS_EXTENSION}"] = {}).`,
  );
}

/** A task's fields on the extension's wire (`Task`): `ttlMs` and `pollIntervalMs`, never the 2025 names. */
function wireTask(store: TaskStore, found: Pick<StoredTask, 'taskId' | 'status' | 'createdAt' | 'lastUpdatedAt' | 'statusMessage'>) {
  const { taskId, status, createdAt, lastUpdatedAt, statusMessage } = found;
  return {
    taskId,
    status,
    createdAt,
    lastUpdatedAt,
    ttlMs: store.ttlMs,
    pollIntervalMs: store.pollIntervalMs,
    ...(statusMessage !== undefined ? { statusMessage } : {}),
  };
}

/** The `CreateTaskResult` a task-creating `tools/call` answers: flat, `resultType: 'task'`. */
export function createdTaskResult(job: McpTaskJob, store: TaskStore): CallToolResult {
  const now = new Date().toISOString();
  return { resultType: 'task', ...wireTask(store, { taskId: job.id!, status: 'working', createdAt: now, lastUpdatedAt: now }) } as never;
}

/** What a tasks/* request of a 2026-07-28 client is answered with over HTTP. */
export interface TaskHttpAnswer {
  readonly status: number;
  readonly message: object;
}

/** The header a 2026-07-28 request names its method or its target with (SEP-2243), when sent once. */
function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Answers the extension's methods (`tasks/get`, `tasks/update`, `tasks/cancel`) of 2026-07-28
 * requests at the HTTP entry: the SDK's 2026-07-28 dispatch refuses every 2025 spec method by name
 * (-32601) before any handler, so they never reach a server instance. The request passes the SDK's
 * own inbound validation (envelope, `Mcp-Method`) first; `Mcp-Name` must name the task
 * (SEP-2663). Returns undefined for any other request.
 */
export function taskRequestAnswerer(
  store: TaskStore,
  server: { name: string; version: string },
  toCallToolResult: (tool: ToolDefinition, result: Result) => CallToolResult,
): (body: unknown, classified: InboundClassification, headers: IncomingHttpHeaders, caller: string) => Promise<TaskHttpAnswer> | undefined {
  const serverInfo = { [SERVER_INFO_META_KEY]: { name: server.name, version: server.version } };
  return (body, classified, headers, owner) => {
    if (!isPlainObject(body) || typeof body.method !== 'string' || !EXTENSION_METHODS.has(body.method)) return undefined;
    const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
    const failed = (status: number, code: number, message: string, data?: unknown): TaskHttpAnswer => ({
      status,
      message: { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } },
    });
    if (classified.kind === 'reject')
      return Promise.resolve(failed(classified.httpStatus, classified.code, classified.message, classified.data));
    const params = isPlainObject(body.params) ? body.params : {};
    const name = header(headers, 'mcp-name');
    if (name !== undefined && name !== params.taskId) {
      return Promise.resolve(
        failed(
          400,
          HEADER_MISMATCH,
          `Header mismatch: the Mcp-Name header names "${name}", and params.taskId is ${JSON.stringify(params.taskId)}; send the task's id in both.`,
        ),
      );
    }
    const capabilities = isPlainObject(params._meta) ? params._meta[CLIENT_CAPABILITIES_META_KEY] : undefined;
    const declared =
      isPlainObject(capabilities) && isPlainObject(capabilities.extensions) && capabilities.extensions[TASKS_EXTENSION] !== undefined;
    return answerTaskRequest(body.method, params, declared, store, owner, toCallToolResult).then(
      (result) => ({ status: 200, message: { jsonrpc: '2.0', id, result: { resultType: 'complete', ...result, _meta: serverInfo } } }),
      (error: unknown) => {
        if (error instanceof ProtocolError) {
          return failed(
            error.code === ProtocolErrorCode.MissingRequiredClientCapability ? 400 : 200,
            error.code,
            error.message,
            error.data,
          );
        }
        console.error(`toolwright/mcp: answering ${String(body.method)} failed:`, error);
        return failed(200, ProtocolErrorCode.InternalError, 'Internal error');
      },
    );
  };
}

/** A tasks/* request's answer from the store (the result without its `resultType`), or its protocol error. */
async function answerTaskRequest(
  method: string,
  params: Record<string, unknown>,
  declared: boolean,
  store: TaskStore,
  owner: string,
  toCallToolResult: (tool: ToolDefinition, result: Result) => CallToolResult,
): Promise<object> {
  if (!declared) throw missingTasksExtension(method);
  const taskId = taskIdOf({ params }, method);
  if (method === 'tasks/cancel') {
    await store.cancel(taskId, owner);
    return {}; // the ack; the cancelled state is read with tasks/get
  }
  if (method === 'tasks/update') {
    if (!isPlainObject(params.inputResponses)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Invalid tasks/update request: params.inputResponses must be an object of answers keyed by input request id.',
      );
    }
    await updateTask(await store.get(taskId, owner), params.inputResponses);
    return {}; // the ack; the task's state after is read with tasks/get
  }
  const found = await store.get(taskId, owner);
  const task = wireTask(store, found);
  if (found.status === 'completed') {
    return { ...task, result: toCallToolResult(found.job.tool, await found.job.result()) };
  }
  if (found.status === 'failed') {
    return { ...task, error: { code: ProtocolErrorCode.InternalError, message: found.statusMessage } };
  }
  if (found.status === 'input_required') {
    return { ...task, inputRequests: Object.fromEntries(found.input!.pending.map(({ id, ask }) => [id, wireRequest(ask)])) };
  }
  return task;
}

/**
 * Delivers a tasks/update's answers to the asks its task waits for: every answer to a waiting ask is
 * checked first (its kind's shape, an elicitation's form), then each is taken once. A key answered
 * before is refused (the first answer stands); keys that name no ask of the task are ignored, as
 * SEP-2663 has it, unless none names one and the task waits for nothing: then it says so.
 */
async function updateTask(found: StoredTask, responses: Record<string, unknown>): Promise<void> {
  const { taskId } = found;
  const pending = new Map((found.input?.pending ?? []).map(({ id, ask }) => [id, ask]));
  const answered = new Set(found.input?.answered ?? []);
  const keys = Object.keys(responses);
  const again = keys.find((key) => answered.has(key));
  if (again !== undefined) throw answeredBefore(taskId, again);
  if (!keys.some((key) => pending.has(key)) && found.status !== 'input_required') {
    const ended = TERMINAL.has(found.status) ? 'has ended' : 'is not waiting for input';
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Task ${taskId} ${ended} (its status is ${found.status}), so it takes no answers; read it with tasks/get, and answer the inputRequests of an input_required task.`,
    );
  }
  const checked: Array<[string, ElicitResult | SampleResult]> = [];
  for (const key of keys) {
    const ask = pending.get(key);
    if (ask === undefined) continue;
    const answer = checkResponse(ask.kind, key, responses[key]) as ElicitResult | SampleResult;
    if (ask.kind === 'elicit' && !fitsForm(answer as ElicitResult, ask.schema)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid inputResponses['${key}']: the accepted content does not fill the form that was asked (its fields only, the required ones present, of their types); answer it again.`,
      );
    }
    checked.push([key, answer]);
  }
  for (const [key, answer] of checked) {
    const taken = await found.job.answer!(key, answer).catch((error: unknown) => {
      if ((error as { code?: unknown })?.code === 'JOB_INPUT')
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, (error as Error).message);
      throw error;
    });
    if (taken === 'answered-before') throw answeredBefore(taskId, key);
    // The task ended (or its run started again) between the read and the answer: it takes none now.
    if (taken === 'unknown') throw notFoundAsk(taskId, key);
  }
}

function answeredBefore(taskId: string, key: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Input request '${key}' of task ${taskId} was answered already; the first answer stands. Read the task with tasks/get for what it waits for now.`,
  );
}

function notFoundAsk(taskId: string, key: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Task ${taskId} no longer waits for input request '${key}' (it ended or started again); read it with tasks/get.`,
  );
}
