import { Command } from 'commander';
import { SchemaDialect } from '../../index';
import type { MemberKind } from '../../index';
import { CliError } from '../cli-error';
import { json } from '../output';
import { projectFrom, withProjectOptions } from '../project-options';
import { parseKind } from '../members';
import { findTool, parseVersion } from '../tools';

const DIALECTS: readonly SchemaDialect[] = ['2020-12', 'draft-07'];

export function schemaCommand(): Command {
  return withProjectOptions(new Command('schema'))
    .description("print a tool's input schema (or its output schema with --output) as JSON")
    .argument('<tool>', 'the tool name, as `toolwright list` shows it')
    .option('--version <n>', 'a version (default: the latest)', parseVersion)
    .option('-o, --output', 'the output schema instead of the input schema')
    .option('-d, --dialect <dialect>', `JSON Schema dialect: ${DIALECTS.join(' or ')}`, '2020-12')
    .option('-s, --strict', "OpenAI strict mode's projection")
    .option('-a, --adapter <key>', "find the tool by this adapter's name for it")
    .option('-k, --kind <kind>', 'a member of another kind: resource, resource-template, prompt or completion (default: tool)', parseKind)
    .action(
      async (
        name: string,
        options: {
          version?: number;
          output?: boolean;
          dialect: string;
          strict?: boolean;
          adapter?: string;
          kind?: MemberKind;
          config?: string;
          import?: string[];
        },
      ) => {
        if (!DIALECTS.includes(options.dialect as SchemaDialect)) {
          throw new CliError(`--dialect must be ${DIALECTS.join(' or ')}; got '${options.dialect}'.`);
        }
        await projectFrom(options);
        const tool = findTool(name, options);
        const schemaOptions = { dialect: options.dialect as SchemaDialect, strict: Boolean(options.strict) };
        const schema = options.output ? tool.outputSchema(schemaOptions) : tool.inputSchema(schemaOptions);
        if (options.output && schema === undefined)
          throw new CliError(`${tool.toolName()} exposes no output (it has no @Exposes): there is no output schema.`);
        process.stdout.write(json(schema));
      },
    );
}
