/**
 * `toolwright/queue`: tool calls on a job queue (BullMQ on Redis; `bullmq` and `ioredis` are peer
 * dependencies of this entry point only). Importing it registers the adapter key `queue`.
 *
 * @module toolwright/queue
 */
import './peers';
import { Tools } from '../../index';

Tools.registerAdapter('queue');

export { createToolQueue, ToolQueue } from './tool-queue';
export type { EnqueueOptions, ToolJob, ToolJobInfo, ToolJobStatus, ToolQueueOptions } from './handles';
export { startToolWorker } from './worker';
export type { QueuedCall, ToolWorker, ToolWorkerOptions } from './worker';
export { QueueConfig } from './config';
export { RemoteToolException, ToolJobError } from './wire';
export { RedisUnreachableError } from './reachability';
export { INPUT_LIMITS, JobInputError } from './asks';
export type { AnswerOutcome, AskKind, QueuedAsk, ToolJobInput } from './asks';
