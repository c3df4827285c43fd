/**
 * src/interop/class-transformer.ts reads class-transformer's private `@Type` storage. These tests
 * fail when the installed class-transformer leaves the range that module was checked against, or
 * when the read it relies on stops holding (the module would fall back silently, so the storage's
 * shape is asserted).
 */
import { Type } from 'class-transformer';
import { IsString, ValidateNested } from 'class-validator';
import { schemaOf } from 'toolwright';
import { expectSupported } from '../helpers/supported-range';

describe('class-transformer interop (src/interop/class-transformer.ts)', () => {
  it('the installed class-transformer is in the range the module declares', () => {
    expectSupported('class-transformer', 'class-transformer');
  });

  it('@Type writes to the storage the module reads: a private Map by class, then by property', () => {
    class Item {
      @IsString() sku!: string;
    }
    class Order {
      @ValidateNested() @Type(() => Item) item!: Item;
    }
    const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: { _typeMetadatas?: unknown } };
    expect(defaultMetadataStorage._typeMetadatas).toBeInstanceOf(Map);
    const own = (defaultMetadataStorage._typeMetadatas as Map<Function, Map<string, unknown>>).get(Order);
    expect([...(own?.keys() ?? [])]).toEqual(['item']);
  });

  it('a @Type(() => X) element type is followed, declared on the class or on a parent class', () => {
    class Line {
      @IsString() sku!: string;
    }
    class Basket {
      @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
    }
    class Order extends Basket {
      @IsString() id!: string;
    }
    const line = { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'], additionalProperties: false };
    expect(schemaOf(Basket).properties).toMatchObject({ lines: { type: 'array', items: line } });
    expect(schemaOf(Order).properties).toMatchObject({ lines: { type: 'array', items: line }, id: { type: 'string' } });
  });
});
