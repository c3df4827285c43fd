import { ChildProcess, fork } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { Command } from 'commander';
import { CliError } from '../cli-error';
import { painter } from '../output';
import { withProjectOptions } from '../project-options';
import { DEV_CHILD, DevReport, DevWatching } from './dev-child';
import { parsePort } from './serve-options';

interface DevOptions {
  ambient?: string;
  host?: string;
  port?: number;
  path?: string;
  config?: string;
  import?: string[];
}

/** A free port, chosen once so the URL stays the same across restarts. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `toolwright dev`: serves MCP over Streamable HTTP from a child process and restarts it when a
 * loaded file changes (a fresh process is the only reload that also drops the old classes and their
 * registrations). The parent watches the directories of the files the child reported, then answers
 * it: the child serves (and says so) only once its files are watched, and the parent says it is
 * watching only then, so a change made after either line restarts the server.
 */
async function runDev(options: DevOptions): Promise<void> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port === undefined || options.port === 0 ? await freePort(host) : options.port;
  const args = [
    'serve',
    'mcp',
    '--http',
    '--host',
    host,
    '--port',
    String(port),
    ...(options.path ? ['--path', options.path] : []),
    ...(options.ambient !== undefined ? ['--ambient', options.ambient] : []),
    ...(options.config ? ['--config', options.config] : []),
    ...(options.import ?? []).flatMap((module) => ['--import', module]),
  ];
  const paint = painter(process.stderr);
  const say = (text: string) => process.stderr.write(`${paint('cyan', 'toolwright dev:')} ${text}\n`);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}${options.path ?? '/mcp'}`;
  let child: ChildProcess | undefined;
  /** Whether a server has reported its files (and they are watched). */
  let watching = false;
  let watched = new Set<string>();
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  /** The server processes this command asked to stop. */
  const stopped = new WeakSet<ChildProcess>();

  const SOURCE = /\.(c|m)?(j|t)sx?$|\.json$/;
  const watch = ({ loadedFiles, moduleDirectories }: DevReport) => {
    watched = new Set(loadedFiles);
    // A loaded file's directory, flat; an ES module's directory, recursively (its imports are unlisted).
    const wanted = new Map<string, boolean>(loadedFiles.map((file) => [path.dirname(file), false]));
    for (const dir of moduleDirectories) wanted.set(dir, true);
    for (const [key, watcher] of watchers) {
      if (!wanted.has(key.slice(2)) || (key[0] === 'r') !== wanted.get(key.slice(2))) {
        watcher.close();
        watchers.delete(key);
      }
    }
    for (const [dir, recursive] of wanted) {
      const key = `${recursive ? 'r' : 'f'}:${dir}`;
      if (watchers.has(key)) continue;
      try {
        const watcher = fs.watch(dir, { recursive }, (_event, name) => {
          if (!name) return;
          const file = path.join(dir, name.toString());
          const relevant = recursive ? SOURCE.test(file) && !file.includes(`${path.sep}node_modules${path.sep}`) : watched.has(file);
          if (relevant) schedule(file);
        });
        watchers.set(key, watcher);
      } catch {
        // a directory that vanished: the next start reports the files again
      }
    }
  };

  const start = () => {
    child = fork(process.argv[1], args, { env: { ...process.env, [DEV_CHILD]: '1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const started = child;
    child.on('message', (message: Partial<DevReport>) => {
      if (!Array.isArray(message?.loadedFiles) || !Array.isArray(message.moduleDirectories)) return;
      watch(message as DevReport);
      if (!watching) {
        watching = true;
        const { length } = message.loadedFiles;
        const modules = message.moduleDirectories.length > 0 ? ' and the source files beside its ES modules' : '';
        say(`watching the ${length} file${length === 1 ? '' : 's'} the server loaded${modules}; it serves MCP on ${url} next (Ctrl-C to stop)`);
      }
      // The server waits for this answer before it serves; the callback takes the error of one that has gone.
      if (started.connected) started.send({ watching: true } satisfies DevWatching, () => undefined);
    });
    child.on('exit', (code, signal) => {
      // Stopped by us (a restart, or Ctrl-C): it exits 0 on SIGTERM, and that is no failure.
      if (stopping || stopped.has(started)) return;
      if (!watching) {
        // It never reported its files (it failed loading the project): no save can restart it.
        say(`the server stopped (${signal ?? `exit ${code}`}) before it loaded the project, so there is nothing to watch; fix the error and run toolwright dev again`);
        process.exit(code || 1);
      }
      if (code === 0) say('the server exited; save a file to restart it');
      else say(`the server stopped (${signal ?? `exit ${code}`}); fix the error and save a file to restart`);
    });
  };

  const restart = (file: string) => {
    say(`${path.relative(process.cwd(), file)} changed, restarting`);
    const old = child;
    if (old && old.exitCode === null && old.signalCode === null) {
      stopped.add(old);
      old.once('exit', start);
      old.kill('SIGTERM');
    } else start();
  };

  const schedule = (file: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => restart(file), 100);
  };

  const stop = () => {
    stopping = true;
    for (const watcher of watchers.values()) watcher.close();
    if (child && child.exitCode === null) {
      child.once('exit', () => process.exit(0));
      child.kill('SIGTERM');
    } else process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  start();
  await new Promise<never>(() => undefined);
}

export function devCommand(): Command {
  return withProjectOptions(new Command('dev'))
    .description('serve over MCP (Streamable HTTP) and restart when a loaded file changes')
    .option('--host <host>', 'the interface to listen on (default 127.0.0.1)')
    .option('--port <port>', 'the port (default: a free one, kept across restarts)', parsePort)
    .option('--path <path>', 'the endpoint path (default /mcp)')
    .option('--ambient <json>', 'trusted values for @AmbientContext fields, as a JSON object (as serve mcp takes them)')
    .action(async (options: DevOptions) => {
      if (process.env[DEV_CHILD]) throw new CliError('toolwright dev is already running this process.');
      await runDev(options);
    });
}
