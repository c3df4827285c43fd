/**
 * `toolwright/gemini`: function calling with Google's Gemini API, a thin adapter over
 * `toolwright/toolbox`. Its types are structural: it does not load `@google/genai`.
 *
 * @module toolwright/gemini
 */
import '../toolbox/index';
