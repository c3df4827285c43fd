import 'reflect-metadata';
import { defineTool, describeTool, Expects, Field, Tool, Tools } from 'toolwright';
import { Toolbox, toFunctionSchema } from 'toolwright/openai';
import { isolatedRegistry } from 'toolwright/testing';

@Tool('openai', { description: 'Look up a customer' })
@Expects({ customerId: String })
class LookUpCustomer {
  call() {
    return {};
  }
}

@Tool('openai', { description: 'Send an email' })
@Expects({ to: String, body: String })
class SendEmail {
  call() {
    return {};
  }
}

@Tool('openai', { name: 'send_email', description: 'Send an email, v2' })
@Expects({ to: String })
class SendEmailAgain {
  call() {
    return {};
  }
}

describe('Toolbox: a per-conversation registry', () => {
  it('registers tools under their openai names, in registration order', () => {
    const toolbox = new Toolbox([SendEmail]);
    toolbox.register(LookUpCustomer);
    expect(toolbox.names()).toEqual(['send_email', 'look_up_customer']);
    expect(toolbox.has('send_email')).toBe(true);
    expect(toolbox.has(SendEmail)).toBe(true);
    expect(toolbox.has(describeTool(LookUpCustomer))).toBe(true);
    expect(toolbox.has('nope')).toBe(false);
    expect(toolbox.has(SendEmailAgain)).toBe(false); // same name, another tool
  });

  it('a duplicate name is an error naming both, unless update, which replaces in place', () => {
    const toolbox = new Toolbox([SendEmail, LookUpCustomer]);
    expect(() => toolbox.register(SendEmailAgain)).toThrow(
      new TypeError(
        'Tool send_email is already registered (SendEmail). Pass { update: true } to replace it, ' +
          "or give SendEmailAgain its own name with @Tool({ adapters: { openai: { name: '…' } } }).",
      ),
    );
    expect(toolbox.schemas()[0].function.description).toBe('Send an email');

    toolbox.register(SendEmailAgain, { update: true });
    expect(toolbox.names()).toEqual(['send_email', 'look_up_customer']); // the position is kept
    expect(toolbox.schemas()[0].function.description).toBe('Send an email, v2');
    expect(toolbox.has(SendEmailAgain)).toBe(true);
    expect(toolbox.has(SendEmail)).toBe(false);
  });

  it('registering the same tool twice is a duplicate too', () => {
    const toolbox = new Toolbox([SendEmail]);
    expect(() => toolbox.register(SendEmail)).toThrow(/^Tool send_email is already registered \(SendEmail\)/);
    expect(() => new Toolbox([SendEmail, SendEmail])).toThrow(new TypeError('Toolbox: SendEmail is listed twice. List each tool once.'));
    expect(() => new Toolbox([SendEmail, SendEmailAgain])).toThrow(
      new TypeError("Toolbox: SendEmail and SendEmailAgain are both named 'send_email'. Give one its own name with @Tool({ adapters: { openai: { name: '…' } } })."),
    );
  });

  it('registers a list all or nothing', () => {
    const long = 'x'.repeat(70);
    @Tool({ name: long }) class Overlong { call() { return {}; } }
    const toolbox = new Toolbox([SendEmail]);
    expect(() => toolbox.register([LookUpCustomer, Overlong])).toThrow(
      `Overlong: the function name '${long}' is 70 characters long; function names must match ^[a-zA-Z0-9_-]{1,64}$ and are never truncated.`,
    );
    expect(() => toolbox.register([LookUpCustomer, SendEmailAgain])).toThrow(/^Tool send_email is already registered/);
    expect(toolbox.names()).toEqual(['send_email']);
    toolbox.register([LookUpCustomer, SendEmailAgain], { update: true });
    expect(toolbox.names()).toEqual(['send_email', 'look_up_customer']);
  });

  it('remove takes a name or a tool and says whether anything went', () => {
    const toolbox = new Toolbox([SendEmail, LookUpCustomer]);
    expect(toolbox.remove('send_email')).toBe(true);
    expect(toolbox.remove('send_email')).toBe(false);
    expect(toolbox.remove(LookUpCustomer)).toBe(true);
    expect(toolbox.names()).toEqual([]);
    expect(toolbox.schemas()).toEqual([]);
  });

  it('two toolboxes share tool classes but never registrations', () => {
    const a = new Toolbox([SendEmail]);
    const b = new Toolbox([SendEmail]);
    a.register(LookUpCustomer);
    b.remove(SendEmail);
    expect(a.names()).toEqual(['send_email', 'look_up_customer']);
    expect(b.names()).toEqual([]);
  });

  it('schemas(): fresh copies in registration order, equal to toFunctionSchema; only and strict select', () => {
    const toolbox = new Toolbox([SendEmail, LookUpCustomer]);
    const schemas = toolbox.schemas();
    expect(schemas).toEqual([toFunctionSchema(SendEmail), toFunctionSchema(LookUpCustomer)]);

    // A caller's edit never changes what is advertised later.
    schemas[0].function.parameters.required = [];
    (schemas[0].function.parameters.properties as Record<string, unknown>).to = { type: 'number' };
    schemas[0].function.name = 'renamed';
    expect(toolbox.schemas()).toEqual([toFunctionSchema(SendEmail), toFunctionSchema(LookUpCustomer)]);

    expect(toolbox.schemas({ only: ['look_up_customer', 'send_email'] }).map((s) => s.function.name)).toEqual(['send_email', 'look_up_customer']);
    expect(toolbox.schemas({ only: [] })).toEqual([]);
    expect(toolbox.schemas({ strict: true })).toEqual([toFunctionSchema(SendEmail, { strict: true }), toFunctionSchema(LookUpCustomer, { strict: true })]);
    expect(toolbox.schemas({ api: 'responses' })).toEqual([
      toFunctionSchema(SendEmail, { api: 'responses' }),
      toFunctionSchema(LookUpCustomer, { api: 'responses' }),
    ]);
    expect(() => toolbox.schemas({ only: ['send_email', 'fax', 'telex'] })).toThrow(
      new TypeError("Toolbox.schemas: no function named 'fax' and 'telex' in this toolbox. Registered: send_email and look_up_customer."),
    );
  });

  it('a strict toolbox lists strict schemas by default', () => {
    const toolbox = new Toolbox([SendEmail], { strict: true });
    expect(toolbox.strict).toBe(true);
    expect(toolbox.schemas()).toEqual([toFunctionSchema(SendEmail, { strict: true })]);
    expect(toolbox.schemas({ strict: false })).toEqual([toFunctionSchema(SendEmail)]);
  });

  it('takes the members of the openai adapter, and inline tools', () => {
    const registry = isolatedRegistry();
    @Tool('openai') class ListInvoices { call() { return {}; } }
    @Tool('mcp') class McpOnly { call() { return {}; } }
    void McpOnly;
    const search = defineTool({ name: 'search_docs', expects: { query: String } }, () => ({}));
    const toolbox = new Toolbox(registry.forAdapter('openai'));
    toolbox.register(search);
    expect(toolbox.names()).toEqual(['list_invoices', 'search_docs']);
    expect(toolbox.has(ListInvoices)).toBe(true);
    expect(Tools.adapters()).toContain('openai'); // importing toolwright/openai registered it
  });

  it('refuses what is not a tool, and checks its options', () => {
    class NotATool {}
    @Tool(false) class Helper { call() { return {}; } }
    expect(() => new Toolbox([NotATool])).toThrow(new TypeError("NotATool is not a class tool: it has no entry method 'call'."));
    expect(() => new Toolbox([Helper])).toThrow(new TypeError('new Toolbox: Helper opted out of being a tool (@Tool(false)); it cannot be offered to a model.'));
    expect(() => new Toolbox(SendEmail as never)).toThrow(new TypeError('new Toolbox: expected a list of tools; got SendEmail.'));
    expect(() => new Toolbox([], { strict: 1 } as never)).toThrow(new TypeError("new Toolbox: 'strict' must be true or false; got 1."));
    expect(() => new Toolbox([], { ambient: {} } as never)).toThrow(
      new TypeError("new Toolbox: unknown option 'ambient'. Known options: ambientContext, container, resolver, strict, invoker, context, search."),
    );
    expect(() => new Toolbox([], { ambientContext: 'officer-1' } as never)).toThrow(
      new TypeError("new Toolbox: 'ambientContext' must be a Map or an object keyed by ambient key; got 'officer-1'."),
    );
    expect(() => new Toolbox([], { invoker: {} } as never)).toThrow(new TypeError("new Toolbox: 'invoker' must be an Invoker (new Invoker({ … })); got {}."));
    const toolbox = new Toolbox();
    expect(() => toolbox.register(SendEmail, { replace: true } as never)).toThrow(
      new TypeError("Toolbox.register: unknown option 'replace'. Known options: update."),
    );
    expect(() => toolbox.schemas({ only: 'send_email' } as never)).toThrow(
      new TypeError("Toolbox.schemas: 'only' must be a list of function names; got 'send_email'."),
    );
  });

  it('a tool the toolbox could not list is refused when it is registered, naming the field', () => {
    class Bag {
      @Field({ type: () => Object }) payload!: object;
    }
    @Tool('openai') @Expects(Bag) class Store { call() { return {}; } }
    expect(() => new Toolbox([SendEmail, Store], { strict: true })).toThrow(/Bag\.payload is a free-form object, which OpenAI strict mode cannot express/);
    const strict = new Toolbox([SendEmail], { strict: true });
    expect(() => strict.register(Store)).toThrow(/Bag\.payload is a free-form object/);
    expect(strict.names()).toEqual(['send_email']);
    const loose = new Toolbox([Store]);
    expect(loose.schemas()[0].function.parameters.properties).toEqual({ payload: { type: 'object', minProperties: 1 } });
    expect(() => loose.schemas({ strict: true })).toThrow(/Bag\.payload is a free-form object/);
  });
});
