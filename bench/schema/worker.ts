/**
 * One cold measurement in a fresh process: generate N tool contracts, then time deriving every
 * input and output schema. Prints {"ms": …}. A fresh process per sample keeps every contender cold
 * and keeps class-validator's global storage from growing across samples.
 */
import { inputSchema, outputSchema } from 'toolwright';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { z } from 'zod';
import { decoratedClasses, toolwrightTool, zodSchemas } from './contracts';

const [contender, countArg, mode = 'cold'] = process.argv.slice(2);
const count = Number(countArg);
/** Warm mode first derives a batch of 1000 other tools, so the measured batch runs on warmed-up code. */
const WARMUP = mode === 'warm' ? 1000 : 0;
/**
 * Declare mode also times declaring the contracts (decorating the classes; building the zod
 * schemas), cold: zod does at construction much of what toolwright does at first derivation.
 */
const DECLARE = mode === 'declare';

/** Declares the contracts, inside the timing in declare mode and before it otherwise. */
function declared<T>(make: () => T, derive: (made: T) => unknown): number {
  if (DECLARE) return time(() => derive(make()));
  const made = make();
  return time(() => derive(made));
}

function time(run: () => unknown): number {
  // Start every contender with an empty young generation, so none pays for the harness's garbage.
  const { gc } = globalThis as { gc?: () => void };
  if (!gc) throw new Error('bench/schema/worker.ts needs node --expose-gc (bench/schema/run.ts passes it).');
  gc();
  const start = process.hrtime.bigint();
  const result = run();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!result) throw new Error('no result');
  return ms;
}

let ms: number;
switch (contender) {
  case 'toolwright': {
    Array.from({ length: WARMUP }, (_, i) => toolwrightTool(count + i)).forEach((tool) => [inputSchema(tool), outputSchema(tool)]);
    ms = declared(
      () => Array.from({ length: count }, (_, i) => toolwrightTool(i)),
      (tools) => tools.map((tool) => [inputSchema(tool), outputSchema(tool)]),
    );
    break;
  }
  case 'cvjs-all': {
    Array.from({ length: count }, (_, i) => decoratedClasses(i, false));
    ms = time(() => validationMetadatasToSchemas());
    break;
  }
  case 'cvjs-per-class': {
    Array.from({ length: WARMUP }, (_, i) => decoratedClasses(count + i, false)).forEach(({ Input, Output, Address }) => [
      targetConstructorToSchema(Input),
      targetConstructorToSchema(Output),
      targetConstructorToSchema(Address),
    ]);
    ms = declared(
      () => Array.from({ length: count }, (_, i) => decoratedClasses(i, false)),
      (classes) =>
        classes.map(({ Input, Output, Address }) => [
          targetConstructorToSchema(Input),
          targetConstructorToSchema(Output),
          targetConstructorToSchema(Address),
        ]),
    );
    break;
  }
  case 'zod': {
    Array.from({ length: WARMUP }, () => zodSchemas()).forEach(({ input, output }) => [
      z.toJSONSchema(input, { io: 'input' }),
      z.toJSONSchema(output),
    ]);
    ms = declared(
      () => Array.from({ length: count }, () => zodSchemas()),
      (schemas) => schemas.map(({ input, output }) => [z.toJSONSchema(input, { io: 'input' }), z.toJSONSchema(output)]),
    );
    break;
  }
  default:
    throw new Error(`unknown contender ${contender}`);
}
process.stdout.write(JSON.stringify({ ms }));
