import { Command, CommanderError } from 'commander';
import { isToolwrightError, VERSION } from '../index';
import { CliError, EXIT, oneLine } from './cli-error';
import { callCommand } from './commands/call';
import { checkCommand, diffCommand } from './commands/check';
import { devCommand } from './commands/dev';
import { listCommand } from './commands/list';
import { manifestCommand } from './commands/manifest';
import { schemaCommand } from './commands/schema';
import { serveCommand } from './commands/serve';
import { painter } from './output';

/** The `toolwright` command line. Usage errors exit 2 with commander's one-line message. */
export function createProgram(): Command {
  const program = new Command('toolwright')
    .description('list, inspect, call and serve toolwright tools, and guard their contracts in CI')
    .version(VERSION, '-V, --version', 'print the version of toolwright')
    .enablePositionalOptions()
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'toolwright: ')) });
  for (const command of [
    listCommand(),
    schemaCommand(),
    callCommand(),
    serveCommand(),
    devCommand(),
    manifestCommand(),
    checkCommand(),
    diffCommand(),
  ]) {
    program.addCommand(command);
  }
  // Inherit the exit override and the error format on every command, nested ones included.
  const inherit = (command: Command) => {
    for (const sub of command.commands) {
      sub.exitOverride().configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'toolwright: ')) });
      sub.showSuggestionAfterError();
      inherit(sub);
    }
  };
  inherit(program);
  return program;
}

/** Runs the command line; resolves to the exit code. */
export async function run(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code)) return EXIT.ok;
      // commander printed the message; a bare `toolwright` (or `toolwright serve`) prints help and lands here too.
      return EXIT.error;
    }
    const paint = painter(process.stderr);
    const message = error instanceof CliError || isToolwrightError(error) ? oneLine(error) : `${oneLine(error)}`;
    process.stderr.write(`${paint('red', 'toolwright:')} ${message}\n`);
    if (process.env.TOOLWRIGHT_DEBUG && error instanceof Error) {
      process.stderr.write(`${error.stack}\n`);
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof Error) process.stderr.write(`caused by: ${cause.stack}\n`);
    }
    return error instanceof CliError ? error.exitCode : EXIT.error;
  }
}
