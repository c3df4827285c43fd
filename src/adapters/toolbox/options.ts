/** Checks of the options a toolbox takes; every mistake is a TypeError naming the option. */
import { Invoker } from '../../index';
import { checkCallOptions, checkOptionsObject, describeValue } from '../../adapter-kit';
import type { ToolboxCallOptions } from './entry';
import type { ToolboxSearchOptions } from './search/deferred';
import { DeclarationError } from '../../index';

/** The options of `new Toolbox(tools, { ... })`, defaults for every call through it: ambient values, the container or resolver, strict schemas, the invoker and the context handlers. */
export interface ToolboxOptions {
  /**
   * Trusted values for the tools' `@AmbientContext` fields, for every call through this toolbox
   * (a per-call `ambientContext` replaces them). The model never supplies them.
   */
  ambientContext?: ToolboxCallOptions['ambientContext'];
  /** The DI container tools resolve from (a per-call `container` replaces it). */
  container?: ToolboxCallOptions['container'];
  /** How tools' instances are made (a `ToolResolver`; a per-call `resolver` replaces it; default: the invoker's). */
  resolver?: ToolboxCallOptions['resolver'];
  /**
   * Strict mode (default false): `schemas()` lists the strict projections, and calls read the
   * `null` strict mode sends for a left-out optional field as absent.
   */
  strict?: boolean;
  /** The invoker calls run through (default: one with default options). */
  invoker?: Invoker;
  /** Tool-context handlers for every call through this toolbox (a per-call `context` wins, handler by handler). */
  context?: ToolboxCallOptions['context'];
  /**
   * Deferred loading: `functions()` lists only the `core` functions and a `search_tools` function;
   * the tools a search finds are listed from then on (see the Tool search guide, docs/guide/tool-search.md).
   */
  search?: ToolboxSearchOptions;
}

/** The options of `toolbox.invokeAll(calls, { ... })`: a call's options, and how many run at once. */
export interface InvokeAllOptions extends ToolboxCallOptions {
  /** How many calls run at once (default: all of them). Records keep the order of the calls. */
  concurrency?: number;
}

const TOOLBOX_OPTIONS = new Set(['ambientContext', 'container', 'resolver', 'strict', 'invoker', 'context', 'search']);
const CALL_OPTIONS = new Set(['ambientContext', 'container', 'resolver', 'signal', 'context', 'approve']);
const INVOKE_ALL_OPTIONS = new Set([...CALL_OPTIONS, 'concurrency']);
const REGISTER_OPTIONS = new Set(['update']);

/** @internal */
export function readToolboxOptions(options: unknown): ToolboxOptions {
  const checked = checkOptionsObject('new Toolbox', options, TOOLBOX_OPTIONS);
  checkCallOptions('new Toolbox', checked);
  if (checked.strict !== undefined && typeof checked.strict !== 'boolean') {
    throw new DeclarationError(`new Toolbox: 'strict' must be true or false; got ${describeValue(checked.strict)}.`);
  }
  if (checked.invoker !== undefined && !(checked.invoker instanceof Invoker)) {
    throw new DeclarationError(`new Toolbox: 'invoker' must be an Invoker (new Invoker({ … })); got ${describeValue(checked.invoker)}.`);
  }
  return checked as ToolboxOptions;
}

/** @internal */
export function readCallOptions(options: unknown, where: string): ToolboxCallOptions {
  const checked = checkOptionsObject(where, options, CALL_OPTIONS);
  checkCallOptions(where, checked);
  return checked as ToolboxCallOptions;
}

/** @internal */
export function readInvokeAllOptions(options: unknown): { concurrency: number; call: ToolboxCallOptions } {
  const { concurrency = Infinity, ...call } = checkOptionsObject('Toolbox.invokeAll', options, INVOKE_ALL_OPTIONS);
  checkCallOptions('Toolbox.invokeAll', call);
  if (typeof concurrency !== 'number' || !(concurrency === Infinity || (Number.isInteger(concurrency) && concurrency >= 1))) {
    throw new DeclarationError(
      `Toolbox.invokeAll: 'concurrency' must be a whole number of at least 1 (or Infinity); got ${describeValue(concurrency)}.`,
    );
  }
  return { concurrency, call };
}

/** @internal `register`'s options. */
export function readRegisterOptions(options: unknown): { update: boolean } {
  const { update } = checkOptionsObject('Toolbox.register', options, REGISTER_OPTIONS);
  if (update !== undefined && typeof update !== 'boolean') {
    throw new DeclarationError(`Toolbox.register: 'update' must be true or false; got ${describeValue(update)}.`);
  }
  return { update: update === true };
}
