/** toolwright/nest: toolwright inside a NestJS application. */
export { nestEnhancers, toolCallOf, TOOL_CALL_CONTEXT } from './enhancers';
