import * as fs from 'node:fs';
import { Command } from 'commander';
import { invoke } from '../../index';
import { promptMessagesOf } from '../../adapter-kit/internal';
import type { MemberKind } from '../../index';
import { missingAmbient, parseAmbient } from '../ambient';
import { CliError, EXIT, oneLine } from '../cli-error';
import { json, painter } from '../output';
import { projectFrom, withProjectOptions } from '../project-options';
import { parseKind } from '../members';
import { findTool, parseVersion } from '../tools';

interface CallCommandOptions {
  version?: number;
  args?: string;
  argsFile?: string;
  ambient?: string;
  adapter?: string;
  kind?: MemberKind;
  json?: boolean;
  config?: string;
  import?: string[];
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${what} is not valid JSON (${oneLine(error)}): pass an object such as '{"loanId": "…"}'.`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The arguments: --args, else --args-file, else stdin when it is not a terminal, else none. */
async function argumentsOf(options: CallCommandOptions): Promise<unknown> {
  if (options.args !== undefined && options.argsFile !== undefined)
    throw new CliError('pass the arguments once: --args or --args-file, not both.');
  if (options.args !== undefined) return parseJson(options.args, '--args');
  if (options.argsFile !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(options.argsFile, 'utf8');
    } catch (error) {
      throw new CliError(`--args-file ${options.argsFile}: ${oneLine(error)}. Pass a file holding the JSON arguments.`);
    }
    return parseJson(text, `--args-file ${options.argsFile}`);
  }
  if (!process.stdin.isTTY) {
    const text = (await readStdin()).trim();
    return text === '' ? {} : parseJson(text, 'the arguments on stdin');
  }
  return {};
}

/** What a member's value prints as: a prompt's as the one message list clients receive, others as they are. */
function shown(value: unknown, kind: MemberKind | undefined): unknown {
  if (kind !== 'prompt') return value;
  const messages = promptMessagesOf(value);
  return typeof messages === 'string' ? value : messages;
}

export function callCommand(): Command {
  return withProjectOptions(new Command('call'))
    .description('call a tool through the invoker and print its Result (exit 0 success, 1 failure, 2 exception or usage error)')
    .argument('<tool>', 'the tool name, as `toolwright list` shows it')
    .option('--version <n>', 'a version (default: the latest)', parseVersion)
    .option('--args <json>', 'the arguments as a JSON object (else --args-file, else stdin)')
    .option('--args-file <file>', 'a file holding the JSON arguments')
    .option('--ambient <json>', 'trusted values for @AmbientContext fields, as a JSON object')
    .option('-a, --adapter <key>', "find the tool by this adapter's name for it")
    .option('-k, --kind <kind>', 'a member of another kind: resource, resource-template, prompt or completion (default: tool)', parseKind)
    .option('--json', 'print the whole Result as JSON')
    .action(async (name: string, options: CallCommandOptions) => {
      const args = await argumentsOf(options);
      const ambient = parseAmbient(options.ambient);
      await projectFrom(options);
      const tool = findTool(name, options);
      const missing = missingAmbient(tool, ambient, `pass it with --ambient '{"KEY": …}'`);
      if (missing) throw new CliError(missing);
      const result = await invoke(tool, args, { ambientContext: ambient, onException: () => undefined });
      const code = result.outcome === 'success' ? EXIT.ok : result.outcome === 'failure' ? EXIT.failed : EXIT.error;
      if (options.json) {
        const record: Record<string, unknown> = { ...result.toJSON() };
        if (result.outcome === 'exception') record.exception = oneLine(result.exception);
        process.stdout.write(json(record));
      } else if (result.ok) {
        process.stdout.write(result.value === undefined ? `${result.message}\n` : json(shown(result.value, options.kind)));
      } else {
        const paint = painter(process.stderr);
        const fields = (result.fieldErrors.length > 1 ? result.fieldErrors : []).map((error) => `  ${error.field}: ${error.message}`);
        const detail = result.outcome === 'exception' ? ` (${oneLine(result.exception)})` : '';
        process.stderr.write([paint('red', `${tool.toolName()}: ${result.message}${detail}`), ...fields].join('\n') + '\n');
      }
      process.exitCode = code;
    });
}
