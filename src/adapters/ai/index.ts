/**
 * `toolwright/ai`: toolwright tools for the Vercel AI SDK (`ai`, a peer dependency of this entry
 * point only). Tools run through a `Toolbox` (`toolwright/toolbox`, or `toolwright/openai`'s), whose names and settings
 * (the `openai` adapter's) they share.
 *
 * @module toolwright/ai
 */
import './peers';
export { approvalQuestionOf, toAiSdkTools, ToolCallFailedError } from './to-ai-sdk-tools';
export type { AiSdkContentOutput, AiSdkTools, AiSdkToolsOptions } from './to-ai-sdk-tools';
