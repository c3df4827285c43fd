/**
 * The warehouse's own MCP server, a separate program the gateway starts as a child process over
 * stdio (run it: `node -r ts-node/register/transpile-only -r tsconfig-paths/register
 * examples/compose/inventory-server.ts`). The gateway mounts it under `inventory`.
 */
import 'reflect-metadata';
import { Expects, Field, SemanticHints, Tool } from 'toolwright';
import { serveStdio } from 'toolwright/mcp';

const stock = new Map<string, number>([
  ['widget', 12],
  ['gadget', 0],
]);

class ItemInput {
  @Field() item!: string;
}

@Tool('mcp', { name: 'stock', description: 'How many of an item are in stock' })
@SemanticHints('readOnly')
@Expects(ItemInput)
class Stock {
  call(input: ItemInput) {
    return { item: input.item, count: stock.get(input.item) ?? 0 };
  }
}

class RestockInput {
  @Field() item!: string;
  @Field() count!: number;
}

@Tool('mcp', { name: 'restock', description: 'Orders more of an item (costs money)' })
@SemanticHints('destructive')
@Expects(RestockInput)
class Restock {
  call(input: RestockInput) {
    stock.set(input.item, (stock.get(input.item) ?? 0) + input.count);
    return `ordered ${input.count} ${input.item}`;
  }
}

if (require.main === module) {
  void serveStdio({ name: 'inventory', version: '1.0.0', tools: [Stock, Restock] });
}
