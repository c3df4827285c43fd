/**
 * The HTTP adapter over real HTTP on 127.0.0.1: routes per tool version, the body validated once by
 * the invoker, RFC 9457 problems with the exact statuses, ambient values and the auth hook.
 */
import 'reflect-metadata';
import { IsEmail, IsInt, IsString, Max, MaxLength, MinLength } from 'class-validator';
import { fastify as createFastify } from 'fastify';
import { AmbientContext, configure, Expects, Exposes, FailsOn, Field, Integer, SemanticHints, Tool, ToolVersion, fail } from 'toolwright';
import { HttpApiHandle, HttpApiOptions, HttpConfig, serveHttpApi, toolwrightHttp } from 'toolwright/http';

class NotFoundError extends Error {}
class ConflictError extends Error {}

class GreetInput {
  @Field({ description: 'Who to greet' }) name!: string;
  @Field({ type: () => Integer, optional: true }) times?: number;
  @Field({ type: () => [String], optional: true }) tags?: string[];
  @Field({ optional: true }) loud?: boolean;
  @AmbientContext() user!: string;
}

@Tool('http', { description: 'Greets someone' })
@SemanticHints('readOnly')
@Expects(GreetInput)
@Exposes({ greeting: String, by: String, tags: { type: [String], optional: true } })
class Greet {
  calls = 0;
  call(input: GreetInput) {
    Greet.runs++;
    const greeting = `Hello ${input.name}`.repeat(input.times ?? 1);
    return { greeting: input.loud ? greeting.toUpperCase() : greeting, by: input.user, tags: input.tags };
  }
  static runs = 0;
}

class OrderInput {
  @Field() orderId!: string;
}

@Tool('http', { description: 'Ships an order', error: 'Could not ship the order' })
@ToolVersion(1)
@FailsOn(NotFoundError, 'no such order')
@FailsOn(ConflictError, 'the order is locked')
@Expects(OrderInput)
@Exposes({ shipped: Boolean })
class ShipOrderV1 {
  call(input: OrderInput) {
    if (input.orderId === 'missing') throw new NotFoundError('row 17 not in orders_v3');
    if (input.orderId === 'locked') throw new ConflictError('lock held by pid 4242');
    if (input.orderId === 'refused') fail('it is Sunday');
    if (input.orderId === 'crash') throw new Error('connection string postgres://admin:hunter2@db');
    return { shipped: true };
  }
}

@Tool('http', {
  description: 'Ships an order, express',
  adapters: { http: { failureStatus: { default: 400, on: [[NotFoundError, 404], [ConflictError, 409]] } } },
})
@ToolVersion(2)
@FailsOn(NotFoundError, 'no such order')
@FailsOn(ConflictError, 'the order is locked')
@Expects(OrderInput)
@Exposes({ shipped: Boolean, express: Boolean })
class ShipOrderV2 {
  call(input: OrderInput) {
    new ShipOrderV1().call(input);
    return { shipped: true, express: true };
  }
}

class Opaque {
  constructor(readonly secret = 'internal') {}
}

@Tool('http', { name: 'opaque_thing' })
@Exposes({ thing: { type: Object } })
class OpaqueThing {
  call() {
    return { thing: new Opaque() };
  }
}

@Tool('http', { name: 'opaque_allowed', adapters: { http: { rejectOpaqueExposedValues: false } } })
@Exposes({ thing: { type: Object } })
class OpaqueAllowed {
  call() {
    return { thing: new Opaque() };
  }
}

@Tool('http', { name: 'ping', adapters: { http: { segment: 'health-check' } } })
class Ping {
  call() {
    return undefined;
  }
}

class LoanInput {
  @IsString() @MinLength(2) @MaxLength(100) applicant!: string;
  @IsInt() @Max(1_000_000) amount!: number;
  @IsEmail() email!: string;
}

@Tool('http', { name: 'apply_for_loan', error: 'Could not apply' })
@Expects(LoanInput)
@Exposes({ email: String })
class ApplyForLoan {
  call(input: LoanInput) {
    return { email: input.email };
  }
}

const tools = [Greet, ShipOrderV1, ShipOrderV2, OpaqueThing, OpaqueAllowed, Ping, ApplyForLoan];

async function call(base: string, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, {
    method,
    body,
    headers: body !== undefined ? { 'content-type': 'application/json', ...headers } : headers,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

describe('toolwright/http over real HTTP', () => {
  let api: HttpApiHandle;
  const options: HttpApiOptions = {
    tools,
    prefix: '/api',
    bodyLimit: 256,
    docs: false,
    ambientContext: (request) => ({ user: String(request.headers['x-user'] ?? 'anonymous') }),
  };
  beforeAll(async () => {
    api = await serveHttpApi(options, { port: 0 });
  });
  afterAll(() => api.close());

  it('serves every version at its own path: POST runs the tool and answers its exposed values', async () => {
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const v1 = await call(api.url, 'POST', '/ship_order/v1', '{"orderId":"o-1"}');
    expect([v1.status, v1.headers.get('content-type'), v1.json]).toEqual([200, 'application/json; charset=utf-8', { shipped: true }]);
    const v2 = await call(api.url, 'POST', '/ship_order/v2', '{"orderId":"o-1"}');
    expect(v2.json).toEqual({ shipped: true, express: true });
    // No unversioned alias: a URL means one version forever.
    expect((await call(api.url, 'POST', '/ship_order', '{"orderId":"o-1"}')).status).toBe(404);
    expect((await call(api.url, 'POST', '/ship_order/v3', '{"orderId":"o-1"}')).status).toBe(404);
  });

  it('a readOnly tool answers GET with its input in the query string, coerced by the field model', async () => {
    const got = await call(api.url, 'GET', '/greet/v1?name=Ada&times=2&loud=yes&tags=x');
    expect([got.status, got.json]).toEqual([200, { greeting: 'HELLO ADAHELLO ADA', by: 'anonymous', tags: ['x'] }]);
    const many = await call(api.url, 'GET', '/greet/v1?name=Ada&tags=x&tags=y');
    expect(many.json.tags).toEqual(['x', 'y']);
    const bad = await call(api.url, 'GET', '/greet/v1?name=Ada&times=often');
    expect([bad.status, bad.json.errors]).toEqual([
      422,
      [{ field: 'times', keyword: 'type', params: { type: 'integer' }, message: expect.stringContaining('times') }],
    ]);
    const head = await fetch(`${api.url}/greet/v1?name=Ada`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('a wrong method answers 405 with Allow; GET is only for readOnly tools', async () => {
    const get = await call(api.url, 'GET', '/ship_order/v1?orderId=o-1');
    expect([get.status, get.headers.get('allow'), get.headers.get('content-type')]).toEqual([405, 'POST', 'application/problem+json; charset=utf-8']);
    expect(get.json).toEqual({
      type: 'about:blank',
      title: 'Method Not Allowed',
      status: 405,
      detail: 'GET is not allowed here; use POST.',
      instance: '/api/ship_order/v1',
    });
    const put = await call(api.url, 'PUT', '/greet/v1', '{}');
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, HEAD, POST']);
    expect((await call(api.url, 'DELETE', '/ship_order/v2')).status).toBe(405);
  });

  it('invalid input is 422 with each field error; the invoker validates once (undeclared keys too)', async () => {
    const missing = await call(api.url, 'POST', '/greet/v1', '{"times":"x","extra":1}');
    expect(missing.status).toBe(422);
    expect(missing.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(missing.json).toMatchObject({ type: 'about:blank', title: 'Unprocessable Content', status: 422 });
    expect(missing.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['extra', 'name', 'times']);
    for (const error of missing.json.errors) expect(Object.keys(error)).toEqual(['field', 'keyword', 'params', 'message']);
    const notObject = await call(api.url, 'POST', '/greet/v1', '[1,2]');
    expect([notObject.status, notObject.json.errors]).toEqual([
      422,
      [{ field: 'base', keyword: 'type', params: { type: 'object' }, message: 'arguments must be an object' }],
    ]);
  });

  it('invalid input names every invalid field in one problem, whichever check found it; a wrong type reads as its type', async () => {
    const both = await call(api.url, 'POST', '/apply_for_loan/v1', '{"applicant":"Ada","amount":5000000,"email":"not-an-email"}');
    expect([both.status, both.json.detail, both.json.errors]).toEqual([
      422,
      'Could not apply: amount must not be greater than 1000000 and email must be an email',
      [
        { field: 'amount', keyword: 'maximum', params: { limit: 1_000_000 }, message: 'amount must not be greater than 1000000' },
        { field: 'email', keyword: 'format', params: { format: 'email' }, message: 'email must be an email' },
      ],
    ]);
    const typed = await call(api.url, 'POST', '/apply_for_loan/v1', '{"applicant":42,"amount":5,"email":"ada@example.com"}');
    expect([typed.status, typed.json.errors]).toEqual([422, [{ field: 'applicant', keyword: 'type', params: { type: 'string' }, message: 'applicant must be a string' }]]);
  });

  it("@IsEmail's format is an annotation in the OpenAPI document: an address class-validator accepts and JSON Schema's email refuses runs", async () => {
    const document = (await call(api.url, 'GET', '/openapi.json')).json;
    const body = document.paths['/api/apply_for_loan/v1'].post.requestBody.content['application/json'].schema;
    expect(body.properties.email).toEqual({ type: 'string', format: 'email', minLength: 1 });
    const accepted = await call(api.url, 'POST', '/apply_for_loan/v1', '{"applicant":"Ada","amount":5,"email":"a@bücher.de"}');
    expect([accepted.status, accepted.json]).toEqual([200, { email: 'a@bücher.de' }]);
    // And one JSON Schema's email accepts, class-validator refuses (an IP domain):
    const refused = await call(api.url, 'POST', '/apply_for_loan/v1', '{"applicant":"Ada","amount":5,"email":"a@127.0.0.1"}');
    expect([refused.status, refused.json.errors]).toEqual([422, [{ field: 'email', keyword: 'format', params: { format: 'email' }, message: 'email must be an email' }]]);
  });

  it('ambient values come from ambientContext(request), never from the body or the query string', async () => {
    const fromHeader = await call(api.url, 'POST', '/greet/v1', '{"name":"Ada"}', { 'x-user': 'officer-7' });
    expect(fromHeader.json.by).toBe('officer-7');
    const smuggledBody = await call(api.url, 'POST', '/greet/v1', '{"name":"Ada","user":"mallory"}');
    expect([smuggledBody.status, smuggledBody.json.errors]).toEqual([422, [{ field: 'user', keyword: 'unknown', params: {}, message: 'unknown input: user' }]]);
    const smuggledQuery = await call(api.url, 'GET', '/greet/v1?name=Ada&user=mallory');
    expect(smuggledQuery.status).toBe(422);
    const ignored = await call(api.url, 'POST', '/greet/v1', '{"name":"Ada","ambientContext":{"user":"mallory"}}');
    expect([ignored.status, ignored.json.by]).toEqual([200, 'anonymous']);
  });

  it('a business failure is 422 with the user-facing message; a tool declares other statuses per failure class', async () => {
    const refused = await call(api.url, 'POST', '/ship_order/v1', '{"orderId":"refused"}');
    expect([refused.status, refused.json.detail]).toEqual([422, 'Could not ship the order: it is Sunday']);
    const missingV1 = await call(api.url, 'POST', '/ship_order/v1', '{"orderId":"missing"}');
    expect([missingV1.status, missingV1.json.detail]).toEqual([422, 'Could not ship the order: no such order']);
    expect(missingV1.text).not.toContain('orders_v3');
    const missing = await call(api.url, 'POST', '/ship_order/v2', '{"orderId":"missing"}');
    expect([missing.status, missing.json.title, missing.json.detail]).toEqual([404, 'Not Found', 'no such order']);
    const locked = await call(api.url, 'POST', '/ship_order/v2', '{"orderId":"locked"}');
    expect([locked.status, locked.json.detail]).toEqual([409, 'the order is locked']);
    expect(locked.text).not.toContain('4242');
    const other = await call(api.url, 'POST', '/ship_order/v2', '{"orderId":"refused"}');
    expect(other.status).toBe(400); // the declared default
  });

  it('an exception is 500 with the generic message and nothing internal', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const crashed = await call(api.url, 'POST', '/ship_order/v1', '{"orderId":"crash"}');
      expect([crashed.status, crashed.json]).toEqual([
        500,
        { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'Could not ship the order', instance: '/api/ship_order/v1' },
      ]);
      expect(crashed.text).not.toMatch(/hunter2|postgres|\bat \w/);
    } finally {
      spy.mockRestore();
    }
  });

  it('rejectOpaqueExposedValues defaults to true: a value its author never declared is refused (500); a tool may opt out', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const refused = await call(api.url, 'POST', '/opaque_thing/v1');
      expect([refused.status, refused.json.detail]).toEqual([500, 'The tool could not produce a valid response']);
      expect(refused.text).not.toContain('internal');
    } finally {
      spy.mockRestore();
    }
    const allowed = await call(api.url, 'POST', '/opaque_allowed/v1');
    expect([allowed.status, allowed.json]).toEqual([200, { thing: { secret: 'internal' } }]);
    expect(HttpConfig.get('rejectOpaqueExposedValues')).toBe(true);
  });

  it('a tool that exposes nothing answers 204; a segment override names its path', async () => {
    const ping = await fetch(`${api.url}/health-check/v1`, { method: 'POST' });
    expect([ping.status, await ping.text()]).toEqual([204, '']);
    expect((await call(api.url, 'POST', '/ping/v1')).status).toBe(404);
  });

  it('refuses bodies it cannot read: not JSON 400, too large 413, another media type 415; no body is no input', async () => {
    const notJson = await call(api.url, 'POST', '/greet/v1', '{"name":');
    expect([notJson.status, notJson.json.title, notJson.json.detail]).toEqual([
      400,
      'Bad Request',
      "The request body is not valid JSON: send the tool's input as a JSON object.",
    ]);
    const large = await call(api.url, 'POST', '/greet/v1', JSON.stringify({ name: 'x'.repeat(300) }));
    expect([large.status, large.json.title, large.json.detail]).toEqual([413, 'Content Too Large', 'The request body is larger than 256 bytes.']);
    const text = await call(api.url, 'POST', '/greet/v1', 'name=Ada', { 'content-type': 'text/plain' });
    expect([text.status, text.json.detail]).toEqual([415, "Unsupported media type 'text/plain': send the input as application/json."]);
    const form = await call(api.url, 'POST', '/greet/v1', 'name=Ada', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    const empty = await call(api.url, 'POST', '/greet/v1', '');
    expect([empty.status, empty.json.errors]).toEqual([422, [{ field: 'name', keyword: expect.any(String), params: expect.any(Object), message: expect.any(String) }]]);
    const proto = await call(api.url, 'POST', '/greet/v1', '{"name":"Ada","__proto__":{"admin":true}}');
    expect(proto.status).toBe(400);
  });

  it('an unknown path is 404, as a problem naming the OpenAPI document', async () => {
    const unknown = await call(api.url, 'POST', '/nothing/v1', '{}');
    expect([unknown.status, unknown.json.detail]).toEqual([404, 'No such endpoint: POST /api/nothing/v1. The API is described at /api/openapi.json.']);
  });

  it('a loopback server refuses a request addressed to another host name (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${api.url}/greet/v1?name=Ada`, { headers: { host: 'evil.example:80' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('the loopback rule: 127.0.0.0/8, ::1 and localhost, case-insensitive', () => {
  /** GET with the given Host header; the status. */
  async function statusFor(url: string, host: string): Promise<number> {
    const { request } = await import('node:http');
    return new Promise<number>((resolve, reject) => {
      const req = request(url, { headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('a server bound to 127.0.0.2 is a loopback server: it refuses another host name and answers loopback ones', async () => {
    const api = await serveHttpApi({ tools, docs: false, ambientContext: () => ({ user: 'u' }) }, { host: '127.0.0.2', port: 0 });
    try {
      expect(api.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
      const path = `${api.url}/greet/v1?name=Ada`;
      expect(await statusFor(path, 'evil.example')).toBe(403);
      expect(await statusFor(path, 'LOCALHOST')).toBe(200);
      expect(await statusFor(path, '127.1.2.3:80')).toBe(200);
      expect(await statusFor(path, '[::1]:8080')).toBe(200);
      expect(await statusFor(path, '127.0.0.2.evil.example')).toBe(403);
    } finally {
      await api.close();
    }
  });
});

describe('abortOnDisconnect', () => {
  it('aborts the call’s signal when the client goes away before the answer', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let aborted!: (reason: unknown) => void;
    const abort = new Promise<unknown>((resolve) => (aborted = resolve));

    @Tool('http', { name: 'slow' })
    @Expects({})
    class Slow {
      async call(_input: unknown, { signal }: { signal: AbortSignal }) {
        started();
        await new Promise((resolve) => signal.addEventListener('abort', () => resolve(aborted(signal.reason)), { once: true }));
        return undefined;
      }
    }
    const api = await serveHttpApi({ tools: [Slow], docs: false, abortOnDisconnect: true }, { port: 0 });
    try {
      const client = new AbortController();
      const request = fetch(`${api.url}/slow/v1`, { method: 'POST', signal: client.signal }).catch((error: Error) => error.name);
      await running;
      client.abort();
      expect(await request).toBe('AbortError');
      expect(String(await abort)).toContain('The client closed the connection.');
    } finally {
      await api.close();
    }
  });
});

describe('the auth hook', () => {
  let api: HttpApiHandle;
  let seen: string[] = [];
  beforeAll(async () => {
    api = await serveHttpApi(
      {
        tools: [Greet, ShipOrderV1],
        docs: false,
        ambientContext: (request) => ({ user: (request as unknown as { caller: string }).caller }),
        auth: {
          securityScheme: { type: 'http', scheme: 'bearer' },
          verify(request, tool) {
            seen.push(tool.toolName('http'));
            const token = request.headers.authorization;
            if (token === 'Bearer broken') return 'yes' as never;
            if (token === 'Bearer throws') throw new Error('verifier down');
            if (token !== 'Bearer reader' && token !== 'Bearer writer') return false;
            if (token === 'Bearer reader' && !tool.hints.includes('readOnly')) return { status: 403, detail: 'Readers may only read.' };
            (request as unknown as { caller: string }).caller = token.slice(7);
            return true;
          },
        },
      },
      { port: 0 },
    );
  });
  afterAll(() => api.close());
  beforeEach(() => {
    seen = [];
    Greet.runs = 0;
  });

  it('refuses with 401 (and a challenge) before the tool runs, and before the body is read', async () => {
    const none = await call(api.url, 'POST', '/greet/v1', '{"name":"Ada"}');
    expect([none.status, none.headers.get('www-authenticate'), none.json.detail]).toEqual([401, 'Bearer', 'This call needs valid credentials.']);
    const badJson = await call(api.url, 'POST', '/greet/v1', '{not json');
    expect(badJson.status).toBe(401);
    expect(Greet.runs).toBe(0);
  });

  it('a 403 verdict hides the route (the 404 of an unknown path); lets an allowed call through with the caller as ambient value', async () => {
    const reader = await call(api.url, 'POST', '/ship_order/v1', '{"orderId":"o"}', { authorization: 'Bearer reader' });
    expect([reader.status, reader.json.detail]).toEqual([404, 'No such endpoint: POST /ship_order/v1. The API is described at /openapi.json.']);
    const read = await call(api.url, 'GET', '/greet/v1?name=Ada', undefined, { authorization: 'Bearer reader' });
    expect([read.status, read.json.by]).toEqual([200, 'reader']);
    expect(seen).toEqual(['ship_order', 'greet']);
  });

  it('fails closed: a hook that throws or answers something else is 500, reported through onException, and the tool does not run', async () => {
    const reported: string[] = [];
    configure({ onException: (error) => reported.push((error as Error).message) });
    try {
      for (const token of ['broken', 'throws']) {
        const answer = await call(api.url, 'POST', '/greet/v1', '{"name":"Ada"}', { authorization: `Bearer ${token}` });
        expect([answer.status, answer.json.detail]).toEqual([500, 'Something went wrong']);
        expect(answer.text).not.toContain('verifier down');
      }
      expect(Greet.runs).toBe(0);
      expect(reported).toEqual([
        "toolwright/http: auth.verify must return true, false or { status: 401 | 403, detail? }; got 'yes' for Greet. Refused.",
        'toolwright/http: auth.verify threw for Greet: verifier down',
      ]);
    } finally {
      configure({ onException: undefined });
    }
  });
});

describe('the plugin in an application’s own Fastify', () => {
  it('mounts under a prefix beside the application’s routes and leaves them alone', async () => {
    const app = createFastify();
    app.post('/own', async (request) => ({ echoed: request.body }));
    await app.register(toolwrightHttp, { tools: [Greet], prefix: '/tools', docs: false, ambientContext: () => ({ user: 'app' }) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      expect((await call(base, 'POST', '/tools/greet/v1', '{"name":"Ada"}')).json.by).toBe('app');
      // The application's own routes keep Fastify's parsers and 404.
      expect((await call(base, 'POST', '/own', '{"a":1}')).json).toEqual({ echoed: { a: 1 } });
      expect((await call(base, 'POST', '/own', 'plain', { 'content-type': 'text/plain' })).json).toEqual({ echoed: 'plain' });
    } finally {
      await app.close();
    }
  });

  it('refuses two tools at one path, naming both and the fix', async () => {
    @Tool('http', { name: 'twin' })
    class TwinA {
      call() {}
    }
    @Tool('http', { name: 'other', adapters: { http: { segment: 'twin' } } })
    class TwinB {
      call() {}
    }
    const app = createFastify();
    await expect(app.register(toolwrightHttp, { tools: [TwinA, TwinB], docs: false }).ready()).rejects.toThrow(
      /tools TwinA and TwinB are both served at \/twin\/v1\. Give one another name or segment/,
    );
  });

  it('refuses bad settings with a message naming the setting and what it takes', () => {
    expect(() => HttpConfig.set('failureStatus', 200)).toThrow(/failureStatus must be an HTTP error status \(400-599\); got 200/);
    expect(() => HttpConfig.set('segment', 'a/b')).toThrow(/segment must be a URL path segment/);
    expect(() => {
      @Tool('http', { adapters: { http: { failureStatus: { on: [[Error, 99]] } } } })
      class BadStatus {
        call() {}
      }
      return BadStatus;
    }).toThrow(/BadStatus: failureStatus on\[0\] must be \[ErrorClass, status\] with a status in 400-599/);
  });
});
