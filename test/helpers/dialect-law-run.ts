/**
 * The dialect law over the whole corpus, for a provider whose tools carry the toolbox's own schema
 * (the plain one, or the strict projection): `lawRun(strict, schemaOf)` lists the law tools in a
 * Toolbox, takes each tool's schema as the provider is handed it (`schemaOf`), and sends the values
 * it allows through the toolbox. Where strict mode drops keywords the runtime still checks, only the
 * values the full contract also allows are sent (as test/adapters/openai/dialect-law.test.ts).
 */
import { describeFunction, Toolbox } from 'toolwright/toolbox';
import { LAW_AMBIENT, lawTools, refusedValues, type LawTool, type Schema } from './dialect-law';

/** The law tools a toolbox can list in this mode: strict mode cannot say a free-form object (those are refused when listed, with why). */
export function listableLawTools(strict: boolean): LawTool[] {
  return lawTools().filter((tool) => {
    try {
      return describeFunction(tool.tool, { strict }) !== undefined;
    } catch {
      return false;
    }
  });
}

/** A toolbox of the law tools listable in this mode, with the ambient values the corpus reads. */
export function lawToolbox(strict: boolean): Toolbox {
  return new Toolbox(listableLawTools(strict).map((tool) => tool.tool), { strict, ambientContext: LAW_AMBIENT });
}

/** Refused values (the law holds when empty), how many were sent, and how many tools were listed. */
export async function lawRun(strict: boolean, schemaOf: (toolbox: Toolbox, name: string) => unknown): Promise<{ refused: string[]; sent: number; tools: number }> {
  const listable = listableLawTools(strict);
  const toolbox = lawToolbox(strict);
  const refused: string[] = [];
  let sent = 0;
  for (const { tool, name } of listable) {
    const run = await refusedValues(toolbox, name, schemaOf(toolbox, name) as Schema, { full: strict ? (describeFunction(tool).parameters as Schema) : undefined });
    refused.push(...run.refused);
    sent += run.sent;
  }
  return { refused, sent, tools: listable.length };
}
