/**
 * Shell sessions in Markdown that claim an output, read and run (test/docs/shell-blocks.test.ts).
 *
 * A block is run when the line before its fence is a marker:
 *
 *   <!-- run -->                      each command's output is exactly the lines after it
 *   <!-- run: lines (why) -->         each shown line appears, in order; `…` in a line stands for any text
 *   <!-- run: serves (why) -->        the command keeps serving: it is stopped (Ctrl-C) once it has
 *                                     printed as many lines as shown, and runs with PORT=0 (a free
 *                                     port), the port it prints read as 3000
 *
 * (modes combine: `run: serves, lines`; the parenthesis is for the reader). In the block, a line
 * starting with `$ ` is a command (a line ending in `\` continues it); the lines up to the next
 * command are its output, stdout and stderr in the order written, as a terminal shows them. A
 * command must exit 0, or its output gains a last line `[exit N]` that the block does not show: a
 * block shows another status as the shell does, `; echo "exit $?"`.
 */
import { spawn } from 'node:child_process';

export type RunMode = 'lines' | 'serves';
const MODES: readonly RunMode[] = ['lines', 'serves'];

export interface ShellCommand {
  /** The command as bash runs it (continuation lines included). */
  readonly command: string;
  /** The document's line of the `$ `. */
  readonly line: number;
  /** The output the block shows for it, one entry per line. */
  readonly output: readonly string[];
}

export interface RunBlock {
  /** `document:line` of the fence. */
  readonly where: string;
  readonly modes: readonly RunMode[];
  readonly commands: readonly ShellCommand[];
}

/** The marked blocks of one Markdown document; a marked block that cannot be run as shown is an error naming its line. */
export function runBlocks(name: string, markdown: string): RunBlock[] {
  const lines = markdown.split('\n');
  const blocks: RunBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = /^<!--\s*run\b(?::\s*([^(]*?))?\s*(?:\(.*\))?\s*-->\s*$/.exec(lines[i].trim());
    if (!marker) continue;
    const where = `${name}:${i + 1}`;
    const modes = (marker[1] ?? '').split(/[\s,]+/).filter(Boolean);
    const unknown = modes.filter((mode) => !MODES.includes(mode as RunMode));
    if (unknown.length) throw new SyntaxError(`${where}: unknown run mode ${unknown.join(', ')} (known: ${MODES.join(', ')})`);
    let fence = i + 1;
    while (fence < lines.length && lines[fence].trim() === '') fence++;
    if (!/^```(?:console|sh|shell|bash)\s*$/.test(lines[fence] ?? '')) throw new SyntaxError(`${where}: a run marker must precede a \`\`\`console block`);
    const commands: { command: string; line: number; output: string[] }[] = [];
    let end = fence + 1;
    for (; end < lines.length && !/^```\s*$/.test(lines[end]); end++) {
      if (lines[end].startsWith('$ ')) {
        const start = end;
        let command = lines[end].slice(2);
        while (command.endsWith('\\') && end + 1 < lines.length) command += '\n' + lines[++end];
        commands.push({ command, line: start + 1, output: [] });
      } else if (commands.length) commands[commands.length - 1].output.push(lines[end]);
      else throw new SyntaxError(`${name}:${end + 1}: output before the first command (a command starts with "$ ")`);
    }
    if (end >= lines.length) throw new SyntaxError(`${where}: the block is not closed`);
    if (!commands.length) throw new SyntaxError(`${where}: a run block needs a command (a line starting with "$ ")`);
    if (commands.every((command) => command.output.length === 0)) throw new SyntaxError(`${where}: a run block must show an output to check`);
    if (modes.includes('serves') && commands.length !== 1) throw new SyntaxError(`${where}: a serves block shows one command`);
    blocks.push({ where, modes: modes as RunMode[], commands });
    i = end;
  }
  return blocks;
}

/** Whether `shown` (with `…` as any text) appears in `printed`, line by line and in order. */
export function showsLines(printed: string, shown: readonly string[]): boolean {
  const printedLines = printed.split('\n');
  let at = 0;
  for (const line of shown) {
    const pattern = new RegExp('^' + line.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
    while (at < printedLines.length && !pattern.test(printedLines[at])) at++;
    if (at === printedLines.length) return false;
    at++;
  }
  return true;
}

/** npm's banner before a script's output (`> name@version script` and the script's line). */
const NPM_BANNER = /^\n?> [^\n]*\n> [^\n]*(?:\n> [^\n]*)*\n\n/;

/**
 * `npx toolwright` is the bin at `bin` (the package built from this repository); any other `npx`
 * is refused rather than fetched.
 */
const prelude = (bin: string) =>
  `exec 2>&1\nnpx() { if [ "$1" = toolwright ]; then shift; node ${JSON.stringify(bin)} "$@"; else echo "npx $1: not run by the docs test" >&2; return 127; fi; }\n`;

export interface RunOptions {
  readonly cwd: string;
  /** The built `toolwright` bin, for `npx toolwright`. */
  readonly bin: string;
  /** For a serving command: stop it once it has printed this many lines. */
  readonly servesLines?: number;
  /** Stops a command that has not ended (or, serving, printed its lines) by then. */
  readonly timeoutMs?: number;
}

/** Runs one command with bash and resolves with what it printed, as a block shows it. */
export function runShellCommand(command: string, options: RunOptions): Promise<string> {
  const serving = options.servesLines !== undefined;
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, npm_config_update_notifier: 'false' };
  if (serving) env.PORT = '0';
  const child = spawn('bash', ['-c', prelude(options.bin) + command], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // stderr is stdout (exec 2>&1), so the two are in the order they were written.
  let stdout = '';
  const printed = () => {
    let text = command.startsWith('npm ') ? stdout.replace(NPM_BANNER, '') : stdout;
    if (serving) text = text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:3000');
    return text;
  };
  // The whole process group: npm starts node, bash starts npm.
  const stop = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  return new Promise((resolve, reject) => {
    /** What the command had printed when it was stopped for having served its lines. */
    let served: string | undefined;
    let timedOut = false;
    const limit = options.timeoutMs ?? 45_000;
    const timer = setTimeout(() => {
      timedOut = true;
      stop('SIGKILL');
    }, limit);
    const check = () => {
      if (serving && served === undefined && printed().split('\n').length > options.servesLines!) {
        served = printed();
        stop('SIGINT');
        // A server that ignores Ctrl-C is not left behind.
        setTimeout(() => stop('SIGKILL'), 5_000).unref();
      }
    };
    child.stdout.on('data', (chunk) => ((stdout += chunk), check()));
    child.stderr.on('data', (chunk) => ((stdout += chunk), check()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (served !== undefined) return resolve(served.replace(/\n$/, ''));
      const text = printed().replace(/\n$/, '');
      if (timedOut) return resolve(`${text}\n[still running after ${limit} ms]`);
      if (serving) return resolve(`${text}\n[exited (${code ?? signal}) before printing ${options.servesLines} lines]`);
      resolve(code === 0 ? text : `${text}\n[exit ${code ?? signal}]`);
    });
  });
}
