/**
 * The Gemini way in: the real `@google/genai` client against a scripted Gemini server on 127.0.0.1.
 * The model calls the tool once; the application runs the calls through a Toolbox, asks a person
 * the record's question for a call that needs approval, and sends the function responses back. The
 * outcome is what the model server received: the `functionResponse` of the call.
 */
import { GoogleGenAI, type Content as GeminiContent } from '@google/genai';
import { Invoker } from 'toolwright';
import { fromGeminiCalls, toFunctionResponses, toGeminiTools } from 'toolwright/gemini';
import { Toolbox } from 'toolwright/toolbox';
import { ledger, TOOLS } from '../../fixtures/promises/members';
import { functionCallsReply, geminiBaseUrl, startScriptedServer, textReply } from '../../adapters/gemini/scripted-gemini';
import type { Harness, Outcome, Runs } from '../harness';
import { Observer } from '../observer';

export async function geminiWay(): Promise<Harness> {
  const observer = new Observer().start();
  const invoker = new Invoker(observer.invoker());
  // The model's next turns, one per request: a call, then a text answer.
  const replies: object[] = [];
  const server = await startScriptedServer(Array.from({ length: 2_000 }, () => () => replies.shift() ?? textReply('nothing scripted')));
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: geminiBaseUrl(server.baseURL) } });
  let n = 0;
  return {
    runs: async (): Promise<Runs> => ({ ...ledger, users: [...ledger.users] }),
    observed: async () => observer.text(),
    close: async () => {
      observer.stop();
      await server.close();
    },
    async call(name, args, { answer, caller }): Promise<Outcome> {
      const toolbox = new Toolbox(TOOLS, { invoker, ambientContext: { user: caller } });
      const tools = toGeminiTools(toolbox);
      const contents: GeminiContent[] = [{ role: 'user', parts: [{ text: 'go' }] }];
      replies.push(functionCallsReply([{ id: `gm-${++n}`, name, args }]), textReply('done'));
      const first = await ai.models.generateContent({ model: 'gemini-test', contents, config: { tools } });
      const questions: string[] = [];
      const records = await Promise.all(
        (await toolbox.invokeAll(fromGeminiCalls(first))).map((record) => {
          if (record.status !== 'approval_required') return record;
          questions.push(record.question ?? 'the record has no question');
          return answer === 'approve' ? toolbox.approve(record) : toolbox.deny(record, 'the person said no');
        }),
      );
      contents.push(first.candidates![0].content!, { role: 'user', parts: toFunctionResponses(records) });
      await ai.models.generateContent({ model: 'gemini-test', contents, config: { tools } });
      const sent = server.requests.at(-1)!.body.contents.at(-1).parts[0].functionResponse.response as { output?: unknown; error?: string };
      const text = 'error' in sent ? String(sent.error) : typeof sent.output === 'string' ? sent.output : JSON.stringify(sent.output);
      return { ok: !('error' in sent), text, questions };
    },
  };
}
