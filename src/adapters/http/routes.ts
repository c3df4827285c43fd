import { ToolDefinition, Tools } from '../../index';
import { describeValue } from '../../adapter-kit';
import { FailureStatus, HTTP_ADAPTER, HttpConfig } from './config';
import type { HttpApiOptions } from './options';
import { DeclarationError } from '../../index';

/** One tool version as the HTTP API serves it. */
export interface HttpRoute {
  readonly definition: ToolDefinition;
  /** The path below the prefix: `/check_credit/v1`. */
  readonly path: string;
  /** The tool's name segment: its `segment` setting, else its `http` tool name. */
  readonly segment: string;
  /** `readOnly` tools also answer GET with their input in the query string. */
  readonly get: boolean;
  readonly failureStatus: FailureStatus;
  readonly deprecated: boolean;
  readonly tags: readonly string[];
}

/** The route table: every tool version, each at its own path; two tools at one path are refused. */
export function httpRoutes(options: Pick<HttpApiOptions, 'tools'>): HttpRoute[] {
  if (options.tools !== undefined && !Array.isArray(options.tools)) {
    throw new DeclarationError(`toolwright/http: tools must be a list of tools; got ${describeValue(options.tools)}.`);
  }
  const tools = options.tools ? options.tools.map((tool) => Tools.resolve(tool)) : Tools.forAdapter(HTTP_ADAPTER, { allVersions: true });
  const byPath = new Map<string, HttpRoute>();
  for (const definition of tools) {
    const name = definition.toolName(HTTP_ADAPTER);
    const segment = HttpConfig.resolveOverrideFor(definition, 'segment') ?? name;
    const path = `/${segment}/v${definition.version}`;
    const existing = byPath.get(path);
    if (existing) {
      const [a, b] = [existing.definition.id, definition.id].sort();
      throw new DeclarationError(
        `toolwright/http: tools ${a} and ${b} are both served at ${path}. Give one another name or segment ` +
          `(@Tool({ adapters: { http: { segment: '…' } } })) or a distinct @ToolVersion.`,
      );
    }
    byPath.set(path, {
      definition,
      path,
      segment,
      get: definition.hints.includes('readOnly'),
      failureStatus: HttpConfig.resolveOverrideFor(definition, 'failureStatus'),
      deprecated: HttpConfig.resolveOverrideFor(definition, 'deprecated'),
      tags: HttpConfig.resolveOverrideFor(definition, 'tags') ?? [segment],
    });
  }
  return [...byPath.values()];
}
