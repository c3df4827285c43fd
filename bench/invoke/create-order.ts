/** The tool of bench/invoke, bench/invoke/memory.ts and bench/tracing: the eight-field contract in, an id and a date out. */
import 'reflect-metadata';
import { Exposes, Expects, Field, Tool } from 'toolwright';
import { decoratedClasses } from '../schema/contracts';

const { Input } = decoratedClasses(0, true);
class OrderCreated {
  @Field() id!: string;
  @Field() createdAt!: Date;
}
const createdAt = new Date('2026-01-01T00:00:00Z');

@Tool('mcp')
@Expects(Input)
@Exposes(OrderCreated)
export class CreateOrder {
  call() {
    return { id: 'o-1', createdAt };
  }
}
