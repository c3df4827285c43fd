import { DeclarationError, Expects, Exposes, Field, inputSchema, invoke, outputSchema, SchemaName, schemaOf, Tool } from 'toolwright';
import { checked } from '../helpers/schema';

@SchemaName('address')
class Address {
  @Field() street!: string;
  @Field({ optional: true }) city?: string;
}

class Customer {
  @Field() name!: string;
  @Field({ type: Address }) home!: Address;
}

class Shipment {
  @Field({ type: Address }) from!: Address;
  @Field({ type: Address }) to!: Address;
  @Field({ type: () => [Address], optional: true }) stops?: Address[];
}

@SchemaName('category')
class Category {
  @Field() label!: string;
  @Field({ type: () => [Category], optional: true }) children?: Category[];
}

class Catalog {
  @Field({ type: Category }) root!: Category;
}

const ADDRESS_INPUT = {
  type: 'object',
  properties: { street: { type: 'string', minLength: 1 }, city: { type: 'string' } },
  required: ['street'],
  additionalProperties: false,
};

describe('@SchemaName: a named contract class is a $defs entry under that name', () => {
  it('used once, it is still written to $defs and referenced (an unnamed class would be inlined)', () => {
    const schema = checked(schemaOf(Customer));
    expect(schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, home: { $ref: '#/$defs/address' } },
      required: ['name', 'home'],
      additionalProperties: false,
      $defs: { address: ADDRESS_INPUT },
    });
  });

  it('used twice and in an array, it is written once and every use is a $ref', () => {
    const schema = checked(schemaOf(Shipment));
    expect(schema.$defs).toEqual({ address: ADDRESS_INPUT });
    expect(schema.properties).toEqual({
      from: { $ref: '#/$defs/address' },
      to: { $ref: '#/$defs/address' },
      stops: { type: 'array', items: { $ref: '#/$defs/address' } },
    });
  });

  it('recursive, it refers to itself by its name', () => {
    const schema = checked(schemaOf(Catalog));
    expect(schema.properties).toEqual({ root: { $ref: '#/$defs/category' } });
    expect(schema.$defs).toEqual({
      category: {
        type: 'object',
        properties: {
          label: { type: 'string', minLength: 1 },
          children: { type: 'array', items: { $ref: '#/$defs/category' } },
        },
        required: ['label'],
        additionalProperties: false,
      },
    });
  });

  it('every dialect and projection uses the name: draft-07 definitions, strict mode, the output direction', () => {
    const draft07 = checked(schemaOf(Customer, { dialect: 'draft-07' }), 'draft-07');
    expect(draft07.properties).toMatchObject({ home: { $ref: '#/definitions/address' } });
    expect(Object.keys(draft07.definitions as object)).toEqual(['address']);
    expect(draft07.$defs).toBeUndefined();

    const strict = checked(schemaOf(Customer, { strict: true }));
    expect(strict.properties).toMatchObject({ home: { $ref: '#/$defs/address' } });
    expect(strict.$defs).toEqual({
      address: {
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: ['string', 'null'] } },
        required: ['street', 'city'],
        additionalProperties: false,
      },
    });

    const output = checked(schemaOf(Customer, { direction: 'output' }));
    expect(output.properties).toMatchObject({ home: { $ref: '#/$defs/address' } });
    expect((output.$defs as Record<string, unknown>).address).toMatchObject({ properties: { street: { type: 'string' } } });
  });

  it('a tool advertises it in input and output schemas, beside $schema (what MCP clients are sent)', () => {
    @Tool({ name: 'ship' })
    @Expects(Shipment)
    @Exposes(Customer)
    class Ship {
      call(input: Shipment) {
        return { name: 'x', home: input.to };
      }
    }
    const input = checked(inputSchema(Ship, { declareDialect: true, sharedDefs: true }));
    expect(input.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(input.$defs as object)).toEqual(['address']);
    expect(checked(outputSchema(Ship))!.properties).toMatchObject({ home: { $ref: '#/$defs/address' } });
  });

  it('the root class keeps being the schema itself: its name is not a $defs entry', () => {
    @SchemaName('tree')
    class Tree {
      @Field() id!: string;
      @Field({ type: () => [Tree], optional: true }) kids?: Tree[];
    }
    const schema = checked(schemaOf(Tree));
    expect(schema.$defs).toBeUndefined();
    expect(schema.properties).toMatchObject({ kids: { items: { $ref: '#' } } });
  });

  it('an unnamed class whose own name a named class holds is renamed, not overwritten', () => {
    // eslint-disable-next-line @typescript-eslint/naming-convention
    class address {
      @Field() line!: string;
      @Field({ type: () => address, optional: true }) next?: address;
    }
    class Both {
      @Field({ type: Address }) named!: Address;
      @Field({ type: address }) unnamed!: address;
    }
    const schema = checked(schemaOf(Both));
    expect(Object.keys(schema.$defs as object).sort()).toEqual(['address', 'address2']);
    expect(schema.properties).toEqual({ named: { $ref: '#/$defs/address' }, unnamed: { $ref: '#/$defs/address2' } });
    expect((schema.$defs as Record<string, unknown>).address).toEqual(ADDRESS_INPUT);
  });

  it('is not inherited: a subclass is another shape, inlined unless it names itself', () => {
    class Office extends Address {
      @Field() floor!: number;
    }
    class Company {
      @Field({ type: Office }) office!: Office;
      @Field({ type: Address }) billing!: Address;
    }
    const schema = checked(schemaOf(Company));
    expect(Object.keys(schema.$defs as object)).toEqual(['address']);
    expect(schema.properties).toMatchObject({ office: { type: 'object', properties: { floor: { type: 'number' } } } });
  });
});

describe('@SchemaName: the invoker validates against the same schema', () => {
  @Tool({ name: 'deliver' })
  @Expects(Shipment)
  @Exposes(Customer)
  class Deliver {
    call(input: Shipment) {
      return { name: input.to.city ?? 'nowhere', home: input.stops?.[0] ?? input.to };
    }
  }

  it('accepts input that follows the advertised schema, through $ref and arrays of $ref', async () => {
    const result = await invoke(Deliver, {
      from: { street: 'Main 1' },
      to: { street: 'High 2', city: 'Oslo' },
      stops: [{ street: 'Stop 3' }],
    });
    expect(result).toMatchObject({ ok: true, value: { name: 'Oslo', home: { street: 'Stop 3' } } });
  });

  it('rejects what the referenced definition forbids, naming the field', async () => {
    const result = await invoke(Deliver, {
      from: { street: 'Main 1', zip: '0150' },
      to: { city: 'Oslo' },
      stops: [{ street: '' }],
    });
    expect(result.ok).toBe(false);
    expect(result.fieldErrors?.map((error) => error.field).sort()).toEqual(['from.zip', 'stops[0].street', 'to.street']);
  });
});

describe('@SchemaName: bad names and conflicts', () => {
  it.each([
    ['', 'empty'],
    ['has/slash', 'a JSON pointer separator'],
    ['tilde~0', 'a JSON pointer escape'],
    ['1address', 'a leading digit'],
    ['my address', 'a space'],
    ['a'.repeat(65), 'one character past the limit'],
  ])('refuses %j (%s) at decoration, saying what a name may be', (name) => {
    expect(() => SchemaName(name)).toThrow(
      /^@SchemaName needs a definition name of 1 to 64 characters: a letter or '_' first, then letters, digits, '_', '\.' or '-' .*; got /,
    );
  });

  it('accepts a name at the limit, and dotted or dashed names', () => {
    for (const name of ['a'.repeat(64), 'com.example.Address', 'postal-address', '_private']) expect(() => SchemaName(name)).not.toThrow();
  });

  it('refuses a value that is not a string, with a DeclarationError', () => {
    expect(() => SchemaName(42 as never)).toThrow('got 42');
    expect(() => SchemaName(42 as never)).toThrow(DeclarationError);
  });

  it('refuses a second @SchemaName on one class', () => {
    expect(() => {
      @SchemaName('one')
      @SchemaName('two')
      class Twice {
        @Field() x!: string;
      }
      return Twice;
    }).toThrow('Twice: @SchemaName is already declared. Declare it once.');
  });

  it('two different classes with one name in one schema: an error naming both and the fix, at schema time', () => {
    @SchemaName('address')
    class PostalAddress {
      @Field() zip!: string;
    }
    class Order {
      @Field({ type: Address }) billing!: Address;
      @Field({ type: () => [PostalAddress] }) shipping!: PostalAddress[];
    }
    @Tool({ name: 'place_order' })
    @Expects(Order)
    class PlaceOrder {
      call() {
        return 'ok';
      }
    }
    const message =
      "Two contract classes are named 'address' with @SchemaName, Address and PostalAddress, and both appear in the schema of Order: " +
      'one $defs entry cannot describe both. Give one of them another @SchemaName.';
    expect(() => schemaOf(Order)).toThrow(message);
    expect(() => inputSchema(PlaceOrder)).toThrow(message);
    // Each class alone is fine: names only have to be unique within one schema.
    expect(() => schemaOf(Customer)).not.toThrow();
  });
});
