/**
 * What stays in Redis once a job has ended: its tool and version (so `queue.job(id)` still finds it)
 * and its input with every `@Field({ sensitive: true })` value replaced by `[redacted]`; the ambient
 * values are removed. While a job waits or runs, its input and ambient values are plain JSON in
 * Redis (docs/guide/queue.md, "Ambient values travel through Redis").
 */
import type { Job } from 'bullmq';
import type { ToolDefinition } from '../../index';
import { hasSensitive, redact } from '../../adapter-kit/internal';
import type { ToolJobData, WireResult } from './wire';

/** The job data of an ended job: marked, so a worker that finds it again never runs it on what is left. */
export interface ScrubbedJobData extends ToolJobData {
  readonly scrubbed: true;
}

export function isScrubbed(data: unknown): boolean {
  return (data as Partial<ScrubbedJobData> | undefined)?.scrubbed === true;
}

/**
 * A job of a tool without a sensitive input field, with no ambient values and no approval: what
 * may stay is what is there, so its data is left as it is and the outcome is Redis's one write.
 */
function holdsNothingToScrub(tool: ToolDefinition, data: Partial<ToolJobData>): boolean {
  return data.approved !== true && !hasSensitive(tool.inputContract) && (!data.ambient || Object.keys(data.ambient).length === 0);
}

/**
 * Replaces the job's data in Redis with what may stay (before the worker reports the outcome, so
 * whoever reads the outcome finds the data already scrubbed). Best effort: a Redis that cannot
 * take the write cannot take the outcome either, and BullMQ retries that as a stalled job.
 */
export async function scrubJobData(job: Job<ToolJobData, WireResult>, tool: ToolDefinition | undefined): Promise<void> {
  const data = job.data as Partial<ToolJobData> | undefined;
  if (!data || isScrubbed(data) || (tool && holdsNothingToScrub(tool, data))) return;
  const input = tool && data.input ? (redact(tool.inputContract, data.input) as Record<string, unknown>) : {};
  const scrubbed: ScrubbedJobData = {
    tool: String(data.tool),
    version: Number(data.version),
    input,
    ambient: {},
    ...(data.rejected ? { rejected: data.rejected } : {}),
    scrubbed: true,
  };
  try {
    await job.updateData(scrubbed);
  } catch (error) {
    console.error(
      `toolwright/queue: could not remove the input of ended job ${job.id} from Redis: ${(error as Error)?.message ?? String(error)}`,
    );
  }
}
