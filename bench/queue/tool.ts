/** The benchmark's trivial tool, and the same work as a bare BullMQ processor. */
import 'reflect-metadata';
import { Expects, Exposes, Integer, SemanticHints, Tool } from 'toolwright';

@Tool()
@SemanticHints('readOnly')
@Expects({ a: Integer, b: Integer })
@Exposes({ sum: Integer })
export class AddNumbers {
  call({ a, b }: { a: number; b: number }) {
    return { sum: a + b };
  }
}

export const sum = (data: { a: number; b: number }) => ({ sum: data.a + data.b });

export const CONCURRENCY = 10;
