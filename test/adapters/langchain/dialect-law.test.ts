/**
 * The LangChain dialect law: every value a tool's schema (as toLangChainTools hands it to LangChain,
 * which passes a JSON Schema to the provider as it is) lets a model send, `invoke()` accepts, plain
 * and strict (the toolbox's strict projection, for OpenAI strict mode), over every input contract of
 * the corpus.
 */
import type { ToolMessage } from '@langchain/core/messages';
import { toLangChainTools } from 'toolwright/langchain';
import { lawRun, lawToolbox } from '../../helpers/dialect-law-run';
import { sampleAllowed, type Schema } from '../../helpers/schema-values';

describe('the LangChain dialect law', () => {
  it.each([false, true])('strict %s: every value the tools\' schemas allow, invoke() accepts', async (strict) => {
    const { refused, sent, tools } = await lawRun(strict, (toolbox, name) => toLangChainTools(toolbox, { only: [name], strict })[0].schema);
    expect(tools).toBeGreaterThan(strict ? 15 : 20);
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThan(tools * 20); // most generated values are sent: the law is not vacuous
  });
});

describe("through LangChain's own tool call path", () => {
  it('values the plain schema allows, sent as tool calls, answer no error message', async () => {
    const tools = toLangChainTools(lawToolbox(false));
    const errors: string[] = [];
    let sent = 0;
    for (const tool of tools) {
      // A few values each (the full law runs above): LangChain's own schema check and the tool's path, end to end.
      for (const [i, args] of sampleAllowed(tool.schema as Schema, 5).entries()) {
        const message = (await tool.invoke({ type: 'tool_call', id: `lc-${i}`, name: tool.name, args: args as Record<string, unknown> })) as ToolMessage;
        sent++;
        if (message.status === 'error') errors.push(`${tool.name} ${JSON.stringify(args)}: ${String(message.content)}`);
      }
    }
    expect(errors).toEqual([]);
    expect(sent).toBeGreaterThan(tools.length * 3);
  });
});
