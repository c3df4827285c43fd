/**
 * toolwright/toolbox: the Toolbox every provider shares, with no provider's forms. toolwright/openai's
 * Toolbox is that Toolbox with schemas() added, and every other name is the very same object.
 */
import 'reflect-metadata';
import { Expects, Exposes, Field, Tool } from 'toolwright';
import * as toolbox from 'toolwright/toolbox';
import * as openai from 'toolwright/openai';
import { describeFunction, Toolbox } from 'toolwright/toolbox';

class RateInput {
  @Field({ description: 'ISO currency code' }) currency!: string;
  @Field({ optional: true }) date?: string;
}
class Rate {
  @Field() value!: number;
}

@Tool({ description: 'Look up an exchange rate', adapters: { openai: { name: 'look_up_rate' } } })
@Expects(RateInput)
@Exposes(Rate)
class LookUpRate {
  call(input: RateInput): Rate {
    return { value: input.currency === 'EUR' ? 1.1 : 1 };
  }
}

describe('toolwright/toolbox', () => {
  it('lists provider-neutral functions: name, description, a fresh parameters schema, strict or not', () => {
    const box = new Toolbox([LookUpRate]);
    const [plain] = box.functions();
    expect(plain).toEqual({
      name: 'look_up_rate',
      description: 'Look up an exchange rate',
      parameters: expect.objectContaining({ type: 'object', required: ['currency'] }),
      strict: false,
    });
    const [strict] = box.functions({ strict: true });
    expect(strict.strict).toBe(true);
    expect(strict.parameters.required).toEqual(['currency', 'date']);
    expect(describeFunction(LookUpRate)).toEqual(plain);
    (plain.parameters as { title?: string }).title = 'changed';
    expect(box.functions()[0].parameters).not.toHaveProperty('title');
  });

  it('runs plain calls, arguments as JSON text or as an object, and reads null as absent after a strict listing', async () => {
    const box = new Toolbox([LookUpRate]);
    const [text, object] = await box.invokeAll([
      { id: 'a', name: 'look_up_rate', arguments: '{"currency":"EUR"}' },
      { id: 'b', name: 'look_up_rate', arguments: { currency: 'USD' } },
    ]);
    expect([text.status, text.output, object.status, object.output]).toEqual(['completed', '{"value":1.1}', 'completed', '{"value":1}']);
    const withNull = { id: 'c', name: 'look_up_rate', arguments: { currency: 'EUR', date: null } };
    expect((await box.invoke(withNull)).status).toBe('failed');
    box.functions({ strict: true });
    expect((await box.invoke(withNull)).output).toBe('{"value":1.1}');
  });

  it('names the caller an adapter gives in its errors, and checks its options', () => {
    @Tool(false)
    class Helper {
      call(): void {}
    }
    expect(() => describeFunction(Helper, { caller: 'toAnthropicTools' })).toThrow(/^toAnthropicTools: Helper opted out of being a tool/);
    expect(() => describeFunction(LookUpRate, { strict: 'yes' as never })).toThrow("describeFunction: 'strict' must be true or false; got 'yes'.");
    expect(() => new Toolbox([LookUpRate]).functions({ only: ['nope'] })).toThrow("Toolbox.functions: no function named 'nope' in this toolbox. Registered: look_up_rate.");
  });

  it("is the base of toolwright/openai's Toolbox, whose other names are the very same", () => {
    const box = new openai.Toolbox([LookUpRate]);
    expect(box).toBeInstanceOf(Toolbox);
    expect(box.schemas()[0]).toEqual({ type: 'function', function: { name: 'look_up_rate', description: 'Look up an exchange rate', parameters: box.functions()[0].parameters } });
    expect('schemas' in new Toolbox()).toBe(false);
    for (const name of ['OPENAI_ADAPTER', 'OpenAIConfig', 'FUNCTION_NAME_PATTERN'] as const) expect(openai[name]).toBe(toolbox[name]);
  });
});
