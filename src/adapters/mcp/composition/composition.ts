/**
 * Who sees what and one server from many, as a server applies them: the `visible` rule beside
 * scopes (visibility.ts), local mounts served at once, remote mounts started once every option
 * passed its checks (so nothing is started for a server that is never built).
 */
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { RequestContext } from '../members/call-request';
import { isRemoteMount, McpMount, mountLocal } from './mounts';
import type { McpServedSets } from '../members/served-sets';
import { RemoteMount } from './remote-mount';
import type { McpRequestContext } from '../members/request-context';
import type { ServedMember } from '../members/served-members';
import { McpVisibleRule, Visibility } from './visibility';

/** The options of `createMcpServer` this file applies. */
export interface McpCompositionOptions {
  /**
   * Who sees what: asked per request whether this member may be listed and used (beside its
   * scopes: both apply), from the verified token (`request.authInfo`, its `extra` claims), headers,
   * session and protocol revision; `member.tags` are the declared `@Tool({ tags })` (and a mount's).
   * A member it hides answers exactly as an unknown one. Asked once per member per list, and only
   * for the member a request names. A rule that throws, answers no boolean or takes longer than
   * `visibleTimeoutMs` hides the member and is reported to the server (fail-closed). With a rule,
   * lists are cached privately (listCache's cacheScope is 'private').
   */
  visible?: McpVisibleRule;
  /** How long `visible` may take for one member, in milliseconds (default 5,000); then the member is hidden. */
  visibleTimeoutMs?: number;
  /**
   * Other members served under a namespace (as `<namespace>_<name>`): local tools
   * (`{ namespace, tools }` or `{ namespace, registry }`) with their own scopes, tags and pipeline,
   * and remote MCP servers admitted by their security policy (`{ namespace, server:
   * admitMcpServer(…) }`), whose tools run through this server's invoker. `serveHttp` and
   * `serveStdio` wait for remote mounts to be served before they answer (and fail if one cannot be).
   */
  mounts?: readonly McpMount[];
}

/** A rule's failure, reported to the server (its onerror, else the console), never to the client. */
function reporter(server?: Server): (error: Error) => void {
  return (error) => (server?.onerror ? server.onerror(error) : console.error(`toolwright/mcp: ${error.message}`, error.cause ?? ''));
}

export class Composition {
  private readonly visibility: Visibility;
  private remotes: RemoteMount[] = [];

  /** Checks the options and serves the local mounts (checked by checkMounts); remote ones wait for `start`. */
  constructor(
    options: McpCompositionOptions,
    private readonly mounts: readonly McpMount[],
    private readonly sets: McpServedSets,
    unauthenticated: readonly string[],
  ) {
    this.visibility = Visibility.of(options.visible, options.visibleTimeoutMs, unauthenticated);
    for (const mount of this.mounts) if (!isRemoteMount(mount)) mountLocal(sets, mount);
  }

  /** Whether a `visible` rule decides per request (then lists differ per caller). */
  get ruled(): boolean {
    return this.visibility.ruled;
  }

  /** Starts (connects) every remote mount: their servers were admitted by their policies. */
  start(): void {
    const report = (error: Error) => console.error(`toolwright/mcp: ${error.message}`);
    this.remotes = this.mounts.filter(isRemoteMount).map((mount) => new RemoteMount(mount, this.sets, report));
  }

  /** THE rule of who may see and use a member of any kind on this server's request: scopes, then the visible rule. */
  allows(server: Server, served: ServedMember, ctx: ServerContext): Promise<boolean> {
    return Promise.resolve(this.visibility.allows(served, ctx.http?.authInfo, this.requestOf(server, ctx), reporter(server)));
  }

  /** The same rule for a request no SDK server answers (a 2026-07-28 subscriptions/listen stream). */
  allowsRequest(served: ServedMember, request: McpRequestContext): Promise<boolean> {
    return Promise.resolve(this.visibility.allows(served, request.authInfo, () => request, reporter()));
  }

  /** The members of a list this request may see (the rule asked once for each). */
  filter<T extends ServedMember>(server: Server, all: Iterable<T>, ctx: ServerContext): Promise<T[]> {
    return this.visibility.filter(all, ctx.http?.authInfo, this.requestOf(server, ctx), reporter(server));
  }

  /** Resolves once every remote mount is served; rejects with why one could not be. */
  async ready(): Promise<void> {
    await Promise.all(this.remotes.map((remote) => remote.ready()));
  }

  async close(): Promise<void> {
    await Promise.all(this.remotes.map((remote) => remote.close()));
  }

  private requestOf(server: Server, ctx: ServerContext): () => RequestContext {
    return () => new RequestContext(ctx, server.getNegotiatedProtocolVersion());
  }
}
