/**
 * The JSON-safe rendering of a successful Result's value. The invoker makes it when it checks the
 * returned value against the tool's `@Exposes` contract and keeps it in the Result's private field
 * (not on its surface), so an adapter that serializes the value reuses it and a call's value is
 * walked once.
 */
import type { ToolDefinition } from '../registry/tool-definition';
import { renderContract } from '../serialization/contract-renderer';
import { generatedRenderer } from '../serialization/generated-output';
import { renderLoose, RenderOptions, Rendering } from '../serialization/json-safe';
import { Result } from './result';

/** How a tool's messages name it: `approve_loan (ApproveLoan)`. */
function who(tool: ToolDefinition): () => string {
  return () => `${tool.toolName()} (${tool.id})`;
}

/** Renders a value against a tool's `@Exposes` contract; a tool that exposes nothing has it rendered without a shape. */
export function renderToolValue(tool: ToolDefinition, value: unknown, options: RenderOptions = {}): Rendering {
  const output = tool.outputContract;
  return output ? renderContract(output.target, value, options, who(tool)) : renderLoose(value, options);
}

/**
 * The invoker's output check: renders the value against the output contract and keeps the
 * rendering for `result`. `generated`: the contract's generated renderer answers first, for the
 * values it is sure of (../serialization/generated-output.ts); the reference renders the rest.
 */
export function checkOutput(result: Result, output: Function, generated: boolean): void {
  const render = generated ? generatedRenderer(output) : undefined;
  if (render) {
    let value: unknown;
    try {
      value = render(result.value);
    } catch {
      // A getter that throws: the reference renderer reads it again, and reports what it throws.
      value = undefined;
    }
    if (value !== undefined) {
      Result.keepRendering(result, { value, opaquePath: undefined });
      return;
    }
  }
  Result.keepRendering(result, renderContract(output, result.value, {}, who(result.tool)));
}

/** The rendering of a successful result's value: the invoker's, or made now (and kept) when the invoker made none. */
export function renderingOf(result: Result): Rendering {
  let rendering = Result.keptRendering(result);
  if (!rendering) Result.keepRendering(result, (rendering = renderToolValue(result.tool, result.value)));
  return rendering;
}
