/**
 * A function-calling loop over the loan-desk tools: the real `openai` client, a Toolbox for this
 * conversation, and a scripted model on 127.0.0.1 (no network, no API key). Prints the conversation.
 *
 *   node -r ts-node/register/transpile-only -r tsconfig-paths/register examples/function-calling/main.ts
 */
import 'reflect-metadata';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { Tools } from 'toolwright';
import { Toolbox, toMessages } from 'toolwright/openai';
import '../loan-desk/tools';
import { startScriptedModel } from './scripted-model';

const MAX_TURNS = 10;

function shorten(text: string, max = 150): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

async function main(): Promise<void> {
  const model = await startScriptedModel();
  try {
    const openai = new OpenAI({ apiKey: 'not-needed', baseURL: model.baseURL, maxRetries: 0 });

    // This conversation's tools: the openai members of the loan desk. The signed-in officer is an
    // ambient value the application supplies; the model never sees it and cannot set it.
    const toolbox = new Toolbox(Tools.forAdapter('openai'), { ambientContext: { officerId: 'officer-7' } });
    console.log(`tools: ${toolbox.names().join(', ')}`);

    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You assist a loan officer. Use the tools; never invent loan data.' },
      {
        role: 'user',
        content:
          'Review the pending applications: approve those with acceptable credit (express tier), cancel the rest, and tell the applicants.',
      },
    ];
    console.log(`\nuser: ${messages[1].content}`);

    for (let turn = 1; turn <= MAX_TURNS; turn++) {
      const completion = await openai.chat.completions.create({ model: 'scripted-loan-assistant', messages, tools: toolbox.schemas() });
      const message = completion.choices[0].message;
      messages.push(message);
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) {
        console.log(`\nassistant: ${message.content}`);
        return;
      }

      console.log('');
      for (const call of calls)
        if (call.type === 'function') console.log(`assistant → ${call.function.name}(${call.function.arguments})  [${call.id}]`);
      const records = await toolbox.invokeAll(calls);
      for (const record of records) {
        console.log(`tool ${record.status === 'completed' ? '✓' : '✗'} ${record.name} [${record.id}]: ${shorten(record.output)}`);
      }
      messages.push(...toMessages(records));
    }
    throw new Error(`The model did not finish within ${MAX_TURNS} turns.`);
  } finally {
    await model.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
