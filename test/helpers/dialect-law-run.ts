/**
 * The dialect law over the whole corpus, for a provider whose tools carry the toolbox's own schema
 * (the plain one, or the strict projection): `lawRun(strict, schemaOf)` lists the law tools in a
 * Toolbox, takes each tool's schema as the provider is handed it (`schemaOf`), and sends the values
 * it allows through the toolbox. Where strict mode drops keywords the runtime still checks, only the
 * values the full contract also allows are sent (as test/adapters/openai/dialect-law.test.ts).
 */
import { describeFunction, Toolbox } from 'toolwright/toolbox';
import { LAW_AMBIENT, lawTools, refusedValues, type Schema } from './dialect-law';

/** Refused values (the law holds when empty), how many were sent, and how many tools were listed. */
export async function lawRun(strict: boolean, schemaOf: (toolbox: Toolbox, name: string) => unknown): Promise<{ refused: string[]; sent: number; tools: number }> {
  // Strict mode cannot say a free-form object: those contracts are refused when listed, with why.
  const listable = lawTools().filter((tool) => {
    try {
      return describeFunction(tool.tool, { strict }) !== undefined;
    } catch {
      return false;
    }
  });
  const toolbox = new Toolbox(listable.map((tool) => tool.tool), { strict, ambientContext: LAW_AMBIENT });
  const refused: string[] = [];
  let sent = 0;
  for (const { tool, name } of listable) {
    const run = await refusedValues(toolbox, name, schemaOf(toolbox, name) as Schema, { full: strict ? (describeFunction(tool).parameters as Schema) : undefined });
    refused.push(...run.refused);
    sent += run.sent;
  }
  return { refused, sent, tools: listable.length };
}
