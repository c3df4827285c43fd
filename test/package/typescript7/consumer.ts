/**
 * A consumer compiled by TypeScript 7 from the packed package (test/package/typescript7.test.ts),
 * as CommonJS and as an ES module, with the TypeScript 7 tsconfig of docs/guide/typescript.md: DTO
 * fields typed by TypeScript 7's decorator metadata, class fields defined or assigned as the tsconfig says,
 * constructor injection, and a call in process, over MCP and through function calling.
 */
import 'reflect-metadata';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { IsInt, Min } from 'class-validator';
import { injectable } from 'tsyringe';
import { AmbientContext, Expects, Exposes, Field, inputSchema, invoke, outputSchema, Tool } from 'toolwright';
import { createMcpServer } from 'toolwright/mcp';
import { Toolbox } from 'toolwright/openai';

export class Line {
  @Field() sku!: string;
  @Field() @IsInt() @Min(1) quantity!: number;
}

export class OrderInput {
  @Field() customer!: string;
  @Field({ type: () => [Line] }) lines!: Line[];
  @Field({ optional: true }) note?: string;
  @Field() placedAt!: Date;
  @AmbientContext() shop!: string;
}

export class Order {
  @Field() id!: string;
  @Field() units!: number;
  @Field({ optional: true }) note?: string;
  @Field() placedAt!: Date;
  @Field() firstLineIsLine!: boolean;
}

@injectable()
export class Sequence {
  next = 0;
}

@Tool({ description: 'Place an order' })
@Expects(OrderInput)
@Exposes(Order)
@injectable()
export class PlaceOrder {
  constructor(private readonly sequence: Sequence) {}

  call(input: OrderInput): Order {
    const order = new Order();
    order.id = `${input.shop}-${++this.sequence.next}`;
    order.units = input.lines.reduce((sum, line) => sum + line.quantity, 0);
    order.placedAt = input.placedAt;
    order.firstLineIsLine = input.lines[0] instanceof Line;
    return order;
  }
}

const args = { customer: 'Ada', lines: [{ sku: 'A1', quantity: 2 }, { sku: 'B2', quantity: 3 }], placedAt: '2026-12-01T10:00:00.000Z' };

async function main(): Promise<void> {
  const direct = await invoke(PlaceOrder, args, { ambientContext: { shop: 'berlin' } });
  const refused = await invoke(PlaceOrder, { ...args, lines: [{ sku: 'A1', quantity: 0 }] }, { ambientContext: { shop: 'berlin' } });

  const server = createMcpServer({ name: 'orders', version: '1.0.0', tools: [PlaceOrder], ambientContext: () => ({ shop: 'paris' }) });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'typescript7', version: '1.0.0' });
  await client.connect(clientTransport);
  const overMcp = await client.callTool({ name: 'place_order', arguments: args });
  await client.close();

  const record = await new Toolbox([PlaceOrder], { ambientContext: { shop: 'rome' } }).invoke({ id: 'call_1', name: 'place_order', arguments: JSON.stringify(args) });

  console.log(
    JSON.stringify({
      ownFields: Object.keys(new OrderInput()),
      types: [String, Number, Date].map((type, i) => Reflect.getMetadata('design:type', i === 1 ? Line.prototype : OrderInput.prototype, ['customer', 'quantity', 'placedAt'][i]) === type),
      inputRequired: inputSchema(PlaceOrder).required,
      placedAt: (inputSchema(PlaceOrder).properties as Record<string, unknown>).placedAt,
      outputRequired: outputSchema(PlaceOrder)!.required,
      direct: direct.ok ? direct.value : direct.message,
      refused: refused.ok ? [] : refused.fieldErrors.map((error) => error.field),
      mcp: overMcp.structuredContent,
      toolbox: record.data,
    }),
  );
}

// A rejection ends the process with exit code 1 and the error on stderr.
void main();
