/**
 * `toolwright/anthropic`: function calling with Anthropic's Messages API, a thin adapter over
 * `toolwright/toolbox`. Its types are structural: it does not load `@anthropic-ai/sdk`.
 *
 * @module toolwright/anthropic
 */
import '../toolbox/index';
