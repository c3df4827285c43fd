/**
 * The one error of a remote server's OAuth flow, and the secrets no message of it may carry.
 */
import { ToolwrightError } from '../../../index';

/**
 * A remote MCP server's OAuth flow failed: its metadata, its authorization server, the user's
 * approval, or the token it then refused. The message names the server and what to do; it never
 * holds a token, a code, a client secret or a key (each is replaced with `[redacted]`).
 */
export class McpAuthError extends ToolwrightError {
  override readonly code = 'MCP_AUTH';
  constructor(
    readonly server: string,
    message: string,
  ) {
    super(`MCP server '${server}': authorization failed: ${message}`);
  }
}

/** The secrets one flow has seen (its client secret and key, each token, code and verifier), to take out of any text it lets out. */
export class Secrets {
  private readonly known = new Set<string>();

  add(...values: Array<string | undefined>): void {
    for (const value of values) if (typeof value === 'string' && value.length >= 4) this.known.add(value);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.known) out = out.split(secret).join('[redacted]');
    return out;
  }
}
