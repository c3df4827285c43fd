/**
 * Type-checked in the consumer, never run (it needs a model provider): toAiSdkTools gives what the
 * installed `ai`'s generateText takes. Left out under node16 CommonJS with ai 7, which is ES modules
 * only: TypeScript refuses a CommonJS file importing it there (module node20 or nodenext allow it).
 */
import { generateText, ToolSet } from 'ai';
import { Tool } from 'toolwright';
import { toAiSdkTools } from 'toolwright/ai';

@Tool({ description: 'Say hello' })
class Hello {
  call() {
    return 'hello';
  }
}

export const tools: ToolSet = toAiSdkTools([Hello]);

export function ask(prompt: string) {
  return generateText({ model: 'openai/gpt-4.1', tools, prompt });
}
