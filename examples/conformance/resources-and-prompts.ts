/**
 * Resources, prompts, completions and subscriptions for the conformance server, added to each SDK
 * server (`@modelcontextprotocol/server` 2.x) through toolwright's `configure(server)` hook with the
 * SDK's own method-keyed handlers.
 */
import {
  acceptedContent,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type GetPromptResult,
  type Server,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { TEST_IMAGE_BASE64 } from './tools';

/** What the hook adds, declared beside the tools and logging toolwright declares itself. */
export const conformanceCapabilities: ServerCapabilities = {
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
};

const RESOURCES = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource clients may subscribe to',
    mimeType: 'text/plain',
  },
];

const TEMPLATE = /^test:\/\/template\/([^/]+)\/data$/;

function read(uri: string) {
  switch (uri) {
    case 'test://static-text':
      return { uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' };
    case 'test://static-binary':
      return { uri, mimeType: 'image/png', blob: TEST_IMAGE_BASE64 };
    case 'test://watched-resource':
      return { uri, mimeType: 'text/plain', text: 'Watched resource content' };
  }
  const id = TEMPLATE.exec(uri)?.[1];
  if (id !== undefined)
    return { uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) };
  throw new ResourceNotFoundError(uri, `Resource not found: ${uri}`);
}

const PROMPTS = [
  { name: 'test_input_required_result_prompt', description: 'Asks the user for context first (MCP 2026-07-28 input-required)' },
  { name: 'test_simple_prompt', title: 'Simple Test Prompt', description: 'A simple prompt without arguments' },
  {
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  { name: 'test_prompt_with_image', title: 'Prompt With Image', description: 'A prompt that includes image content' },
];

function prompt(name: string, args: Record<string, string>): GetPromptResult {
  const user = <T>(content: T) => ({ role: 'user' as const, content });
  const missing = (PROMPTS.find((p) => p.name === name)?.arguments ?? []).filter((a) => a.required && args[a.name] === undefined);
  if (missing.length > 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Prompt ${name}: missing argument(s) ${missing.map((a) => a.name).join(', ')}.`,
    );
  }
  switch (name) {
    case 'test_simple_prompt':
      return { messages: [user({ type: 'text', text: 'This is a simple prompt for testing.' })] };
    case 'test_prompt_with_arguments':
      return { messages: [user({ type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` })] };
    case 'test_prompt_with_embedded_resource':
      return {
        messages: [
          user({
            type: 'resource',
            resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          }),
          user({ type: 'text', text: 'Please process the embedded resource above.' }),
        ],
      };
    case 'test_prompt_with_image':
      return {
        messages: [
          user({ type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' }),
          user({ type: 'text', text: 'Please analyze the image above.' }),
        ],
      };
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt ${JSON.stringify(name)}; prompts/list names the prompts.`);
}

/** The `configure` hook: resources, a template, subscriptions, prompts and completions. */
export function addResourcesAndPrompts(server: Server): void {
  const subscriptions = new Set<string>();
  server.setRequestHandler('resources/list', () => ({ resources: RESOURCES }));
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template',
        title: 'Resource Template',
        description: 'A resource template with parameter substitution',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler('resources/read', (request) => ({ contents: [read(request.params.uri)] }));
  // resources/subscribe and unsubscribe are 2025-11-25 methods (2026-07-28 clients subscribe with subscriptions/listen).
  server.setRequestHandler('resources/subscribe', (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler('prompts/list', () => ({ prompts: PROMPTS }));
  server.setRequestHandler('prompts/get', (request, ctx) => {
    if (request.params.name !== 'test_input_required_result_prompt') return prompt(request.params.name, request.params.arguments ?? {});
    // A prompt is no toolwright tool: this one asks with the SDK's own input-required helpers.
    const answer = acceptedContent<{ context: string }>(ctx.mcpReq.inputResponses, 'user_context');
    if (answer === undefined) {
      return inputRequired({
        inputRequests: {
          user_context: inputRequired.elicit({
            message: 'What context should the prompt use?',
            requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
          }),
        },
      }) as never;
    }
    return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${String(answer.context)}` } }] };
  });
  server.setRequestHandler('completion/complete', () => ({ completion: { values: [], total: 0, hasMore: false } }));
}
