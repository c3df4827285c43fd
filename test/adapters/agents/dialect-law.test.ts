/**
 * The Agents SDK dialect law: every value a tool's `parameters` (as toAgentsTools hands them to the
 * SDK) lets a model send, `invoke()` accepts, plain and strict (OpenAI strict: a left-out optional
 * field comes as `null`), over every input contract of the corpus. The strict projection drops what
 * strict mode cannot say (openai-agents.md lists it, as function-calling.md does); the runtime still
 * checks those.
 */
import * as path from 'node:path';
import { toAgentsTools } from 'toolwright/agents';
import { lawRun, lawToolbox } from '../../helpers/dialect-law-run';

/**
 * The SDK's own OpenAI strict-mode converter (what it applies to the schemas of agents as tools and
 * of MCP tools): not a published path of @openai/agents-core 0.20, so it is read from its file.
 */
const sdkStrict = require(path.join(path.dirname(require.resolve('@openai/agents-core')), 'utils', 'strictToolSchema.js')) as {
  toOpenAIStrictToolSchema(schema: unknown): unknown;
};

describe("the SDK's own strict-mode rules", () => {
  it('accept every strict projection as it is: its converter refuses none and changes none', () => {
    const tools = toAgentsTools(lawToolbox(true));
    expect(tools.length).toBeGreaterThan(15);
    const problems = tools.flatMap((tool) => {
      try {
        const converted = sdkStrict.toOpenAIStrictToolSchema(tool.parameters);
        return JSON.stringify(converted) === JSON.stringify(tool.parameters) ? [] : [`${tool.name}: the SDK changes it to ${JSON.stringify(converted)}`];
      } catch (error) {
        return [`${tool.name}: the SDK refuses it: ${(error as Error).message}`];
      }
    });
    expect(problems).toEqual([]);
  });
});

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
