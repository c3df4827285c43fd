/**
 * `toolwright/kit`: the adapter authors' entry point. What an adapter needs to project tools into a
 * transport and nothing an application author uses (that is `toolwright`): adapter settings, the
 * response guard, rendering against a contract, the field model, vocabulary extensions, the shared
 * default invoker, and the message and option-checking helpers the first-party adapters use.
 *
 * Any name exported here is public API for adapter authors.
 *
 * @module toolwright/kit
 */
// The core first: reflect-metadata's load order is recorded and the built-in adapters' keys exist.
import '../index';

// Adapter settings
export { defineAdapterConfig, declareRejectOpaqueExposedValues } from './define-adapter-config';
export type { AdapterConfig } from './define-adapter-config';
export type { SettingSpec, SettingSpecs } from '../extensions/adapter-settings';

// Calling and answering
export { defaultInvoker } from '../invocation/invoker';
export { checkCallOptions } from '../invocation/call-options';
export { guardToolResponse, MAPPING_FAILURE } from './guard';
/** The message of a failure or an exception whose tool declares no error headline. */
export { DEFAULT_ERROR } from '../invocation/result';

// Rendering and the field model
export { render } from '../api/render';
export type { RenderOptions } from '../serialization/json-safe';
/** The field model of a contract class: what adapters walk to follow nested classes. */
export { contractOf } from '../contract/build-contract';
export type { Contract, FieldModel, TypeNode, Constraint, MessageFn, NodeKind, DefaultValue } from '../contract/field-model';
/** The registered names of the class-validator decorators the field model translates into JSON Schema. */
export { MAPPED_VALIDATORS } from '../contract/sources/class-validator-mapping';

// Vocabulary
export { Extensions } from '../extensions/extensions';

// Adapters' own errors and rules, in toolwright's style
export { describeValue } from '../util/describe-value';
export { checkKnownKeys, checkOptionsObject } from '../errors/known-keys';
export type { KnownKeysStyle } from '../errors/known-keys';
export { isLoopbackHost } from '../util/loopback';
export { createDeprecator } from '../util/deprecation';

// Resource templates (RFC 6570): read once, expanded, matched in linear time
export { UriTemplate } from '../util/uri-template';
export type { UriTemplateVariable, UriTemplateValue, UriTemplateScalar, UriTemplateMatch } from '../util/uri-template';
export { ToolSearch } from './tool-search';
export type { SearchableTool, ToolSearchHit, ToolSearchOptions } from './tool-search';
