/**
 * The OpenAI dialect law: every value a function's schema lets a model send, `invoke()` accepts, for
 * the plain schema and for the strict projection (where a left-out optional field comes as `null`),
 * over every input contract of the corpus. The strict projection drops the keywords strict mode
 * cannot say (minLength, maxLength, formats it does not know: function-calling.md lists them) and the
 * runtime still checks those, so its values are sent only where the full contract allows them too.
 * The generator itself is checked against ajv first.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Toolbox } from 'toolwright/openai';
import { describeFunction } from 'toolwright/toolbox';
import { LAW_AMBIENT, lawTools, refusedValues } from '../../helpers/dialect-law';
import { sampleAllowed, type Schema } from '../../helpers/schema-values';

const tools = lawTools();
const throws = (run: () => unknown): boolean => {
  try {
    run();
    return false;
  } catch {
    return true;
  }
};

describe('the generator of allowed values', () => {
  it.each(tools.map((tool) => tool.name))('%s: every value it makes is valid under the schema, as ajv reads it', (name) => {
    const schema = new Toolbox(tools.map((tool) => tool.tool)).functions({ only: [name] })[0].parameters as Schema;
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    const validate = ajv.compile(schema);
    const invalid = sampleAllowed(schema, 40).filter((value) => !validate(value));
    expect(invalid).toEqual([]);
  });
});

describe('the OpenAI dialect law', () => {
  it.each([false, true])('strict %s: every value the schemas allow, invoke() accepts', async (strict) => {
    // Strict mode cannot say a free-form object: those contracts are refused when listed, with why (function-schema.test.ts).
    const listable = tools.filter((tool) => strict === false || !throws(() => describeFunction(tool.tool, { strict })));
    expect(listable.length).toBeGreaterThan(strict ? 15 : 20);
    const toolbox = new Toolbox(listable.map((tool) => tool.tool), { strict, ambientContext: LAW_AMBIENT });
    const refused: string[] = [];
    let sent = 0;
    for (const { tool, name } of listable) {
      const [dialect] = toolbox.schemas({ strict, only: [name] });
      const run = await refusedValues(toolbox, name, dialect.function.parameters as Schema, { full: strict ? (describeFunction(tool).parameters as Schema) : undefined });
      refused.push(...run.refused);
      sent += run.sent;
    }
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThan(listable.length * 20); // most generated values are sent: the law is not vacuous
  });
});
