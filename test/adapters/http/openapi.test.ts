/**
 * The OpenAPI 3.1 document from the same field model as the routes, checked by a real OpenAPI 3.1
 * validator (@seriousme/openapi-schema-validator, run in a child process: it ships ES modules only).
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Description, Expects, Exposes, Field, SchemaName, SemanticHints, Tool, ToolVersion } from 'toolwright';
import { httpApiDocument, HttpApiHandle, HttpApiOptions, serveHttpApi } from 'toolwright/http';

const repo = path.resolve(__dirname, '..', '..', '..');

/** Validates a document with the npm validator; resolves with its verdict. */
async function validate(document: unknown): Promise<{ valid: boolean; version?: string; errors?: unknown }> {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(input));
    process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors }));`;
  const child = promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: repo });
  child.child.stdin!.end(JSON.stringify(document));
  return JSON.parse((await child).stdout);
}

class Address {
  @Field() street!: string;
  @Field({ description: 'City name' }) city!: string;
}

class CustomerInput {
  @Field() name!: string;
  @Field({ type: () => Address, description: 'Where to send the mail' }) address!: Address;
}

class Customer {
  @Field() id!: string;
  @Field({ type: () => Address }) address!: Address;
  @Field({ type: () => [Address], optional: true }) previous?: Address[];
}

@Tool('http', { description: 'Registers a customer. Mail goes to their address.' })
@ToolVersion(1)
@Expects(CustomerInput)
@Exposes(Customer)
class RegisterCustomerV1 {
  call(input: CustomerInput): Customer {
    return { id: 'c-1', address: input.address };
  }
}

@Tool('http', { description: 'Registers a customer (v2)', title: 'Register a customer', adapters: { http: { deprecated: false, tags: ['customers'] } } })
@ToolVersion(2)
@Expects(CustomerInput)
@Exposes(Customer)
class RegisterCustomerV2 extends RegisterCustomerV1 {}

class LookupInput {
  @Field() id!: string;
  @Field({ type: () => [String], optional: true }) fields?: string[];
}

@Tool('http', { name: 'find_customer', adapters: { http: { deprecated: true } } })
@Description('Finds a customer')
@SemanticHints('readOnly')
@Expects(LookupInput)
@Exposes(Customer)
class FindCustomer {
  call(input: LookupInput): Customer {
    return { id: input.id, address: { street: 'Main St 1', city: 'Dublin' } };
  }
}

const options: HttpApiOptions = {
  tools: [RegisterCustomerV1, RegisterCustomerV2, FindCustomer],
  docs: false,
  info: { title: 'Customers', version: '2.3.0' },
  auth: { securityScheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, schemeName: 'bearer', verify: () => true },
};

describe('the OpenAPI 3.1 document', () => {
  let api: HttpApiHandle;
  beforeAll(async () => {
    api = await serveHttpApi({ ...options, prefix: '/v' }, { port: 0 });
  });
  afterAll(() => api.close());

  it('is served at {prefix}/openapi.json, equal to httpApiDocument(), and valid OpenAPI 3.1', async () => {
    const response = await fetch(`${api.url}/openapi.json`);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const served = await response.json();
    expect(served).toEqual(httpApiDocument({ ...options, prefix: '/v' }));
    expect(await validate(served)).toEqual({ valid: true, version: '3.1' });
  }, 30_000);

  it('the validator is real: it refuses a broken document', async () => {
    const broken = httpApiDocument(options);
    delete broken.paths['/register_customer/v1'].post.responses;
    broken.paths['/register_customer/v1'].post.parameters = [{ name: 'x' }];
    expect((await validate(broken)).valid).toBe(false);
  }, 30_000);

  it('has one operation per tool version (and a GET for readOnly tools), with ids, summaries, tags and deprecation', () => {
    const document = httpApiDocument({ ...options, prefix: '/v' });
    expect(document.info).toEqual({ title: 'Customers', version: '2.3.0' });
    expect(Object.keys(document.paths)).toEqual(['/v/register_customer/v1', '/v/register_customer/v2', '/v/find_customer/v1']);
    const v1 = document.paths['/v/register_customer/v1'].post;
    expect(v1).toMatchObject({
      operationId: 'register_customer_v1',
      tags: ['register_customer'],
      summary: 'Registers a customer.',
      description: 'Registers a customer. Mail goes to their address.',
    });
    expect(v1.deprecated).toBeUndefined();
    expect(Object.keys(document.paths['/v/register_customer/v1'])).toEqual(['post']);
    expect(document.paths['/v/register_customer/v2'].post).toMatchObject({ operationId: 'register_customer_v2', summary: 'Register a customer', tags: ['customers'] });
    const find = document.paths['/v/find_customer/v1'];
    expect(find.post).toMatchObject({ operationId: 'find_customer_v1', deprecated: true });
    expect(find.get).toMatchObject({
      operationId: 'find_customer_v1_get',
      deprecated: true,
      parameters: [
        { name: 'id', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'fields', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: true },
      ],
    });
  });

  it('request body = the advertised input schema, 200 = the output schema, shared nested classes under components/schemas', () => {
    const document = httpApiDocument(options);
    const schemas = document.components.schemas as Record<string, Record<string, unknown>>;
    // A class's input schema (non-empty strings) differs from its output one: two components.
    expect(Object.keys(schemas).sort()).toEqual(['Address', 'AddressInput', 'Problem']);
    expect(schemas.Address).toEqual({
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string', description: 'City name' } },
      required: ['street', 'city'],
      additionalProperties: false,
    });
    expect(schemas.AddressInput).toMatchObject({ properties: { street: { type: 'string', minLength: 1 } } });
    const post = document.paths['/register_customer/v1'].post as Record<string, any>;
    expect(post.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              name: { type: 'string', minLength: 1 },
              address: { $ref: '#/components/schemas/AddressInput', description: 'Where to send the mail' },
            },
            required: ['name', 'address'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(post.responses['200'].content['application/json'].schema.properties).toEqual({
      id: { type: 'string' },
      address: { $ref: '#/components/schemas/Address' },
      previous: { type: 'array', items: { $ref: '#/components/schemas/Address' } },
    });
  });

  it('lists the problem responses with their schema, and the security scheme when auth is configured', () => {
    const document = httpApiDocument(options);
    const responses = (document.paths['/register_customer/v1'].post as Record<string, any>).responses;
    expect(Object.keys(responses).sort()).toEqual(['200', '400', '401', '408', '413', '415', '422', '429', '500', '503']);
    expect(responses['429'].headers['Retry-After'].schema).toEqual({ type: 'integer', minimum: 1 });
    expect(responses['422'].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(Object.keys(document.components.schemas.Problem.properties as object)).toEqual(['type', 'title', 'status', 'detail', 'instance', 'errors']);
    expect(document.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
    expect(document.security).toEqual([{ bearer: [] }]);
    const open = httpApiDocument({ ...options, auth: undefined });
    expect(open.security).toBeUndefined();
    expect(Object.keys((open.paths['/register_customer/v1'].post as Record<string, any>).responses)).not.toContain('401');
  });

  it('a @SchemaName class is the component of that name, referenced from request, response and other components', async () => {
    @SchemaName('postal-address')
    class Postal {
      @Field() street!: string;
      @Field({ type: () => Postal, optional: true }) forwardTo?: Postal;
    }
    class Parcel {
      @Field() id!: string;
      @Field({ type: () => Postal }) to!: Postal;
    }
    class Route {
      @Field({ type: () => [Parcel] }) parcels!: Parcel[];
      @Field({ type: () => Postal }) depot!: Postal;
    }
    @Tool('http', { name: 'plan_route', description: 'Plans a route' })
    @Expects(Route)
    @Exposes(Parcel)
    class PlanRoute {
      call(input: Route): Parcel {
        return input.parcels[0];
      }
    }
    const document = httpApiDocument({ tools: [PlanRoute] });
    const schemas = document.components.schemas as Record<string, Record<string, any>>;
    // Postal's input schema (non-empty strings) differs from its output one: the input one is "…Input".
    // Parcel is nested only in the input (the output's root is the response schema itself).
    expect(Object.keys(schemas).sort()).toEqual(['Parcel', 'Problem', 'postal-address', 'postal-addressInput']);
    expect(schemas['postal-address'].properties.forwardTo).toEqual({ $ref: '#/components/schemas/postal-address' });
    expect(schemas['postal-addressInput'].properties.forwardTo).toEqual({ $ref: '#/components/schemas/postal-addressInput' });
    expect(schemas.Parcel.properties.to).toEqual({ $ref: '#/components/schemas/postal-addressInput' });
    const post = document.paths['/plan_route/v1'].post as Record<string, any>;
    expect(post.requestBody.content['application/json'].schema.properties).toEqual({
      parcels: { type: 'array', items: { $ref: '#/components/schemas/Parcel' }, minItems: 1 },
      depot: { $ref: '#/components/schemas/postal-addressInput' },
    });
    expect(post.responses['200'].content['application/json'].schema.properties.to).toEqual({ $ref: '#/components/schemas/postal-address' });
    // No tool-local $defs survive into the document.
    expect(JSON.stringify(document)).not.toContain('$defs');
    expect(await validate(document)).toEqual({ valid: true, version: '3.1' });
  }, 30_000);

  it('lists a tool’s declared failure statuses', () => {
    class Gone extends Error {}
    @Tool('http', { name: 'reserve', adapters: { http: { failureStatus: { on: [[Gone, 410]] } } } })
    class Reserve {
      call() {}
    }
    const document = httpApiDocument({ tools: [Reserve] });
    const responses = (document.paths['/reserve/v1'].post as Record<string, any>).responses;
    expect(Object.keys(responses).sort()).toEqual(['204', '400', '408', '410', '413', '415', '422', '429', '500', '503']);
    expect(document.paths['/reserve/v1'].post.requestBody).toMatchObject({ required: false });
  });
});
