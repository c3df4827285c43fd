/**
 * Helpers the first-party adapters and the `toolwright` command share with the core but that are
 * not published: no package.json export reaches this module, so third-party adapters cannot depend
 * on it and toolwright is free to change it. test/architecture/boundaries.test.ts allows first-party
 * code to import it by name; everything else an adapter uses comes from `toolwright` or
 * `toolwright/kit`.
 */
export { isPlainObject, joinWords } from '../util/describe-value';
export { setOwn } from '../util/own-property';
export { deepFreeze } from '../util/deep-freeze';
export { canonicalJson } from '../util/canonical-json';
export { AskedApprovals, CHANGED_AFTER_APPROVAL } from '../util/asked-approvals';
export { cacheHintProblem } from '../util/cache-hint';
export type { CacheHintFields } from '../util/cache-hint';
export { foreignTool } from '../invocation/foreign-tool';
export type { ForeignToolSpec } from '../invocation/foreign-tool';
export { DEFAULT_REQUEST_TIMEOUT_MS, formatCount, isTimeoutMs, TIMEOUT_RULE } from '../util/limits';
export { hasSensitive, redact, REDACTED } from '../invocation/redact';
export { promptMessagesOf } from '../content/content';
export { climbingVariable } from '../util/uri-template';
export { checkMemberContract } from '../registry/tool-registry';
export { TAG as TAG_PATTERN } from '../decorators/member';
export { findTsconfig, readTsconfigOptions } from '../util/tsconfig';
export type { TsconfigOptions } from '../util/tsconfig';
export { reportException } from '../invocation/toolwright-config';
export { missingPeers, requirePeers } from '../errors/peers';
export { configuredExceptionHandler } from '../invocation/toolwright-config';
export { warn } from '../util/warnings';
export { MAX_QUERY_LENGTH, readSearch } from './tool-search';
