/**
 * Tool search in a toolbox: `toolbox.search(query)` ranks the functions by name, title, description
 * and field text, and the `search` option defers loading: a core set plus `search_tools` are listed,
 * and what a search finds joins the listed functions, under every rule a call has.
 */
import 'reflect-metadata';
import { AmbientContext, Expects, Field, Tool } from 'toolwright';
import { Toolbox, ToolSearch } from 'toolwright/toolbox';
import { Toolbox as OpenAIToolbox } from 'toolwright/openai';
import { measureSearch } from '../../../bench/search/measure';

class OrderInput {
  @Field({ description: 'The order number' }) orderId!: string;
}
class RefundInput {
  @Field({ description: 'The order number' }) orderId!: string;
  @Field({ description: 'How much to give back, in cents' }) cents!: number;
  @AmbientContext() agentId!: string;
}
class CityInput {
  @Field({ description: 'The city, e.g. Lisbon' }) city!: string;
}
class NoteInput {
  @Field({ description: 'Text of the note; mention the shipment carrier when relevant' }) text!: string;
}

@Tool('openai', { name: 'get_order', description: 'Looks up an order: its items, total and status.' })
@Expects(OrderInput)
class GetOrder {
  call(input: OrderInput) {
    return `order ${input.orderId}`;
  }
}

@Tool('openai', { name: 'refund_order', title: 'Refund', description: 'Gives money back to the customer for a paid order.', approval: 'required' })
@Expects(RefundInput)
class RefundOrder {
  call(input: RefundInput) {
    return `refunded ${input.cents} by ${input.agentId}`;
  }
}

@Tool('openai', { name: 'track_shipment', description: 'Where a parcel is now, from the carrier.' })
@Expects(OrderInput)
class TrackShipment {
  call(input: OrderInput) {
    return `in transit ${input.orderId}`;
  }
}

@Tool('openai', { name: 'current_weather', description: 'The weather now in a city.' })
@Expects(CityInput)
class CurrentWeather {
  call(input: CityInput) {
    return `sunny in ${input.city}`;
  }
}

@Tool('openai', { name: 'add_note', description: 'Adds a note to a support ticket.' })
@Expects(NoteInput)
class AddNote {
  call() {
    return 'noted';
  }
}

const ALL = [GetOrder, RefundOrder, TrackShipment, CurrentWeather, AddNote];
const names = (box: Toolbox) => box.functions().map((fn) => fn.name);

describe('toolbox.search', () => {
  const box = new Toolbox(ALL);

  it('ranks names, titles and descriptions above field text; splits camelCase and snake_case; prefix and light fuzzy', () => {
    expect(box.search('refund')[0]).toEqual({ name: 'refund_order', description: 'Gives money back to the customer for a paid order.', score: expect.any(Number) });
    // "carrier" is in track_shipment's description and in add_note's field text: the description wins.
    expect(box.search('carrier').map((hit) => hit.name)).toEqual(['track_shipment', 'add_note']);
    expect(box.search('shipments')[0].name).toBe('track_shipment'); // a plural, a snake_case word
    expect(box.search('weath')[0].name).toBe('current_weather'); // a prefix
    expect(box.search('wheather')[0].name).toBe('current_weather'); // a typo
    expect(box.search('order', { limit: 2 })).toHaveLength(2);
    expect(box.search('astronomy')).toEqual([]);
  });

  it('follows the functions: registered and removed ones are found and no longer found', () => {
    const own = new Toolbox([GetOrder]);
    expect(own.search('weather')).toEqual([]);
    own.register(CurrentWeather);
    expect(own.search('weather')[0].name).toBe('current_weather');
    own.remove('current_weather');
    expect(own.search('weather')).toEqual([]);
  });

  it('refuses a query that is not words, an over-long one, and a limit outside 1..50, saying what to do', () => {
    expect(() => box.search(42 as unknown as string)).toThrow("Toolbox.search: the query must be a string of words; got 42.");
    expect(() => box.search('x'.repeat(1001))).toThrow('the query is 1001 characters long; at most 1000. Search with a few words.');
    expect(() => box.search('order', { limit: 51 })).toThrow("'limit' must be a whole number from 1 to 50; got 51.");
    expect(() => box.search('order', { limit: 0 })).toThrow("'limit' must be a whole number from 1 to 50; got 0.");
    expect(() => box.search('order', { top: 3 } as object)).toThrow("unknown option 'top'; the only option is 'limit'.");
  });

  it('ToolSearch indexes any list of functions (a catalogue kept as data)', () => {
    const index = new ToolSearch([
      { name: 'create_invoice', description: 'Creates an invoice for a customer.' },
      { name: 'send_sms', description: 'Sends a text message.', parameters: { type: 'object', properties: { phone: { type: 'string', description: 'Mobile number' } } } },
    ]);
    expect(index.search('mobile')[0].name).toBe('send_sms');
    expect(index.search('invoices')[0].name).toBe('create_invoice');
  });
});

describe('deferred loading: new Toolbox(tools, { search })', () => {
  it('lists the core set and search_tools; what a search finds is listed from then on, in every provider listing', async () => {
    const box = new OpenAIToolbox(ALL, { search: { core: [GetOrder], limit: 2 } });
    expect(box.functions().map((fn) => fn.name)).toEqual(['get_order', 'search_tools']);
    expect(box.names()).toHaveLength(5); // the catalogue is all there
    const record = await box.invoke({ id: 's1', name: 'search_tools', arguments: { query: 'where is my parcel' } });
    expect(record.status).toBe('completed');
    expect(record.output).toBe('Found 1 tool(s), now available to call:\n- track_shipment: Where a parcel is now, from the carrier.');
    expect(record.data).toEqual({ tools: [{ name: 'track_shipment', description: 'Where a parcel is now, from the carrier.' }] });
    expect(box.schemas().map((schema) => schema.function.name)).toEqual([
      'get_order',
      'track_shipment',
      'search_tools',
    ]);
    const none = await box.invoke({ id: 's2', name: 'search_tools', arguments: '{"query":"astronomy"}' });
    expect(none.output).toBe("No tools match 'astronomy'. Search again with other words.");
  });

  it('keeps every rule of a call for a found tool: approval, ambient values from the toolbox', async () => {
    const box = new Toolbox(ALL, { search: { core: [] }, ambientContext: { agentId: 'agent-7' } });
    expect(names(box)).toEqual(['search_tools']);
    await box.invoke({ name: 'search_tools', arguments: { query: 'refund' } });
    expect(names(box)).toContain('refund_order');
    const held = await box.invoke({ id: 'r', name: 'refund_order', arguments: { orderId: 'o-1', cents: 500 } });
    expect(held.status).toBe('approval_required');
    const done = await box.approve(held);
    expect(done.output).toBe('"refunded 500 by agent-7"');
  });

  it('runs a catalogue function called before any search (deferred loading is not access control) and lists it from then on', async () => {
    const box = new Toolbox(ALL, { search: { core: ['get_order'] } });
    const record = await box.invoke({ name: 'current_weather', arguments: { city: 'Lisbon' } });
    expect(record.output).toBe('"sunny in Lisbon"');
    expect(names(box)).toEqual(['get_order', 'current_weather', 'search_tools']);
    const unknown = await box.invoke({ name: 'book_flight', arguments: {} });
    expect(unknown.output).toBe("Unknown tool 'book_flight'. Find the tools you need with search_tools.");
  });

  it("answers a model's bad search call with a failed record, never a throw", async () => {
    const box = new Toolbox(ALL, { search: {} });
    const outputs = await Promise.all(
      [{ query: 42 }, { query: '  ' }, { query: 'x', limit: 3 }, { query: 'y'.repeat(1001) }, '"words"'].map(
        async (args) => (await box.invoke({ name: 'search_tools', arguments: args })).output,
      ),
    );
    expect(outputs).toEqual([
      "Invalid tool arguments: 'query' must be a few words; got 42.",
      "Invalid tool arguments: 'query' must be a few words; got '  '.",
      "Invalid tool arguments: unknown field 'limit'; the only field is 'query'.",
      "Invalid tool arguments: 'query' is 1001 characters long; at most 1000.",
      "Invalid tool arguments: expected an object { query }; got 'words'.",
    ]);
  });

  it('checks the option: a tool named like the search function, unknown keys, a bad limit', () => {
    expect(() => new Toolbox([GetOrder], { search: { name: 'get_order' } })).toThrow(
      "Toolbox: GetOrder is named 'get_order', the name of this toolbox's search function. Name the search function otherwise with { search: { name: '…' } }, or give the tool its own name.",
    );
    expect(() => new Toolbox([GetOrder], { search: { limit: 100 } })).toThrow("new Toolbox: 'search': 'limit' must be a whole number from 1 to 50; got 100.");
    expect(() => new Toolbox([GetOrder], { search: { core: 'get_order' } as never })).toThrow(
      "new Toolbox: 'search.core' must be a list of function names or tools; got 'get_order'.",
    );
    expect(() => new Toolbox([GetOrder], { search: { deferred: true } as never })).toThrow(/deferred/);
    const named = new Toolbox([GetOrder], { search: { name: 'find_tools' } });
    expect(names(named)).toEqual(['find_tools']);
  });
});

describe('the search benchmark (bench/search), on the kept catalogue and query set', () => {
  it('finds the expected tool in the top 5 for >= 95% of the requests, and lists >= 70% fewer tokens per request', () => {
    const measure = measureSearch();
    expect([measure.tools >= 300, measure.queries >= 100]).toEqual([true, true]);
    expect(measure.misses).toEqual([]);
    expect(measure.recall).toBeGreaterThanOrEqual(0.95);
    expect(1 - measure.tokensOn / measure.tokensOff).toBeGreaterThanOrEqual(0.7);
    // The user's own words, searched with no model in between: the lexical floor, kept from sliding.
    expect(measure.recallRequest).toBeGreaterThanOrEqual(0.85);
  });
});
