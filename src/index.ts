/**
 * `toolwright`: the application author's entry point: the decorators, the registry, contracts and
 * schemas, invocation and its pipeline, content, and the error family.
 *
 * @module toolwright
 */
// First: a missing required peer is named (./errors/core-peers.ts), before anything requires one.
import './errors/core-peers';
// Then: records whether reflect-metadata was loaded before toolwright (for setup-mistake messages).
import './interop/reflect-probe';
import 'reflect-metadata';

// Decorators
export { Tool } from './decorators/tool';
export type { ToolOptions, AdapterToolOptions, ToolArgument, ToolDecorator } from './decorators/tool';
export type {
  ToolDeclaration,
  ToolApproval,
  FailsOnRule,
  MemberKind,
  MemberFacts,
  ResourceFacts,
  ResourceAnnotations,
  ResourceCache,
  PromptFacts,
  CompletionFacts,
} from './metadata/definitions';
export type { MemberOptions, MemberArgument, MemberDecorator } from './decorators/member';
export { Resource, ResourceTemplate } from './decorators/resource';
export type { ResourceOptions, FixedResourceOptions, ResourceArgument, ResourceTemplateArgument } from './decorators/resource';
export { Prompt } from './decorators/prompt';
export type { PromptOptions, PromptArgument } from './decorators/prompt';
export { Complete } from './decorators/complete';
export type { CompleteOptions, CompletionRequest, CompletionAnswer } from './decorators/complete';
export { ToolVersion } from './decorators/tool-version';
export { Description } from './decorators/description';
export { SemanticHints } from './decorators/semantic-hints';
export { Expects } from './decorators/expects';
export { Exposes } from './decorators/exposes';
export { Field } from './decorators/field';
export { SchemaName } from './decorators/schema-name';
export { JsonSchemaKeywords } from './decorators/json-schema-keywords';
export type { FieldDecorator } from './decorators/field';
export { AmbientContext } from './decorators/ambient-context';
export { FailsOn } from './decorators/fails-on';
export type { ClassOrMethodDecorator } from './decorators/class-or-method';

// Contract vocabulary
export { Integer } from './metadata/vocabulary';
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
} from './metadata/vocabulary';

// Registry
export { ToolRegistry, Tools } from './registry/tool-registry';
export { describeTool } from './api/describe-tool';
export type { RegistryOptions, AdapterRegistration, VersionGroup, ToolLike, ForAdapterOptions } from './registry/tool-registry';
export { ToolDefinition } from './registry/tool-definition';

// DI
export { resolveTool, tsyringeResolver } from './invocation/resolve-tool';
export type { ToolResolver, ResolveCall } from './invocation/resolver';

// Errors
export { ToolwrightError, isToolwrightError } from './errors/toolwright-error';
export { ToolResolutionError } from './errors/errors';
export { DeclarationError, SetupError, ToolConflictError, UnknownAdapterError } from './errors/declaration-errors';
export type { ConflictingTool, DeclarationSite, DeclarationSiteInput } from './errors/declaration-errors';

// Invocation
export { fail, ToolFailure } from './invocation/failure';
export type { FailOptions } from './invocation/failure';

// Schemas
export { inputSchema, outputSchema, schemaOf } from './api/schemas';
export type { JsonSchema, SchemaDialect, SchemaDirection, SchemaOptions } from './schema/build-schema';
export { invoke, Invoker } from './invocation/invoker';
export type { CallOptions, InvokerOptions, ToolContext } from './invocation/invoker';
export { checkCallContext, LOG_LEVELS } from './invocation/tool-context';
export { Content, contentAsText, ToolContent, PromptMessages } from './content/content';
export type { Bytes, ContentPart, EmbeddedResource, ResourceLink, PromptMessage } from './content/content';
export type {
  AskCall,
  AskOperation,
  AskOptions,
  CallAuth,
  CallContext,
  CallIdentity,
  ClientRoot,
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
export { Result } from './invocation/result';
export type { Outcome, SettledResult } from './invocation/result';
export { withAmbientContext } from './invocation/ambient';
export type { AmbientSource } from './invocation/ambient';
export { defineTool } from './api/define-tool';
export type { InlineTool, InlineToolOptions } from './api/define-tool';
export { configure } from './invocation/toolwright-config';
export type { ExceptionContext, ExceptionHandler, ToolwrightSettings } from './invocation/toolwright-config';
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
export type { FieldError, FieldErrorKeyword } from './errors/errors';

// The call pipeline: middleware, approvals, tracing
export type { Middleware, ToolCall, AmbientValues, TransportName } from './invocation/pipeline';
export { concurrencyLimit, rateLimit, audit } from './invocation/middleware';
export type { ConcurrencyLimitOptions, RateLimitOptions, AuditRecord, AuditOptions } from './invocation/middleware';
export type { Approver, ApprovalDecision } from './invocation/approval';
export { APPROVAL_QUESTION_LIMITS } from './invocation/approval-question';
export type { ApprovalQuestion } from './invocation/approval-question';
export { Tracing } from './invocation/tracing';
export type { TracingSpan, CallTrace, SpanAttributes, SpanAttributeValue } from './invocation/tracing';
export { ToolApprovalError, ToolRateLimitError, ToolBusyError } from './errors/errors';

// The adapter authors' names (defineAdapterConfig, guardToolResponse, render, Extensions, the field
// model, …) are in `toolwright/kit` (src/adapter-kit/index.ts).

// The installed package
export { VERSION } from './util/package-info';
