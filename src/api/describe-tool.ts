import type { ToolDefinition } from '../registry/tool-definition';
import { Tools } from '../registry/tool-registry';

/** The definition of a class tool (or of a method tool, with `method`) in the default registry. */
export function describeTool(target: Function, method?: string): ToolDefinition {
  return Tools.describe(target, method);
}
