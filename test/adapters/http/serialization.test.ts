/**
 * Successes are serialized from the `@Exposes` schema (issue 28): Fastify compiles a route's 200
 * response schema with fast-json-stringify, and what is sent is byte for byte what `JSON.stringify`
 * of the exposed values sends. Read over real HTTP on 127.0.0.1, as text.
 */
import 'reflect-metadata';
import { fastify as createFastify, FastifyInstance, RouteOptions } from 'fastify';
import { configure, Exposes, Field, Integer, outputSchema, Tool } from 'toolwright';
import { toolwrightHttp } from 'toolwright/http';

class Line {
  @Field() sku!: string;
  @Field({ type: () => Integer }) quantity!: number;
}

class Receipt {
  @Field() id!: string;
  @Field() total!: number;
  @Field({ type: () => Integer }) count!: number;
  @Field() paid!: boolean;
  @Field({ optional: true }) note?: string;
  @Field({ type: () => [Line] }) lines!: Line[];
  @Field({ type: () => [String] }) tags!: string[];
}

const ODD = 'quote " backslash \\ tab \t nul \u0000 line\u2028sep emoji 😀 é';

/** Returns its keys in another order than declared, with values JSON writes in its own ways. */
@Tool('http', { name: 'receipt' })
@Exposes(Receipt)
class MakeReceipt {
  call() {
    return {
      tags: [ODD, ''],
      lines: [{ quantity: 2, sku: 'a<b>' }],
      paid: false,
      count: Number.MAX_SAFE_INTEGER,
      total: -0,
      id: ODD,
    };
  }
}

class Maybe {
  @Field({ type: () => String, nullable: true }) value!: string | null;
  @Field() at!: Date;
}

/** A nullable field and a date: left to JSON.stringify. */
@Tool('http', { name: 'maybe' })
@Exposes(Maybe)
class MakeMaybe {
  call() {
    return { at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), value: null };
  }
}

/** The extremes of number: written as JSON.stringify writes them. */
@Tool('http', { name: 'huge' })
@Exposes({ big: Number, small: Number })
class Huge {
  call() {
    return { small: -Number.MIN_VALUE, big: Number.MAX_VALUE };
  }
}

describe('toolwright/http serializes a success from its @Exposes schema', () => {
  let app: FastifyInstance;
  let base: string;
  const schemas = new Map<string, unknown>();

  beforeAll(async () => {
    configure({ onException: () => undefined });
    app = createFastify();
    app.addHook('onRoute', (route: RouteOptions) => {
      if ([route.method].flat().includes('POST')) schemas.set(route.url, route.schema?.response);
    });
    await app.register(toolwrightHttp, { tools: [MakeReceipt, MakeMaybe, Huge], docs: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app.close();
    configure({ onException: undefined });
  });

  async function text(path: string): Promise<[number, string | null, string]> {
    const response = await fetch(base + path, { method: 'POST' });
    return [response.status, response.headers.get('content-type'), await response.text()];
  }

  it('gives Fastify the 200 schema of a closed shape, and sends exactly the bytes JSON.stringify writes, in declared order', async () => {
    expect(schemas.get('/receipt/v1')).toEqual({ 200: outputSchema(MakeReceipt) });
    const expected = JSON.stringify({
      id: ODD,
      total: -0,
      count: Number.MAX_SAFE_INTEGER,
      paid: false,
      lines: [{ sku: 'a<b>', quantity: 2 }],
      tags: [ODD, ''],
    });
    expect(await text('/receipt/v1')).toEqual([200, 'application/json; charset=utf-8', expected]);
    expect(expected).toContain('\\u0000');
  });

  it('leaves a shape with a nullable field or a date to JSON.stringify: no response schema, the same bytes', async () => {
    expect(schemas.get('/maybe/v1')).toBeUndefined();
    expect(await text('/maybe/v1')).toEqual([200, 'application/json; charset=utf-8', '{"value":null,"at":"2026-01-02T03:04:05.000Z"}']);
  });

  it('sends the extremes of number as JSON.stringify writes them', async () => {
    expect(schemas.get('/huge/v1')).toEqual({ 200: outputSchema(Huge) });
    expect(await text('/huge/v1')).toEqual([200, 'application/json; charset=utf-8', JSON.stringify({ big: Number.MAX_VALUE, small: -Number.MIN_VALUE })]);
  });
});
