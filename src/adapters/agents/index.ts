/**
 * `toolwright/agents`: toolwright tools for the OpenAI Agents SDK (`@openai/agents`, a peer
 * dependency of this entry point only), a thin adapter over `toolwright/toolbox`: the toolbox's
 * functions as the SDK's function tools, their approvals as its human-in-the-loop interruptions.
 *
 * @module toolwright/agents
 */
import './peers';
export { approvalQuestionOf, toAgentsTools } from './to-agents-tools';
export type { AgentsToolOutput, AgentsTools, AgentsToolsOptions } from './to-agents-tools';
