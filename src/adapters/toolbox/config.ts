import { Tools } from '../../index';
import { declareRejectOpaqueExposedValues, defineAdapterConfig } from '../../adapter-kit';

/** The adapter key: `@Tool('openai')` membership, `Tools.forAdapter('openai')`, per-adapter names. */
export const OPENAI_ADAPTER = 'openai';

Tools.registerAdapter(OPENAI_ADAPTER);

/**
 * The function-calling adapter's settings, per tool with
 * `@Tool({ adapters: { openai: { rejectOpaqueExposedValues: true } } })`.
 */
export const OpenAIConfig = defineAdapterConfig(OPENAI_ADAPTER, {
  /** A model is usually better served by an ugly honest rendering than by a failed call. */
  ...declareRejectOpaqueExposedValues({ default: false }),
});
