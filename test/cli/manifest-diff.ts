/**
 * What the breaking-change tests share: the manifest records they write, the findings
 * `toolwright diff --json` answers with, and a run of the CLI from the sources (diff loads no
 * project) on manifests written to a temporary directory.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');

export type Schema = Record<string, unknown>;

/** A manifest record: a tool's, or a member's with its kind's facts. */
export interface ManifestRecord {
  name: string;
  version: number;
  description: string | null;
  hints: string[];
  tags?: string[];
  adapters: Record<string, string>;
  input: Schema;
  output: Schema | null;
  uri?: string;
  uriTemplate?: string;
  mimeType?: string | null;
  completes?: { kind: string; name: string; argument: string };
}

/** One change `toolwright diff --json` reports. */
export interface Finding {
  kind: string;
  tool: string;
  version: number;
  breaking: boolean;
  rule: string;
  path: string;
  message: string;
}

/** What `toolwright diff --json` prints. */
export interface DiffReport {
  ok: boolean;
  changes: Finding[];
}

/** A closed object schema; every property required unless `required` says which. */
export const object = (properties: Record<string, Schema>, required: string[] = Object.keys(properties), extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  ...extra,
});

/**
 * Runs the CLI from the sources with `args`, where an argument naming one of `files` becomes its
 * path: each is written (as JSON unless a string) to a temporary directory, removed afterwards and
 * left out of stderr.
 */
export function runCli(args: string[], files: Record<string, unknown>): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-diff-'));
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  const argv = ['-r', 'ts-node/register/transpile-only', path.join(repo, 'src', 'cli', 'bin.ts'), ...args.map((arg) => (arg in files ? path.join(dir, arg) : arg))];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: repo, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      fs.rmSync(dir, { recursive: true, force: true });
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr: stderr.replace(new RegExp(dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '/', 'g'), '') });
    });
  });
}
