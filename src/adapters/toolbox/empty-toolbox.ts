/**
 * An empty toolbox says so: `schemas()` of a toolbox holding no function is `[]`, which the OpenAI
 * API refuses as a `tools` list. Once per toolbox, a warning (`TOOLWRIGHT_EMPTY_TOOLBOX`, through
 * `configure({ onWarning })`) names the likely cause, read from the registry: tools declared only for
 * other adapters, or no tool declared at all (their modules never imported, so their decorators never ran).
 */
import { Tools } from '../../index';
import { joinWords, warn } from '../../adapter-kit/internal';
import { OPENAI_ADAPTER } from './config';

/** The warning's code. */
export const EMPTY_TOOLBOX = 'TOOLWRIGHT_EMPTY_TOOLBOX';

/** How many tools an adapter serves; 0 when its tools cannot even be enumerated (that error is reported where they are). */
function served(adapter: string): number {
  try {
    return Tools.forAdapter(adapter).length;
  } catch {
    return 0;
  }
}

function likelyCause(): string {
  const elsewhere = Tools.adapters()
    .filter((adapter) => adapter !== OPENAI_ADAPTER)
    .map((adapter) => [adapter, served(adapter)] as const)
    .filter(([, count]) => count > 0);
  if (elsewhere.length > 0) {
    return (
      `Tools are declared for ${joinWords(elsewhere.map(([adapter, count]) => `'${adapter}' (${count})`))} but none for '${OPENAI_ADAPTER}': ` +
      `add '${OPENAI_ADAPTER}' to their keys (@Tool('${elsewhere[0][0]}', '${OPENAI_ADAPTER}', …)) or give the classes to the toolbox by name.`
    );
  }
  return (
    'No tool is declared in this process: the modules of the tool classes were never imported (an import used only ' +
    "as a type is removed by the compiler), so their @Tool decorators never ran. Import them (import './tools/check-credit') " +
    'before building the toolbox.'
  );
}

/** Warns that a toolbox has no function to list, naming the likely cause. */
export function warnEmptyToolbox(): void {
  warn({
    code: EMPTY_TOOLBOX,
    message:
      'Toolbox.schemas(): the toolbox holds no tool, so it lists none, and the OpenAI API refuses an empty `tools` list ' +
      `(leave \`tools\` out of the request instead). ${likelyCause()}`,
  });
}
