import { declareRejectOpaqueExposedValues, defineAdapterConfig } from '../../adapter-kit';

/**
 * The queue adapter's settings. A job's return value is stored in Redis as JSON, so the tool's
 * exposed value is rendered on the worker exactly as other adapters render it.
 */
export const QueueConfig = defineAdapterConfig('queue', {
  /** A value that cannot be rendered as JSON fails the call instead of travelling as a string. */
  ...declareRejectOpaqueExposedValues({ default: false }),
});
