import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { CliError, oneLine } from '../cli-error';
import { buildManifest, manifestText } from '../manifest';
import { projectFrom, withProjectOptions } from '../project-options';

export function manifestCommand(): Command {
  return withProjectOptions(new Command('manifest'))
    .description(
      'write the declaration record of every tool version (name, version, description, hints, tags, adapters, input and output schema), and of every resource, resource template, prompt and completion, as JSON',
    )
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .action(async (options: { out?: string; config?: string; import?: string[] }) => {
      await projectFrom(options);
      const text = manifestText(buildManifest());
      if (!options.out) return void process.stdout.write(text);
      try {
        fs.mkdirSync(path.dirname(path.resolve(options.out)), { recursive: true });
        fs.writeFileSync(options.out, text);
      } catch (error) {
        throw new CliError(`cannot write ${options.out}: ${oneLine(error)}. Choose a writable path for --out.`);
      }
      process.stderr.write(`toolwright: wrote ${options.out}\n`);
    });
}
