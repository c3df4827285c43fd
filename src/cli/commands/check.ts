import { Command } from 'commander';
import { CliError, EXIT } from '../cli-error';
import { compareManifests, Finding } from '../compare';
import { checkDrift, DriftReport } from '../drift';
import { buildManifest, readManifest } from '../manifest';
import { json } from '../output';
import { projectFrom, withProjectOptions } from '../project-options';
import { changesText, driftText } from '../report';
import { projectTools } from '../tools';

export function checkCommand(): Command {
  return withProjectOptions(new Command('check'))
    .description(
      'the contract guard: compiler drift of the DTOs, and breaking changes without a new @ToolVersion (exit 0 clean, 1 findings, 2 could not run)',
    )
    .option('--against <manifest>', 'a manifest written earlier by `toolwright manifest`: report every change a caller would notice')
    .option('--no-drift', 'skip the compiler drift check (it needs typescript-json-schema)')
    .option('--json', 'JSON for scripts')
    .action(async (options: { against?: string; drift: boolean; json?: boolean; config?: string; import?: string[] }) => {
      const before = options.against === undefined ? undefined : readManifest(options.against);
      if (!options.drift && !before) throw new CliError('nothing to check: pass --against manifest.json, or drop --no-drift.');
      const project = await projectFrom(options);
      const drift: DriftReport | undefined = options.drift
        ? checkDrift(
            // A completion's input is always the completion request: it has no DTO of its own.
            (['tool', 'resource', 'resource-template', 'prompt'] as const).flatMap((kind) => projectTools({ allVersions: true, kind })),
            project.loadedFiles(),
            project.root,
          )
        : undefined;
      const changes: Finding[] | undefined = before ? compareManifests(before, buildManifest()) : undefined;
      const breaking = changes?.filter((finding) => finding.breaking).length ?? 0;
      const findings = (drift?.drift.length ?? 0) + breaking;
      if (options.json) process.stdout.write(json({ ok: findings === 0, drift: drift ?? null, changes: changes ?? null }));
      else {
        if (drift) process.stdout.write(driftText(drift));
        if (changes) process.stdout.write(changesText(changes, options.against!));
      }
      process.exitCode = findings === 0 ? EXIT.ok : EXIT.findings;
    });
}

export function diffCommand(): Command {
  return new Command('diff')
    .description('compare two manifests (before, after) by the breaking-change rules of check --against, without loading a project')
    .argument('<before>', 'the earlier manifest')
    .argument('<after>', 'the later manifest')
    .option('--json', 'JSON for scripts')
    .action((beforeFile: string, afterFile: string, options: { json?: boolean }) => {
      const changes = compareManifests(readManifest(beforeFile), readManifest(afterFile));
      const breaking = changes.filter((finding) => finding.breaking).length;
      if (options.json) process.stdout.write(json({ ok: breaking === 0, changes }));
      else process.stdout.write(changesText(changes, beforeFile));
      process.exitCode = breaking === 0 ? EXIT.ok : EXIT.findings;
    });
}
