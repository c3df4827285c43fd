/**
 * One toolwright MCP server replica for MCP 2026-07-28 clients behind a load balancer: no sessions,
 * no shared store. A tool that needs a person's approval, and one that asks the user a question,
 * work through input-required rounds; the call's answers travel in the requestState the client
 * echoes, sealed with the key every replica shares (MCP_STATE_KEY), so any replica can serve any
 * round. Each replica reports every round it serves (to its parent over IPC, else on stdout).
 * PORT (0: a free one), REPLICA (a name), MCP_STATE_KEY (at least 32 bytes).
 */
import 'reflect-metadata';
import { Expects, Field, Middleware, Tool, ToolContext } from 'toolwright';
import { serveHttp } from 'toolwright/mcp';

const replica = process.env.REPLICA ?? String(process.pid);

export class DeployInput {
  @Field({ description: 'The service to deploy' }) service!: string;
  @Field({ description: "The caller's reference for this call" }) ticket!: string;
}

@Tool({ name: 'deploy', description: 'Deploys a service once a person approves', approval: 'required' })
@Expects(DeployInput)
export class Deploy {
  call(input: DeployInput): string {
    return `deployed ${input.service} on replica ${replica}`;
  }
}

export class RenameInput {
  @Field({ description: "The caller's reference for this call" }) ticket!: string;
}

@Tool({ name: 'rename', description: 'Asks the user for a new name' })
@Expects(RenameInput)
export class Rename {
  async call(_input: RenameInput, context: ToolContext): Promise<string> {
    const answer = await context.elicit('New name?', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    return `renamed to ${String(answer.content?.name)} on replica ${replica}`;
  }
}

/** Every round this replica serves: which tool, for which ticket. */
const served: Middleware = (call, next) => {
  const report = { replica, tool: call.tool.toolName(), ticket: call.input.ticket };
  if (process.send) process.send({ served: report });
  else console.log(JSON.stringify(report));
  return next();
};

async function main(): Promise<void> {
  const key = process.env.MCP_STATE_KEY;
  const handle = await serveHttp(
    {
      name: 'scale-rounds',
      version: '1.0.0',
      tools: [Deploy, Rename],
      invoker: { middleware: [served] },
      // The same keys on every replica: a round sealed by one opens on any other.
      ...(key ? { requestState: { keys: [key] } } : {}),
    },
    { port: Number(process.env.PORT ?? 0) },
  );
  process.send?.({ url: handle.url, port: Number(new URL(handle.url).port) });
  if (!process.send) console.log(`replica ${replica} on ${handle.url}`);
  const stop = async () => {
    await handle.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

void main();
