/**
 * The Agents SDK dialect law: every value a tool's `parameters` (as toAgentsTools hands them to the
 * SDK) lets a model send, `invoke()` accepts, plain and strict (OpenAI strict: a left-out optional
 * field comes as `null`), over every input contract of the corpus. The strict projection drops what
 * strict mode cannot say (openai-agents.md lists it, as function-calling.md does); the runtime still
 * checks those.
 */
import { toAgentsTools } from 'toolwright/agents';
import { lawRun } from '../../helpers/dialect-law-run';

describe('the Agents SDK dialect law', () => {
  it.each([false, true])('strict %s: every value the tools\' parameters allow, invoke() accepts', async (strict) => {
    const { refused, sent, tools } = await lawRun(strict, (toolbox, name) => {
      const [tool] = toAgentsTools(toolbox, { only: [name], strict });
      expect(tool.strict).toBe(strict);
      return tool.parameters;
    });
    expect(tools).toBeGreaterThan(strict ? 15 : 20);
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThan(tools * 20); // most generated values are sent: the law is not vacuous
  });
});
