/**
 * `toolwright/nest`: toolwright inside a NestJS application (Nest 11 or 12, Express or Fastify
 * platform; `@nestjs/common` and `@nestjs/core` are optional peer dependencies needed by this entry
 * point only). `ToolwrightModule.forRoot(options)` finds the providers that are toolwright members,
 * resolves them through Nest's container and serves them over MCP and HTTP on the application's server.
 *
 * @module toolwright/nest
 */
import './peers';
export { ToolwrightModule } from './module';
export { ToolwrightHost } from './host';
export { NestResolver } from './resolver';
export type { NestProvider } from './resolver';
export { currentPlatformRequest } from './request-scope';
export { userIdentity } from './identity';
export { TOOLWRIGHT_MODULE_OPTIONS } from './options';
export type { NestAmbientCall, NestHttpOptions, NestMcpOptions, ToolwrightModuleAsyncOptions, ToolwrightModuleOptions } from './options';
export { nestEnhancers, toolCallOf, TOOL_CALL_CONTEXT } from './enhancers';
export { endpointGuards } from './endpoint-guards';
export type { EndpointGuard } from './endpoint-guards';
