/**
 * Resources, a resource template, prompts and a completion for the conformance server, declared as
 * classes (`@Resource`, `@ResourceTemplate`, `@Prompt`, `@Complete`) and served by toolwright/mcp
 * on both revisions: no SDK handlers of its own. Subscriptions (2025-11-25 resources/subscribe,
 * 2026-07-28 subscriptions/listen) are the server's.
 */
import 'reflect-metadata';
import { Complete, Content, Description, Expects, Prompt, Resource, ResourceTemplate } from 'toolwright';
import type { CompletionRequest, ElicitSchema, ToolContext } from 'toolwright';
import { TEST_IMAGE_BASE64 } from './tools';

@Resource('test://static-text', { name: 'static-text', title: 'Static Text Resource', mimeType: 'text/plain' })
@Description('A static text resource for testing')
export class StaticText {
  call(): string {
    return 'This is the content of the static text resource.';
  }
}

@Resource('test://static-binary', { name: 'static-binary', title: 'Static Binary Resource', mimeType: 'image/png' })
@Description('A static binary resource (image) for testing')
export class StaticBinary {
  call(): Buffer {
    return Buffer.from(TEST_IMAGE_BASE64, 'base64');
  }
}

@Resource('test://watched-resource', { name: 'watched-resource', title: 'Watched Resource', mimeType: 'text/plain' })
@Description('A resource clients may subscribe to')
export class WatchedResource {
  call(): string {
    return 'Watched resource content';
  }
}

@ResourceTemplate('test://template/{id}/data', { name: 'template', title: 'Resource Template', mimeType: 'application/json' })
@Description('A resource template with parameter substitution')
export class TemplateData {
  call({ id }: { id: string }) {
    return { id, templateTest: true, data: `Data for ID: ${id}` };
  }
}

const CONTEXT: ElicitSchema = { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] };

@Prompt({ name: 'test_input_required_result_prompt' })
@Description('Asks the user for context first (MCP 2026-07-28 input-required)')
@Expects({})
export class InputRequiredPrompt {
  // On 2026-07-28 the ask is an input-required round of prompts/get, as a tool's is of tools/call.
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const answer = await context.elicit('What context should the prompt use?', CONTEXT);
    return `Use this context: ${String(answer.content?.context)}`;
  }
}

@Prompt({ name: 'test_simple_prompt', title: 'Simple Test Prompt' })
@Description('A simple prompt without arguments')
export class SimplePrompt {
  call(): string {
    return 'This is a simple prompt for testing.';
  }
}

@Prompt({ name: 'test_prompt_with_arguments', title: 'Prompt With Arguments' })
@Description('A prompt with required arguments')
@Expects({ arg1: { type: String, description: 'First test argument' }, arg2: { type: String, description: 'Second test argument' } })
export class PromptWithArguments {
  call({ arg1, arg2 }: { arg1: string; arg2: string }): string {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }
}

@Prompt({ name: 'test_prompt_with_embedded_resource', title: 'Prompt With Embedded Resource' })
@Description('A prompt that includes an embedded resource')
@Expects({ resourceUri: { type: String, description: 'URI of the resource to embed' } })
export class PromptWithEmbeddedResource {
  call({ resourceUri }: { resourceUri: string }) {
    return [
      Content.user(Content.resource({ uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' })),
      Content.user('Please process the embedded resource above.'),
    ];
  }
}

@Prompt({ name: 'test_prompt_with_image', title: 'Prompt With Image' })
@Description('A prompt that includes image content')
export class PromptWithImage {
  call() {
    return [Content.user(Content.image(TEST_IMAGE_BASE64, 'image/png')), Content.user('Please analyze the image above.')];
  }
}

@Complete(PromptWithArguments, 'arg1')
export class CompleteArg1 {
  call({ value }: CompletionRequest): string[] {
    return ['paris', 'park', 'party'].filter((word) => word.startsWith(value));
  }
}

export const conformanceResources = [StaticText, StaticBinary, WatchedResource, TemplateData];
export const conformancePrompts = [InputRequiredPrompt, SimplePrompt, PromptWithArguments, PromptWithEmbeddedResource, PromptWithImage];
export const conformanceCompletions = [CompleteArg1];
