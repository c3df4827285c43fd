/**
 * Keys named `__proto__`, `constructor` and `prototype` in a tool's output (own keys, as
 * JSON.parse makes them) stay own data properties through every copy toolwright makes: the Result,
 * render(), the MCP and HTTP answers, defaults. A plain `copy[key] = value` would turn an own
 * `__proto__` into the copy's prototype (`copy.isAdmin` true through the chain) and drop the key.
 */
import 'reflect-metadata';
import { audit, AuditRecord, describeTool, Expects, Exposes, Field, inputSchema, invoke, Invoker, SemanticHints, Tool } from 'toolwright';
import { render } from 'toolwright/kit';
import { httpApiDocument, serveHttpApi } from 'toolwright/http';
import { connectInMemory } from '../helpers/mcp';

const HOSTILE = '{"__proto__":{"isAdmin":true},"constructor":{"name":"evil"},"prototype":{"polluted":true},"plain":1}';
const hostile = (): Record<string, unknown> => JSON.parse(HOSTILE) as Record<string, unknown>;

/** The key is an own, enumerable data property holding `value`, and the object's prototype is untouched. */
function expectOwnKeys(object: unknown): void {
  const record = object as Record<string, unknown>;
  expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  expect(record.isAdmin).toBeUndefined();
  expect(Object.keys(record)).toEqual(['__proto__', 'constructor', 'prototype', 'plain']);
  expect(Object.getOwnPropertyDescriptor(record, '__proto__')).toEqual({
    value: { isAdmin: true },
    writable: true,
    enumerable: true,
    configurable: true,
  });
  expect(Object.getOwnPropertyDescriptor(record, 'constructor')?.value).toEqual({ name: 'evil' });
  expect(Object.getOwnPropertyDescriptor(record, 'prototype')?.value).toEqual({ polluted: true });
  // It survives JSON: stringify writes the key, and parse reads it back as an own key.
  expect(JSON.stringify(record)).toBe(HOSTILE);
}

class Report {
  @Field({ type: () => Object }) meta!: Record<string, unknown>;
  @Field({ type: () => [Object] }) rows!: Array<Record<string, unknown>>;
}

@Tool({ name: 'hostile_loose' })
@Expects({})
class HostileLoose {
  call() {
    return { meta: hostile(), rows: [hostile()], map: new Map<string, unknown>(Object.entries(hostile())) };
  }
}

@Tool({ name: 'hostile_exposed' })
@Expects({})
@Exposes(Report)
class HostileExposed {
  call() {
    return { meta: hostile(), rows: [hostile()] };
  }
}

afterEach(() => expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()); // Object.prototype never touched

describe('own __proto__, constructor and prototype keys in output', () => {
  it('invoke() keeps them in the Result, and render() keeps them own (no @Exposes)', async () => {
    const result = await invoke(HostileLoose);
    expect(result.ok).toBe(true);
    const value = result.value as { meta: unknown; rows: unknown[] };
    expectOwnKeys(value.meta);
    expect(JSON.stringify(result)).toContain(HOSTILE);
    const rendered = render(result.value, describeTool(HostileLoose)) as { meta: unknown; rows: unknown[]; map: unknown };
    expectOwnKeys(rendered.meta);
    expectOwnKeys(rendered.rows[0]);
    expectOwnKeys(rendered.map); // a Map's keys are rendered as properties the same way
  });

  it('render() against an @Exposes contract keeps them in record fields, at any depth', async () => {
    const result = await invoke(HostileExposed);
    expect(result.ok).toBe(true);
    const rendered = render(result.value, HostileExposed) as { meta: unknown; rows: unknown[] };
    expectOwnKeys(rendered.meta);
    expectOwnKeys(rendered.rows[0]);
    const direct = render({ meta: hostile(), rows: [] }, Report) as { meta: unknown };
    expectOwnKeys(direct.meta);
  });

  it('MCP: the SDK Client receives the keys (text and structured content)', async () => {
    const { client, close } = await connectInMemory({ name: 'own-keys', version: '1', tools: [HostileLoose, HostileExposed] });
    try {
      const loose = await client.callTool({ name: 'hostile_loose', arguments: {} });
      const text = (loose.content as Array<{ text: string }>)[0].text;
      expectOwnKeys((JSON.parse(text) as { meta: unknown }).meta);
      const exposed = await client.callTool({ name: 'hostile_exposed', arguments: {} });
      expect((exposed.content as Array<{ text: string }>)[0].text).toContain(`"meta":${HOSTILE}`);
      expectOwnKeys((exposed.structuredContent as { meta: unknown }).meta);
    } finally {
      await close();
    }
  });

  it('HTTP: the response body carries the keys', async () => {
    @Tool('http', { name: 'hostile_http' })
    @Expects({})
    @Exposes(Report)
    class HostileHttp {
      call() {
        return { meta: hostile(), rows: [hostile()] };
      }
    }
    class QueryInput {
      @Field({ optional: true }) name?: string;
      @Field({ type: () => Object, default: hostile() }) settings!: Record<string, unknown>;
    }
    @Tool('http', { name: 'hostile_query' })
    @SemanticHints('readOnly')
    @Expects(QueryInput)
    class HostileQuery {
      call() {
        return 'ok';
      }
    }
    const api = await serveHttpApi({ tools: [HostileHttp, HostileQuery], docs: false }, { port: 0 });
    try {
      const response = await fetch(`${api.url}/hostile_http/v1`, { method: 'POST' });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toBe(`{"meta":${HOSTILE},"rows":[${HOSTILE}]}`);
      // A query key is copied as an own key too: an undeclared `__proto__` is refused by name, not dropped.
      const query = await fetch(`${api.url}/hostile_query/v1?__proto__=x`);
      expect(query.status).toBe(422);
      expect(((await query.json()) as { detail: string }).detail).toContain('__proto__');
    } finally {
      await api.close();
    }
    // A default with those keys keeps them in the OpenAPI document (its schemas are copied key by key),
    // at the top and in a nested class (a shared component).
    class Nested {
      @Field({ type: () => Object, default: hostile() }) settings!: Record<string, unknown>;
    }
    class Outer {
      @Field({ type: () => Nested }) nested!: Nested;
    }
    @Tool('http', { name: 'hostile_nested' })
    @Expects(Outer)
    class HostileNested {
      call() {
        return 'ok';
      }
    }
    const document = JSON.stringify(httpApiDocument({ tools: [HostileQuery, HostileNested] }));
    // Three places: the POST body, the GET parameter, the Nested component.
    expect(document.split(`"default":${HOSTILE}`)).toHaveLength(4);
  });

  it('a default value with those keys reaches the schema and the tool as own keys', async () => {
    let received: unknown;
    class Options {
      @Field({ type: () => Object, default: hostile() }) settings!: Record<string, unknown>;
    }
    @Tool({ name: 'hostile_default' })
    @Expects(Options)
    class HostileDefault {
      call(input: Options) {
        received = input.settings;
        return 'ok';
      }
    }
    expect((await invoke(HostileDefault)).ok).toBe(true);
    expectOwnKeys(received);
    const schema = inputSchema(HostileDefault) as { properties: { settings: { default: unknown } } };
    expectOwnKeys(schema.properties.settings.default);
  });

  it('an audit record keeps an ambient identity key named __proto__ as an own key', async () => {
    const records: AuditRecord[] = [];
    const invoker = new Invoker({ middleware: [audit((record) => void records.push(record), { identity: ['__proto__', 'tenant'] })] });
    await invoker.invoke(HostileLoose, {}, { ambientContext: new Map([['__proto__', 'u1'], ['tenant', 't9']]) });
    expect(Object.getOwnPropertyDescriptor(records[0].caller, '__proto__')?.value).toBe('u1');
    expect(JSON.stringify(records[0].caller)).toBe('{"__proto__":"u1","tenant":"t9"}');
  });
});
