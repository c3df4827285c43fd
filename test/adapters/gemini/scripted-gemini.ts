/**
 * Gemini's `generateContent` replies for the scripted server on 127.0.0.1 (test/adapters/openai/
 * scripted-server.ts answers any path from a script): a model turn with function calls, or with text.
 */
export { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../openai/scripted-server';

/** The base URL `GoogleGenAI`'s `httpOptions.baseUrl` takes, for a scripted server's `baseURL` (`…/v1`). */
export const geminiBaseUrl = (baseURL: string): string => baseURL.replace(/\/v1$/, '');

function reply(parts: object[]) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: 'scripted-model',
  };
}

/** A model turn calling these functions (`id` left out where a test wants the Gemini API's id-less calls). */
export const functionCallsReply = (calls: Array<{ id?: string; name: string; args?: object }>) => reply(calls.map((functionCall) => ({ functionCall })));

/** A model turn with a text answer. */
export const textReply = (text: string) => reply([{ text }]);

/**
 * `@google/genai` on Node sends through Undici's global dispatcher, which it looks up on `globalThis`
 * (`Symbol.for('undici.globalDispatcher.1')`). Node's fetch puts it on the process's global, and
 * Jest runs each test file in its own context whose `globalThis` is another object: the SDK would
 * throw "Undici globalDispatcher is not available." (plain Node 20 and later run it as is). This
 * shares the process's dispatcher with the test's context, as a plain Node program has it.
 */
export function shareUndiciDispatcher(): void {
  const key = Symbol.for('undici.globalDispatcher.1');
  const processGlobal = require('node:vm').runInThisContext('globalThis') as typeof globalThis & Record<symbol, unknown>;
  new processGlobal.Headers(); // Node creates its dispatcher on first use of fetch's classes
  (globalThis as unknown as Record<symbol, unknown>)[key] ??= processGlobal[key];
}
shareUndiciDispatcher();
