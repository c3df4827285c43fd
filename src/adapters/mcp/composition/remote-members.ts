/**
 * A remote server's resources, resource templates, prompts and completions as served entries:
 * listings copied (never shared with the SDK's objects) and checked (untrusted), each member a
 * definition the invoker runs (remoteMemberDefinition: errors naming the member and its server,
 * the mount's time limit), whose answer is the remote's own (RemoteAnswer). Resources keep their
 * URIs; prompts are served as `<namespace>_<name>`.
 */
import { remoteMemberDefinition } from '../../mcp-client/index';
import type { McpServerConnection } from '../../mcp-client/index';
import { UriTemplate } from '../../../adapter-kit';
import type { MemberKind } from '../../../index';
import type { McpCompletionEntry, McpPromptEntry, McpResourceEntry } from '../members/member-entries';
import { MCP_TOOL_NAME, MOUNT_SEPARATOR } from './mounts';
import { RemoteAnswer } from '../members/remote-answer';

type Listed<K extends 'listResources' | 'listResourceTemplates' | 'listPrompts'> = Awaited<ReturnType<McpServerConnection[K]>>[number];

/** What a remote server serves beside its tools, as entries; `failures` says what could not be served. */
export interface RemoteMembers {
  resources: McpResourceEntry[];
  prompts: McpPromptEntry[];
  completions: McpCompletionEntry[];
  failures: string[];
}

const READ_ONLY = ['readOnly'];
const MAX_URI_LENGTH = 2048;

function copyOf<T>(value: T): T {
  return structuredClone(value);
}

/** Lists what the remote serves beside tools and makes its entries (none of a kind it does not offer). */
export async function remoteMembers(connection: McpServerConnection, namespace: string, timeoutMs: number): Promise<RemoteMembers> {
  const { alias } = connection;
  const [resources, templates, prompts] = await Promise.all([
    connection.listResources(),
    connection.listResourceTemplates(),
    connection.listPrompts(),
  ]);
  const completes = connection.serverCapabilities?.completions !== undefined;
  const out: RemoteMembers = { resources: [], prompts: [], completions: [], failures: [] };
  const member = (
    kind: MemberKind,
    what: string,
    id: string,
    name: string,
    send: Parameters<typeof remoteMemberDefinition>[1]['send'],
    description?: string,
  ) => remoteMemberDefinition(connection, { name, id: `mcp:${alias}/${id}`, member: kind, description, hints: READ_ONLY, what, timeoutMs, send });
  const completionsOf = (
    of: McpPromptEntry['definition'],
    names: readonly string[],
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
  ) => {
    if (!completes) return;
    for (const argument of names) {
      const definition = member(
        'completion',
        `The completion of '${argument}'`,
        `complete/${argument}`,
        `${of.toolName()}#${argument}`,
        async (input, signal) => {
          const { value, context } = input as { value: string; context?: Record<string, string> };
          const answer = await connection.complete(
            { ref, argument: { name: argument, value }, ...(context ? { context: { arguments: context } } : {}) },
            { signal },
          );
          return copyOf(answer.completion);
        },
      );
      out.completions.push({ definition, argument, of });
    }
  };

  for (const listed of resources as Listed<'listResources'>[]) {
    const problem = uriProblem(listed.uri) ?? nameProblem(listed.name);
    if (problem) {
      out.failures.push(`resource '${String(listed.uri)}': ${problem}`);
      continue;
    }
    const definition = member(
      'resource',
      `The resource '${listed.uri}'`,
      listed.uri,
      listed.uri,
      async (_input, signal) => new RemoteAnswer(copyOf(await connection.readResource(listed.uri, { signal }))),
      listed.description,
    );
    out.resources.push({
      definition,
      uri: listed.uri,
      ...(listed.mimeType ? { mimeType: listed.mimeType } : {}),
      resource: copyOf(listed),
    });
  }
  for (const listed of templates as Listed<'listResourceTemplates'>[]) {
    const matcher = typeof listed.uriTemplate === 'string' ? UriTemplate.forMatching(listed.uriTemplate) : 'it is not a string';
    const problem = uriProblem(listed.uriTemplate) ?? (typeof matcher === 'string' ? matcher : nameProblem(listed.name));
    if (problem || typeof matcher === 'string') {
      out.failures.push(`resource template '${String(listed.uriTemplate)}': ${problem}`);
      continue;
    }
    const definition = member(
      'resource-template',
      `The resource template '${listed.uriTemplate}'`,
      listed.uriTemplate,
      listed.uriTemplate,
      async (input, signal) => {
        const uri = matcher.expand(input as Record<string, string | string[]>);
        return new RemoteAnswer(copyOf(await connection.readResource(uri, { signal })));
      },
      listed.description,
    );
    out.resources.push({
      definition,
      uri: listed.uriTemplate,
      ...(listed.mimeType ? { mimeType: listed.mimeType } : {}),
      template: { listed: copyOf(listed), matcher },
    });
    completionsOf(
      definition,
      matcher.variables.map((variable) => variable.name),
      { type: 'ref/resource', uri: listed.uriTemplate },
    );
  }
  for (const listed of prompts as Listed<'listPrompts'>[]) {
    const name = `${namespace}${MOUNT_SEPARATOR}${listed.name}`;
    const args = Array.isArray(listed.arguments) ? listed.arguments : [];
    const problem = !MCP_TOOL_NAME.test(name)
      ? `it would be served as '${name}', which is not a name MCP clients accept (1 to 128 letters, digits, '_', '-' and '.')`
      : args.some((arg) => typeof arg?.name !== 'string' || arg.name === '')
        ? 'an argument has no name'
        : undefined;
    if (problem) {
      out.failures.push(`prompt '${String(listed.name)}': ${problem}`);
      continue;
    }
    const definition = member(
      'prompt',
      `The prompt '${listed.name}'`,
      `prompt/${listed.name}`,
      name,
      async (input, signal) => {
        const strings = Object.fromEntries(
          Object.entries(input).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
        );
        return new RemoteAnswer(copyOf(await connection.getPrompt(listed.name, strings, { signal })));
      },
      listed.description,
    );
    out.prompts.push({ definition, prompt: { ...copyOf(listed), name } });
    completionsOf(
      definition,
      args.map((arg) => arg.name),
      { type: 'ref/prompt', name: listed.name },
    );
  }
  return out;
}

function uriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri === '') return 'its URI is not a string';
  if (uri.length > MAX_URI_LENGTH) return `its URI is ${uri.length} characters long (at most ${MAX_URI_LENGTH})`;
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri) ? undefined : 'its URI has no scheme';
}

function nameProblem(name: unknown): string | undefined {
  return typeof name === 'string' && name !== '' ? undefined : 'it has no name';
}
