/**
 * `npm run example:scale`: two stateless MCP servers and two workers on one Redis (a throwaway
 * redis-server from the PATH), 500 calls from 20 clients, a worker SIGKILLed mid-run, and the
 * throughput of one worker process against two.
 */
import 'reflect-metadata';
import { runScaleDemo } from './demo';

runScaleDemo({ log: (line) => console.log(line) })
  .then((report) => {
    console.log(JSON.stringify(report, null, 2));
    process.exit(0);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
