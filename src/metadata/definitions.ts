/**
 * The declaration records: what the decorators store on a class (under `KEYS`) and every later
 * layer reads. They live here, below the decorators, so the contract layer and the registry read
 * them without importing a decorator.
 */
import type { Site } from './site';
import type { AnyClass, FieldOptions, InlineShape } from './vocabulary';

/** When a tool's calls need a person's approval: always, or when a function of the validated input says so. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolApproval = 'required' | ((input: any) => boolean);

/** The normalized record of one `@Tool(...)`. */
export interface ToolDeclaration {
  readonly site: Site;
  readonly optOut: boolean;
  /** `'all'`: every registered adapter; otherwise the granted keys (unknown keys never match). */
  readonly grants: 'all' | readonly string[];
  readonly except: readonly string[];
  readonly name?: string;
  readonly description?: string;
  readonly title?: string;
  readonly error?: string;
  readonly success?: string;
  /** Class tools: the entry method. */
  readonly method?: string;
  readonly adapters: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The call's time limit in milliseconds, if declared. */
  readonly timeoutMs?: number;
  /** Whether calls need a person's approval, if declared. */
  readonly approval?: ToolApproval;
  /** Free-form labels a server's `visible` rule may read (`['billing', 'beta']`). */
  readonly tags: readonly string[];
  /** What kind of member this declares beside a tool (absent: a tool), and that kind's own facts. */
  readonly member?: MemberFacts;
}

/** The kinds of member a registry enumerates: tools and what MCP serves beside them. */
export type MemberKind = 'tool' | 'resource' | 'resource-template' | 'prompt' | 'completion';

/** How a resource is meant to be used (MCP resource `annotations`). */
export interface ResourceAnnotations {
  /** Who the resource is for. */
  readonly audience?: readonly ('user' | 'assistant')[];
  /** 0 (optional) to 1 (effectively required). */
  readonly priority?: number;
}

/** A `@Resource` (a fixed URI) or `@ResourceTemplate` (an RFC 6570 template whose variables are its input). */
export interface ResourceFacts {
  readonly kind: 'resource' | 'resource-template';
  /** The URI (`@Resource`) or the URI template (`@ResourceTemplate`). */
  readonly uri: string;
  /** A template's variables, in order (none for a fixed URI). */
  readonly variables: readonly { readonly name: string; readonly explode: boolean }[];
  readonly mimeType?: string;
  /** The size in bytes, when known in advance (fixed URIs). */
  readonly size?: number;
  readonly annotations?: ResourceAnnotations;
  /** How long MCP 2026-07-28 clients may keep what it reads, and whether shared caches may (`cache` option). */
  readonly cache?: Readonly<ResourceCache>;
}

/**
 * The `cache` option of `@Resource` and `@ResourceTemplate`: the `ttlMs` and `cacheScope` its
 * `resources/read` answers carry on MCP 2026-07-28 (2025-11-25 answers carry none).
 */
export interface ResourceCache {
  /** Milliseconds a client may answer a read of it from its cache (0: read every time). */
  ttlMs: number;
  /**
   * `'private'` (default): only the caller's own cache may keep it. `'public'`: shared caches may too,
   * for content that is the same for every caller; a resource with scopes, or on a server with a
   * `visible` rule, reads as `'private'` whatever this says.
   */
  cacheScope?: 'public' | 'private';
}

/** A `@Prompt`: its arguments are its input contract. */
export interface PromptFacts {
  readonly kind: 'prompt';
}

/** A `@Complete`: suggestions for one argument of a prompt or variable of a resource template. */
export interface CompletionFacts {
  readonly kind: 'completion';
  /** The argument or variable completed. */
  readonly argument: string;
  /** Where the prompt or template is declared: a class (or a thunk of one), and a method for method members. */
  readonly of: { readonly target: Function | (() => Function); readonly method?: string; readonly thunk: boolean };
}

/** What a member beside the tools records about itself: a resource or template, a prompt, or a completion. */
export type MemberFacts = ResourceFacts | PromptFacts | CompletionFacts;

/** One `@FailsOn(ErrorClass, message?)`. */
export interface FailsOnRule {
  readonly errorClass: abstract new (...args: never[]) => unknown;
  /** The user-facing reason; without one the foreign error's own text is never shown. */
  readonly message?: string;
}

/** The recorded, not yet resolved, contract of a tool. */
export type ContractRef =
  | { readonly kind: 'class'; readonly target: AnyClass }
  | { readonly kind: 'thunk'; readonly thunk: () => AnyClass }
  | { readonly kind: 'shape'; readonly shape: InlineShape; readonly name: string };

/** What `@Field` / `@AmbientContext` record for one property. */
export interface FieldDeclaration {
  readonly options?: Readonly<FieldOptions>;
  readonly ambient?: { readonly key: string };
  /** Position among the class's declarations, to keep source order across decorator libraries. */
  readonly position: number;
}
