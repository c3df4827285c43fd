/**
 * `toolwright/agents`: toolwright tools for the OpenAI Agents SDK (`@openai/agents`, a peer
 * dependency of this entry point only), a thin adapter over `toolwright/toolbox`.
 *
 * @module toolwright/agents
 */
import '../toolbox/index';
