import { Command } from 'commander';
import { loadProject, Project, ProjectOptions } from './load-project';

const collect = (value: string, previous: string[]) => [...previous, value];

/** `--config` and the repeatable `--import`: every command that loads a project takes them. */
export function withProjectOptions(command: Command): Command {
  return command
    .option('-c, --config <file>', 'the config file (default: toolwright.config.{js,mjs,cjs,json} here or above)')
    .option('-i, --import <module>', "a module that declares tools (repeatable; added to the config's)", collect, []);
}

export function projectFrom(options: ProjectOptions): Promise<Project> {
  return loadProject({ config: options.config, import: options.import });
}
