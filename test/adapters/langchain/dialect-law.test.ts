/**
 * The LangChain dialect law: every value a tool's schema (as toLangChainTools hands it to LangChain,
 * which passes a JSON Schema to the provider as it is) lets a model send, `invoke()` accepts, plain
 * and strict (the toolbox's strict projection, for OpenAI strict mode), over every input contract of
 * the corpus.
 */
import { toLangChainTools } from 'toolwright/langchain';
import { lawRun } from '../../helpers/dialect-law-run';

describe('the LangChain dialect law', () => {
  it.each([false, true])('strict %s: every value the tools\' schemas allow, invoke() accepts', async (strict) => {
    const { refused, sent, tools } = await lawRun(strict, (toolbox, name) => toLangChainTools(toolbox, { only: [name], strict })[0].schema);
    expect(tools).toBeGreaterThan(strict ? 15 : 20);
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThan(tools * 20); // most generated values are sent: the law is not vacuous
  });
});
