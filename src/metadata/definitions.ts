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
}

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
