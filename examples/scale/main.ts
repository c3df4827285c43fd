/**
 * `npm run example:scale`: two stateless MCP servers and two workers on one Redis (a throwaway
 * redis-server from the PATH), 500 calls from 20 clients, a worker SIGKILLed mid-run, and the
 * throughput of one worker process against two; then MCP 2026-07-28 tasks through nginx over two
 * replicas, one of them SIGKILLed (tasks-through-nginx.ts).
 */
import 'reflect-metadata';
import { runScaleDemo } from './demo';
import { runNginxTaskDemo } from './tasks-through-nginx';

const log = (line: string) => console.log(line);
runScaleDemo({ log })
  .then(async (report) => ({ ...report, tasksThroughNginx: await runNginxTaskDemo(log) }))
  .then((report) => {
    console.log(JSON.stringify(report, null, 2));
    process.exit(0);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
