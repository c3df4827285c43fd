/**
 * `toolwright/http`: every tool version as a REST endpoint (`POST {prefix}/{tool_name}/v{n}`, GET
 * for readOnly tools), RFC 9457 problems, OpenAPI 3.1 and a docs page. A Fastify 5 plugin (Fastify
 * is a peer dependency of this entry point only). Importing it registers the adapter key `http`.
 *
 * @module toolwright/http
 */
import { Tools } from '../../index';
import { HTTP_ADAPTER } from './config';

Tools.registerAdapter(HTTP_ADAPTER);

export { HttpConfig, HTTP_ADAPTER, DEFAULT_FAILURE_STATUS } from './config';
export type { FailureClass, FailureStatus } from './config';
export { toolwrightHttp } from './plugin';
export { httpApiApp, serveHttpApi } from './serve';
export type { HttpApiHandle, HttpApiServeOptions } from './serve';
export { httpApiDocument } from './openapi';
export type { OpenApiDocument } from './openapi';
export type { HttpApiInfo, HttpApiOptions, HttpAuth, HttpAuthVerdict } from './options';
export { PROBLEM_CONTENT_TYPE } from './problem';
export type { Problem, ProblemFieldError } from './problem';
