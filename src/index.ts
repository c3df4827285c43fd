// First: records whether reflect-metadata was loaded before toolwright (for setup-mistake messages).
import './interop/reflect-probe';
import 'reflect-metadata';

// Decorators
export { Tool } from './decorators/tool';
export type { ToolOptions, AdapterToolOptions, ToolArgument, ToolDecorator, ToolDeclaration, ToolApproval } from './decorators/tool';
export { ToolVersion } from './decorators/tool-version';
export { Description } from './decorators/description';
export { SemanticHints } from './decorators/semantic-hints';
export { Expects } from './decorators/expects';
export { Exposes } from './decorators/exposes';
export { Field } from './decorators/field';
export type { FieldDecorator } from './decorators/field';
export { AmbientContext } from './decorators/ambient-context';
export { FailsOn } from './decorators/fails-on';
export type { FailsOnRule } from './decorators/fails-on';
export type { ClassOrMethodDecorator } from './decorators/class-or-method';

// Contract vocabulary
export { Integer } from './contract/types';
export type {
  AnyClass,
  AmbientOptions,
  ContractSpec,
  EnumSpec,
  FieldFormat,
  FieldOptions,
  InlineField,
  InlineShape,
  TypeSpec,
} from './contract/types';

// Registry
export { ToolRegistry, Tools, describeTool } from './registry/tool-registry';
export type { RegistryOptions, AdapterRegistration, VersionGroup, ToolLike } from './registry/tool-registry';
export { ToolDefinition } from './registry/tool-definition';
export { sanitizeToolName } from './naming/tool-name';

// DI
export { resolveTool } from './invocation/resolve-tool';

// Extensions and errors
export { Extensions, BUILT_IN_SEMANTIC_HINTS } from './extensions/extensions';
export { ToolwrightError, isToolwrightError } from './errors/toolwright-error';
export { ToolResolutionError } from './errors/errors';

// Invocation
export { fail, ToolFailure } from './invocation/failure';
export type { FailOptions } from './invocation/failure';

// Schemas
export { inputSchema, outputSchema, schemaOf } from './schema/schemas';
export type { JsonSchema, SchemaDialect, SchemaDirection, SchemaOptions } from './schema/build-schema';
export { invoke, Invoker } from './invocation/invoker';
export type { CallOptions, InvokerOptions, ToolContext } from './invocation/invoker';
export { checkCallContext, LOG_LEVELS } from './invocation/tool-context';
export { Content, contentAsText, ToolContent } from './content/content';
export type { Bytes, ContentPart, EmbeddedResource, ResourceLink } from './content/content';
export type {
  CallAuth,
  CallContext,
  CallIdentity,
  ContextCall,
  ElicitField,
  ElicitResult,
  ElicitSchema,
  LogLevel,
  SampleContent,
  SampleMessage,
  SampleRequest,
  SampleResult,
  ToolContextHandlers,
} from './invocation/tool-context';
export type { ToolOutput } from './invocation/tool-output';
export type { ContractType, ShapeType, TypeOfSpec } from './contract/contract-type';
export { Result, isOwnedFailure } from './invocation/result';
export type { Outcome, SettledResult } from './invocation/result';
export { withAmbientContext } from './invocation/ambient';
export type { AmbientSource } from './invocation/ambient';
export { defineTool } from './invocation/define-tool';
export type { InlineTool, InlineToolOptions } from './invocation/define-tool';
export { configure } from './config/toolwright-config';
export type { ExceptionContext, ExceptionHandler, ToolwrightSettings } from './config/toolwright-config';
export type { ToolwrightWarning, WarningHandler } from './util/warnings';
export {
  InputValidationError,
  AmbientContextError,
  OutputContractError,
  UnserializableValueError,
  ToolCancelledError,
  ToolTimeoutError,
  ToolContextUnavailableError,
} from './errors/errors';
export type { FieldError } from './errors/errors';

// The call pipeline: middleware, approvals, tracing
export type { Middleware, ToolCall, AmbientValues, TransportName } from './invocation/pipeline';
export { concurrencyLimit, rateLimit, audit } from './invocation/middleware';
export type { ConcurrencyLimitOptions, RateLimitOptions, AuditRecord, AuditOptions } from './invocation/middleware';
export type { Approver, ApprovalDecision } from './invocation/approval';
export { Tracing } from './invocation/tracing';
export type { TracingSpan, CallTrace, SpanAttributes, SpanAttributeValue } from './invocation/tracing';
export { ToolApprovalError, ToolRateLimitError, ToolBusyError } from './errors/errors';

// Serialization and the adapter kit
export { render } from './serialization/serialize';
export type { RenderOptions } from './serialization/json-safe';
export { defineAdapterConfig, declareRejectOpaqueExposedValues } from './config/define-adapter-config';
export type { AdapterConfig } from './config/define-adapter-config';
export type { SettingSpec, SettingSpecs } from './config/adapter-config';
export { guardToolResponse, MAPPING_FAILURE } from './config/guard';
/** Message helpers for adapters' own errors, in toolwright's style. */
export { describeValue, joinWords, isPlainObject } from './util/describe-value';
export { createDeprecator } from './util/deprecation';
export type { Contract, FieldModel, TypeNode, Constraint, MessageFn, NodeKind, DefaultValue } from './contract/field-model';
/** The field model of a contract class: what adapters walk to follow nested classes. */
export { contractOf } from './contract/build-contract';
