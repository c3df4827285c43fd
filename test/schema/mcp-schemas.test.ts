/**
 * Schemas MCP clients expect: `$schema` naming the dialect, a class used in several places written
 * once in `$defs`, and a description on every tool.
 */
import 'reflect-metadata';
import { IsString, ValidateNested } from 'class-validator';
import { Expects, Field, inputSchema, Tool } from 'toolwright';
import { McpAdapter } from 'toolwright/mcp';

class Address {
  @Field() @IsString() city!: string;
}

class ShipInput {
  @Field({ type: Address }) @ValidateNested() from!: Address;
  @Field({ type: Address }) @ValidateNested() to!: Address;
  @Field() @IsString() note!: string;
}

@Tool({ description: 'Ships a parcel' })
@Expects(ShipInput)
class Ship {
  call() {}
}

@Tool()
class AskUserNow {
  call() {}
}

describe('schema options', () => {
  it('declareDialect names the dialect at the root only', () => {
    expect(inputSchema(Ship, { declareDialect: true }).$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(inputSchema(Ship, { declareDialect: true, dialect: 'draft-07' }).$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(inputSchema(Ship).$schema).toBeUndefined();
  });

  it('sharedDefs writes a class used twice once, in $defs, with $ref at each use', () => {
    const schema = inputSchema(Ship, { sharedDefs: true });
    const properties = schema.properties as Record<string, unknown>;
    expect(properties.from).toEqual({ $ref: '#/$defs/Address' });
    expect(properties.to).toEqual({ $ref: '#/$defs/Address' });
    expect(Object.keys(schema.$defs as object)).toEqual(['Address']);
    expect(schema.$defs).toEqual({ Address: expect.objectContaining({ type: 'object', required: ['city'] }) });
    // Default: inlined at each use.
    expect((inputSchema(Ship).properties as Record<string, unknown>).from).toEqual(
      expect.objectContaining({ type: 'object', required: ['city'] }),
    );
    expect(inputSchema(Ship, { sharedDefs: true, dialect: 'draft-07' }).definitions).toBeDefined();
  });
});

describe('the MCP adapter', () => {
  it('uses both options', () => {
    const { tool } = McpAdapter.wrap(Ship);
    expect(tool.inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(tool.inputSchema.$defs).toHaveProperty('Address');
  });

  it('describes a tool that declares no description by its name', () => {
    expect(McpAdapter.wrap(AskUserNow).tool.description).toBe('Ask user now');
    expect(McpAdapter.wrap(AskUserNow, { description: 'Asks' }).tool.description).toBe('Asks');
  });
});
