import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ApplicationConfig, DiscoveryService, ExternalContextCreator, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { requirePeers } from '../../adapter-kit/internal';
import { SetupError, ToolDefinition, Tools, type InvokerOptions, type MemberKind, type Middleware } from '../../index';
import type { McpHttpHandler } from '../mcp/index';
import { httpApiApp } from '../http/index';
import { NestProvider, NestResolver } from './resolver';
import { currentPlatformRequest, rememberPlatformRequest, withPlatformRequest } from './request-scope';
import { TOOLWRIGHT_MODULE_OPTIONS, type ToolwrightModuleOptions } from './options';
import { nestEnhancers } from './enhancers';
import { endpointGuards } from './endpoint-guards';
import { userIdentity } from './identity';
import { withGlobalPrefix } from './global-prefix';
import { enhancerScopes, type ProviderWrapper } from './call-scope';
import { clientStatus, nestExceptionHandler } from './exceptions';

const MCP_KINDS: readonly MemberKind[] = ['tool', 'resource', 'resource-template', 'prompt', 'completion'];

type Closer = () => Promise<void>;

/** A platform request as Express and Fastify give it: the parsed body, and (Fastify) the raw pair. */
interface PlatformRequest {
  readonly body?: unknown;
  readonly raw?: IncomingMessage;
  readonly method?: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly originalUrl?: string;
  readonly url: string;
}

/**
 * Finds the application's providers that are toolwright members, and serves them over MCP and HTTP
 * on the application's own server, resolved through Nest's container.
 */
@Injectable()
export class ToolwrightHost implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly closers: Closer[] = [];
  private served:
    { resolver: NestResolver; enhancers: Middleware; members: (adapter: string, kind?: MemberKind) => ToolDefinition[] } | undefined;
  /** The MCP endpoint's handler, once mounted (its `tools`, `resources`, ... change what is served at run time). */
  mcp: McpHttpHandler | undefined;

  constructor(
    @Inject(TOOLWRIGHT_MODULE_OPTIONS) private readonly options: ToolwrightModuleOptions,
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** The members discovered for an adapter key (`Tools.forAdapter` semantics, limited to the application's providers). */
  members(adapter: string, kind: MemberKind = 'tool'): ToolDefinition[] {
    return this.discover().members(adapter, kind);
  }

  /** The resolver over the application's container (for `invoke(..., { resolver })` in your own code). */
  get resolver(): NestResolver {
    return this.discover().resolver;
  }

  /**
   * The middleware applying Nest's guards, interceptors and filters around calls (./enhancers.ts),
   * the outermost of the module's invokers: for your own `new Invoker({ resolver, middleware: [enhancers] })`.
   */
  get enhancers(): Middleware {
    return this.discover().enhancers;
  }

  private discover() {
    if (this.served) return this.served;
    const providers = new Map<Function, NestProvider>();
    const wrappers = new Map<Function, ProviderWrapper>();
    for (const wrapper of this.discovery.getProviders()) {
      // A class provider's class; a value's or a factory's product's class (its instance is made already).
      const made = wrapper.instance as object | null | undefined;
      const type =
        wrapper.metatype && !wrapper.inject ? wrapper.metatype : typeof made === 'object' && made !== null ? made.constructor : undefined;
      if (typeof type !== 'function' || providers.has(type) || wrapper.isAlias) continue;
      const isStatic = !wrapper.isTransient && wrapper.isDependencyTreeStatic();
      providers.set(type, { static: isStatic, instance: isStatic ? (wrapper.instance as object | undefined) : undefined });
      wrappers.set(type, wrapper);
    }
    const members = (adapter: string, kind: MemberKind = 'tool') =>
      Tools.forAdapter(adapter, { kind }).filter((definition) => providers.has(definition.target));
    const config = this.moduleRef.get(ApplicationConfig, { strict: false });
    const enhancers = nestEnhancers(
      this.moduleRef.get(ExternalContextCreator, { strict: false }),
      config,
      currentPlatformRequest,
      enhancerScopes(this.moduleRef, config, wrappers),
    );
    this.served = { resolver: new NestResolver(this.moduleRef, providers), enhancers, members };
    return this.served;
  }

  async onModuleInit(): Promise<void> {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return; // an application context without HTTP: nothing to mount
    const platform = adapter.getType();
    if (platform !== 'express' && platform !== 'fastify') {
      throw new SetupError(
        `ToolwrightModule: the HTTP platform '${platform}' is not supported; use @nestjs/platform-express or @nestjs/platform-fastify.`,
      );
    }
    // Nest's guards, interceptors and filters around each call (./enhancers.ts), outermost of the invoker's middleware.
    const { members, resolver, enhancers } = this.discover();
    const { ambientContext, identity = userIdentity } = this.options;
    if (typeof identity !== 'function') {
      throw new SetupError(
        `ToolwrightModule: 'identity' must be a function (request) => string | undefined naming the caller, e.g. (request) => request.user?.id; got ${String(identity)}.`,
      );
    }
    const config = this.moduleRef.get(ApplicationConfig, { strict: false });
    const invokerWith = (invoker: Omit<InvokerOptions, 'container'> | undefined) => ({
      ...invoker,
      middleware: [enhancers, ...(invoker?.middleware ?? [])],
      // An HttpException is the client's answer, not reported; anything else goes to Nest's Logger (./exceptions.ts).
      onException: nestExceptionHandler(invoker?.onException),
    });
    // The endpoint guards (./endpoint-guards.ts): false when one refused (the response is sent).
    const guarded = this.options.guards?.length ? endpointGuards(this.moduleRef, ToolwrightHost, this.options.guards) : undefined;
    const admits = (request: PlatformRequest, res: ServerResponse) => (guarded ? guarded(request, res) : true);
    if (this.options.mcp !== false) {
      const {
        path: configured = '/mcp',
        name = 'toolwright',
        version = '1.0.0',
        host,
        stateless,
        eventStore,
        auth,
        sessionIdleTimeoutMs,
        maxSessions,
        allowedHosts,
        allowedOrigins,
        ...server
      } = this.options.mcp ?? {};
      // Under the app's global prefix, read now (at init, as Nest reads it for controllers) with its `exclude` rules.
      const path = withGlobalPrefix(config, configured);
      // Loaded here, not by toolwright/nest: an application with `mcp: false` needs no MCP SDK.
      requirePeers("ToolwrightModule's mcp option (on unless mcp: false)", ['@modelcontextprotocol/server']);
      const { createMcpHttpHandler } = require('../mcp/index') as typeof import('../mcp/index');
      const endpoint = { path, host, stateless, eventStore, auth, sessionIdleTimeoutMs, maxSessions, allowedHosts, allowedOrigins };
      const handler = await createMcpHttpHandler(
        {
          ...server,
          name,
          version,
          tools: members('mcp', 'tool'),
          resources: [...members('mcp', 'resource'), ...members('mcp', 'resource-template')],
          prompts: members('mcp', 'prompt'),
          completions: members('mcp', 'completion'),
          resolver,
          invoker: invokerWith(server.invoker),
          ...(ambientContext ? { ambientContext: (mcp) => ambientContext(currentPlatformRequest(), { transport: 'mcp', mcp }) } : {}),
        },
        // Who the endpoint guards said is calling: the sessions and tasks they make are theirs.
        { ...endpoint, identity: (raw) => identity(currentPlatformRequest() ?? raw) },
      );
      this.mcp = handler;
      this.closers.push(() => handler.close());
      const serve = async (request: PlatformRequest, raw: IncomingMessage, res: ServerResponse) => {
        if (!(await admits(request, res))) return;
        return withPlatformRequest(request, () => handler.handle(raw, res, parsedBody(request, raw)));
      };
      if (platform === 'express') {
        adapter.all(path, (req: PlatformRequest & IncomingMessage, res: ServerResponse) => void serve(req, req, res));
      } else {
        adapter.all(path, (req: PlatformRequest, reply: { raw: ServerResponse; hijack(): void }) => {
          reply.hijack();
          void serve(req, req.raw!, reply.raw);
        });
      }
    }
    if (this.options.http) {
      const { prefix: configured = '/tools', host, allowedHosts, ...api } = this.options.http;
      const prefix = withGlobalPrefix(config, configured);
      requirePeers(
        "ToolwrightModule's http option",
        ['fastify', ...(api.docs === false ? [] : ['@fastify/swagger', '@fastify/swagger-ui'])],
        api.docs === false ? undefined : 'http: { docs: false } needs fastify only; Fastify serves the API inside any Nest platform',
      );
      const app = await httpApiApp(
        {
          ...api,
          // A failure's HttpException answers its own status (a guard's false: 403), as from a controller.
          errorStatus: (error) => api.errorStatus?.(error) ?? clientStatus(error),
          prefix,
          tools: members('http', 'tool'),
          resolver,
          invoker: invokerWith(api.invoker),
          ...(ambientContext
            ? { ambientContext: (request, tool) => ambientContext(currentPlatformRequest(request) ?? request, { transport: 'http', tool }) }
            : {}),
        },
        { host, allowedHosts },
      );
      this.closers.push(() => app.close());
      const forward = async (request: PlatformRequest, raw: IncomingMessage, res: ServerResponse) => {
        if (!(await admits(request, res))) return;
        const parsed = parsedBody(request, raw);
        // Fastify's router does not keep the async context: the platform request is found by the raw request too.
        const route = (inner: IncomingMessage, out: ServerResponse) => {
          rememberPlatformRequest(inner, request);
          app.routing(inner, out);
        };
        if (!parsed) return withPlatformRequest(request, () => route(raw, res));
        // The platform read the body already: the API gets it again, as JSON, through the request
        // injector Fastify's own inject() uses, on `route`, so the request it makes is recorded too.
        const answer = await withPlatformRequest(request, () =>
          injectRequest(route, {
            method: raw.method as 'POST',
            url: raw.url ?? request.url,
            headers: withoutLength(raw.headers),
            ...(parsed.body === undefined ? {} : { payload: JSON.stringify(parsed.body) }),
          }),
        );
        res.writeHead(answer.statusCode, answer.headers as Record<string, string>);
        res.end(answer.rawPayload);
      };
      const report = (res: ServerResponse) => (error: unknown) => {
        console.error('toolwright/nest: the HTTP API failed:', error);
        if (!res.headersSent) res.writeHead(500).end();
      };
      if (platform === 'express') {
        const handle = (req: PlatformRequest & IncomingMessage, res: ServerResponse) => void forward(req, req, res).catch(report(res));
        adapter.all(prefix, handle);
        adapter.all(`${prefix}/{*rest}`, handle);
      } else {
        const handle = (req: PlatformRequest, reply: { raw: ServerResponse; hijack(): void }) => {
          reply.hijack();
          void forward(req, req.raw!, reply.raw).catch(report(reply.raw));
        };
        adapter.all(prefix, handle);
        adapter.all(`${prefix}/*`, handle);
      }
    }
  }

  /**
   * Ends the MCP sessions (their event streams) and the HTTP API before Nest closes the HTTP server,
   * which waits for open connections: a client holding a 2025-11-25 session's stream open would
   * otherwise hold `app.close()` (and a SIGTERM with shutdown hooks) for as long as it stays.
   */
  async beforeApplicationShutdown(): Promise<void> {
    for (const close of this.closers.splice(0)) await close();
  }

  /** Nothing left to close when `beforeApplicationShutdown` ran (Nest calls both on `app.close()`). */
  async onApplicationShutdown(): Promise<void> {
    await this.beforeApplicationShutdown();
  }
}

type Injector = (
  dispatch: (req: IncomingMessage, res: ServerResponse) => void,
  options: { method: 'POST'; url: string; headers: Record<string, string | string[]>; payload?: string },
) => Promise<{ statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer }>;
let injector: Injector | undefined;

/** light-my-request, the copy the installed Fastify depends on (the one its inject() calls), loaded once. */
function injectRequest(...args: Parameters<Injector>): ReturnType<Injector> {
  injector ??= createRequire(require.resolve('fastify'))('light-my-request') as Injector;
  return injector(...args);
}

/** The body when the platform consumed the request stream already (its body parser ran), else undefined: read it from the stream. */
function parsedBody(request: PlatformRequest, raw: IncomingMessage): { body: unknown } | undefined {
  if (raw.method !== 'POST') return undefined;
  return raw.readableEnded || ((raw as { complete?: boolean }).complete && raw.readableLength === 0 && request.body !== undefined)
    ? { body: request.body }
    : undefined;
}

function withoutLength(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const copy: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && name !== 'content-length' && name !== 'transfer-encoding') copy[name] = value;
  }
  return copy;
}
