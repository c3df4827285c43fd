/**
 * `toolwright/langchain`: toolwright tools for LangChain.js (`@langchain/core`, a peer dependency of
 * this entry point only), a thin adapter over `toolwright/toolbox`.
 *
 * @module toolwright/langchain
 */
import '../toolbox/index';
