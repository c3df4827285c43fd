/**
 * A complete (small) adapter written only with toolwright's adapter kit: it projects tools into a
 * hypothetical chat platform's "slash command" objects. The guide "Writing an adapter"
 * (docs/guide/adapters.md) walks through it; test/examples/custom-adapter.test.ts drives it.
 */
import { JsonSchema, ToolDefinition, ToolLike, Tools, ToolwrightError } from 'toolwright';
import {
  createDeprecator,
  declareRejectOpaqueExposedValues,
  defaultInvoker,
  defineAdapterConfig,
  Extensions,
  guardToolResponse,
  MAPPING_FAILURE,
} from 'toolwright/kit';

// 1. Register the adapter key at load time, and any vocabulary it adds.
Tools.registerAdapter('chat');
Extensions.registerSemanticHint('ephemeral');

// 2. Settings, with per-tool overrides through @Tool({ adapters: { chat: { … } } }).
export const ChatConfig = defineAdapterConfig('chat', {
  presentAs: { default: 'structured', oneOf: ['structured', 'message'], overridable: true },
  ...declareRejectOpaqueExposedValues({ default: false }),
});

// 3. The adapter's own errors join the toolwright family without changing their superclass.
@ToolwrightError.mark
export class ChatAdapterError extends Error {}

const deprecate = createDeprecator('chat-adapter');

export interface SlashCommand {
  readonly command: string;
  readonly description?: string;
  readonly parameters: JsonSchema;
  readonly ephemeral: boolean;
  /** Runs the command for a user: the platform's arguments in, the platform's reply out. */
  run(args: unknown, user: { id: string; team: string }): Promise<ChatReply>;
}

export type ChatReply = { text: string; data?: unknown; error?: true };

export const ChatAdapter = {
  /** Every `chat` member, wrapped. */
  tools(): SlashCommand[] {
    return Tools.forAdapter('chat').map((tool) => ChatAdapter.wrap(tool));
  },

  wrap(tool: ToolLike, options: { name?: string; description?: string; legacyName?: string } = {}): SlashCommand {
    const definition: ToolDefinition = Tools.resolve(tool);
    if (options.legacyName) deprecate('CHAT_ADAPTER_001', 'wrap({ legacyName }) is deprecated; use wrap({ name })');
    const command = `/${options.name ?? options.legacyName ?? definition.toolName('chat')}`;
    return {
      command,
      description: options.description ?? definition.description,
      parameters: definition.inputSchema(),
      ephemeral: definition.hints.includes('ephemeral'),
      async run(args, user) {
        // Trusted values come from the platform's session, never from the arguments.
        const result = await defaultInvoker.invoke(definition, args, { ambientContext: { userId: user.id, teamId: user.team } });
        // Only the mapping is guarded: the invoker already reported the call's own exceptions.
        return guardToolResponse(
          definition,
          (): ChatReply => {
            if (!result.ok) return { text: result.error!, error: true }; // never result.exception
            if (ChatConfig.resolveOverrideFor(definition, 'presentAs') === 'message') return { text: result.message };
            const data = ChatConfig.serializeExposed(result);
            return { text: JSON.stringify(data), data };
          },
          () => ({ text: MAPPING_FAILURE, error: true }),
        );
      },
    };
  },
};
