/**
 * The queue tests' Redis: each file starts its own in beforeAll and stops it in afterAll, so no test
 * depends on a Redis left running. The implementation is the scale-out example's.
 */
export { startRedis } from '../../examples/scale/redis-server';
export type { TestRedis } from '../../examples/scale/redis-server';
