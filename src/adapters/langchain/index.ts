/**
 * `toolwright/langchain`: toolwright tools for LangChain.js (`@langchain/core`, a peer dependency of
 * this entry point only), a thin adapter over `toolwright/toolbox`: the toolbox's functions as
 * LangChain tools, each answering a ToolMessage whose artifact is the toolbox's record.
 *
 * @module toolwright/langchain
 */
import './peers';
export { recordOf, toLangChainTools, toolMessageOf } from './to-langchain-tools';
export type { LangChainContentBlock, LangChainToolsOptions } from './to-langchain-tools';
