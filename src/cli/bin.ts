#!/usr/bin/env node
/** The `toolwright` bin. */
import { run } from './program';

run(process.argv.slice(2)).then(
  (code) => {
    // Servers keep the process alive on their own; everything else ends with its code.
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`toolwright: ${String(error)}\n`);
    process.exitCode = 2;
  },
);
