/**
 * MCP 2026-07-28 `subscriptions/listen` streams and the resources they name. A stream hears of a
 * resource's update only while the URI names a resource its caller may see (scopes, then the
 * server's `visible` rule): checked when the stream opens (a URI naming no resource the caller may
 * see, hidden or absent alike, is left out of the filter, so the acknowledgement says the same for
 * both) and again before each update is sent (a resource hidden since, or removed, is not
 * announced). The SDK's listen router serves the stream; this narrows the request it is given and
 * filters the updates it sends.
 */
import type { AuthInfo, RequestId } from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';
import { isPlainObject } from '../../../adapter-kit/internal';
import { MAX_SUBSCRIPTIONS, MAX_URI_LENGTH } from './member-calls';
import { McpRequestContext, McpRequestHeaders } from './request-context';

/** Whether `uri` names a resource (fixed, or a template's) the caller of `request` may see. */
export type ResourceVisibleTo = (uri: string, request: McpRequestContext) => Promise<boolean>;

/** The request a listen stream was opened by (HTTP), or the connection it runs on (stdio), as the `visible` rule sees it. */
export class ListenRequest extends McpRequestContext {
  override readonly sessionId = undefined;

  constructor(
    override readonly requestId: RequestId,
    override readonly protocolVersion: string,
    override readonly signal: AbortSignal,
    override readonly authInfo?: AuthInfo,
    override readonly headers?: Readonly<McpRequestHeaders>,
    override readonly meta?: Readonly<Record<string, unknown>>,
  ) {
    super();
  }

  /** A listen stream has no progress to report. */
  override async progress(): Promise<void> {}
}

/** What `narrowListen` makes of a listen request: the body to serve, and the filter of its stream; or the refusal. */
export type NarrowedListen = { body: unknown; stream: (response: Response) => Response } | { refusal: string; id: RequestId };

/**
 * A `subscriptions/listen` request naming resources, narrowed to those its caller may see, and the
 * filter of its stream; undefined for any other request (or a malformed one, which the SDK refuses).
 */
export async function narrowListen(
  body: unknown,
  visibleTo: ResourceVisibleTo,
  request: { authInfo?: AuthInfo; headers: IncomingHttpHeaders; signal: AbortSignal },
): Promise<NarrowedListen | undefined> {
  if (!isPlainObject(body) || body.method !== 'subscriptions/listen' || !isPlainObject(body.params)) return undefined;
  const { params } = body;
  const notifications = params.notifications;
  if (!isPlainObject(notifications)) return undefined;
  const uris = notifications.resourceSubscriptions;
  if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string')) return undefined;
  const id = body.id as RequestId;
  if (uris.length > MAX_SUBSCRIPTIONS) {
    return {
      id,
      refusal: `Invalid subscriptions/listen request: resourceSubscriptions names ${uris.length} URIs; this server listens to at most ${MAX_SUBSCRIPTIONS} per stream. Open several streams, or name fewer.`,
    };
  }
  const meta = isPlainObject(params._meta) ? params._meta : undefined;
  const protocolVersion =
    typeof meta?.['io.modelcontextprotocol/protocolVersion'] === 'string' ? meta['io.modelcontextprotocol/protocolVersion'] : '';
  const context = new ListenRequest(id, protocolVersion, request.signal, request.authInfo, request.headers, meta);
  const sees = (uri: string) => uri.length <= MAX_URI_LENGTH && uri !== '' && visibleTo(uri, context);
  const seen = await Promise.all((uris as string[]).map(sees));
  const kept = (uris as string[]).filter((_, i) => seen[i]);
  return {
    body: { ...body, params: { ...params, notifications: { ...notifications, resourceSubscriptions: kept } } },
    stream: (response) => withoutUnseen(response, async (uri) => await sees(uri)),
  };
}

const UPDATED = 'notifications/resources/updated';

/** The URI of an SSE event that is a resource update, else undefined. */
function updatedUri(event: string): string | undefined {
  if (!event.includes(`"${UPDATED}"`)) return undefined;
  for (const line of event.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try {
      const message = JSON.parse(line.slice(5)) as { method?: unknown; params?: { uri?: unknown } };
      if (message.method === UPDATED) return typeof message.params?.uri === 'string' ? message.params.uri : '';
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The stream's events in order, less the resource updates `sees` says no to (asked at delivery). The
 * SDK writes each event whole: at most one event is held while it is checked.
 */
function withoutUnseen(response: Response, sees: (uri: string) => Promise<boolean>): Response {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const filter = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
        const event = pending.slice(0, end + 2);
        pending = pending.slice(end + 2);
        const uri = updatedUri(event);
        if (uri === undefined || (await sees(uri))) controller.enqueue(encoder.encode(event));
      }
    },
    flush(controller) {
      if (pending !== '') controller.enqueue(encoder.encode(pending));
    },
  });
  return new Response(response.body.pipeThrough(filter), { status: response.status, headers: response.headers });
}
