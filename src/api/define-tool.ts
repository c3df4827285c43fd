import { Expects } from '../decorators/expects';
import { Exposes } from '../decorators/exposes';
import { SemanticHints } from '../decorators/semantic-hints';
import { Tool } from '../decorators/tool';
import { ToolVersion } from '../decorators/tool-version';
import type { ContractType } from '../contract/contract-type';

import type { ContractSpec } from '../metadata/vocabulary';
import { KEYS } from '../metadata/keys';
import { defineFact } from '../metadata/site';
import { pascalCase } from '../naming/pascal-case';
import { sanitizeToolName } from '../naming/tool-name';
import { describeValue, isPlainObject } from '../util/describe-value';
import type { ToolApproval } from '../metadata/definitions';
import type { ToolContext } from '../invocation/invoker';
import { DeclarationError } from '../errors/declaration-errors';
import { checkKnownKeys } from '../errors/known-keys';

/** The input a `defineTool` function receives, from its options' `expects`. */
type InputOf<Options> = Options extends { expects: infer Spec } ? ContractType<Spec> : ContractType<undefined>;

/** The options of `defineTool({ ... }, fn)`: a tool declared as a function, with its name and inline contracts. */
export interface InlineToolOptions {
  /** The tool name (required: an inline tool has no class name to derive one from). */
  name: string;
  description?: string;
  title?: string;
  /** The input contract: an inline shape or a DTO class. Leave out for a tool without input. */
  expects?: ContractSpec;
  /** The output contract. */
  exposes?: ContractSpec;
  error?: string;
  success?: string;
  hints?: readonly string[];
  version?: number;
  /** The call's time limit in milliseconds, as `@Tool({ timeoutMs })`. */
  timeoutMs?: number;
  /** Whether a person must approve each call, as `@Tool({ approval })`. */
  approval?: ToolApproval;
}

/** The class `defineTool` builds: a class tool whose `call` runs your function. */
export interface InlineTool<I, O> {
  new (): { call(input: I, context: ToolContext): Promise<O> };
}

const OPTION_KEYS = ['name', 'description', 'title', 'expects', 'exposes', 'error', 'success', 'hints', 'version', 'timeoutMs', 'approval'];

/**
 * Builds a one-off tool from inline shapes and a function, without a class file. It behaves
 * exactly like a declared class tool, except that it is never enumerated by adapter key: hold it
 * and pass it to `invoke` or an adapter's `wrap`. The function's `input` is typed from `expects`
 * (`{ q: String, n: { type: Integer, optional: true } }` → `{ q: string; n?: number }`), and
 * `invoke(tool, args)` resolves to a `Result` of what the function returns.
 */
export function defineTool<const Options extends InlineToolOptions, O>(
  options: Options,
  fn: (input: InputOf<Options>, context: ToolContext) => O | Promise<O>,
): InlineTool<InputOf<Options>, O> {
  type I = InputOf<Options>;
  if (!isPlainObject(options))
    throw new DeclarationError(`defineTool: the first argument must be an options object; got ${describeValue(options)}.`);
  checkKnownKeys('defineTool', options, OPTION_KEYS);
  if (typeof options.name !== 'string' || sanitizeToolName(options.name) === '') {
    throw new DeclarationError(
      `defineTool: 'name' is required and needs a provider-safe character (e.g. 'search_docs'); got ${describeValue(options.name)}.`,
    );
  }
  if (typeof fn !== 'function')
    throw new DeclarationError(`defineTool(${options.name}): the second argument must be the tool's function; got ${describeValue(fn)}.`);
  const className = pascalCase(sanitizeToolName(options.name));
  const made = {
    [className]: class {
      call(input: I, context: ToolContext): Promise<O> {
        return Promise.resolve(fn(input, context));
      }
    },
  }[className];
  defineFact(KEYS.inline, true, { target: made });
  Expects(options.expects ?? {})(made); // left out: a tool without input, declared as such
  if (options.exposes !== undefined) Exposes(options.exposes)(made);
  if (options.hints !== undefined) SemanticHints(...options.hints)(made);
  if (options.version !== undefined) ToolVersion(options.version)(made);
  const { name, description, title, error, success, timeoutMs, approval } = options;
  Tool(
    Object.fromEntries(
      Object.entries({ name, description, title, error, success, timeoutMs, approval }).filter(([, v]) => v !== undefined),
    ),
  )(made);
  return made as InlineTool<I, O>;
}
