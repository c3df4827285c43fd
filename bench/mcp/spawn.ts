/**
 * Worker processes for bench/mcp. `runOnce` is bench/lib/spawn-worker.ts's runWorker with Node
 * flags (the heap worker needs --expose-gc); `Session` keeps a worker alive and asks it for one
 * measurement at a time, so contenders can live in separate processes (neither pays for the other's
 * process-wide state: toolwright's AsyncLocalStorage turns on promise hooks for every promise in its
 * process, and two servers in one process make the SDK's shared protocol code polymorphic) and still
 * be sampled interleaved.
 */
import { ChildProcess, execFileSync, fork } from 'node:child_process';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');
const loaders = ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'];
const env = () => ({ ...process.env, TS_NODE_PROJECT: path.join(repo, 'tsconfig.json'), NODE_ENV: 'production' });

/** Runs a worker script in a fresh Node process with `flags` and parses the JSON it prints. */
export function runOnce<T>(script: string, args: string[], flags: string[] = []): T {
  const output = execFileSync(process.execPath, [...flags, ...loaders, script, ...args], { cwd: repo, encoding: 'utf8', env: env() });
  return JSON.parse(output) as T;
}

/** A long-lived worker answering one request at a time over IPC (see `serve`). */
export class Session {
  private readonly child: ChildProcess;
  private readonly ready: Promise<unknown>;
  private pending?: { resolve: (value: unknown) => void; reject: (error: Error) => void };

  constructor(script: string, args: string[], flags: string[] = []) {
    this.child = fork(script, args, {
      cwd: repo,
      execArgv: [...flags, ...loaders],
      env: env(),
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.ready = new Promise((resolve, reject) => (this.pending = { resolve, reject }));
    this.child.on('message', (message: { ok: boolean; value?: unknown; error?: string }) => {
      const pending = this.pending;
      this.pending = undefined;
      if (message.ok) pending?.resolve(message.value);
      else pending?.reject(new Error(`${path.basename(script)} ${args.join(' ')}: ${message.error}`));
    });
    this.child.on('exit', (code) => this.pending?.reject(new Error(`${path.basename(script)} ${args.join(' ')} exited with ${code}`)));
  }

  /** What the worker reported once it was set up. */
  started<T>(): Promise<T> {
    return this.ready as Promise<T>;
  }

  ask<T>(request: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending = { resolve: resolve as (value: unknown) => void, reject };
      this.child.send(request as object);
    });
  }

  close(): void {
    this.child.disconnect();
  }
}

/**
 * The worker's side: runs `setup`, reports its value, then answers each request with `handle`. The
 * worker exits when the parent disconnects.
 */
export function serve<S, Q>(setup: () => Promise<S>, handle: (state: S, request: Q) => Promise<unknown>): void {
  const send = (message: object) => process.send!(message);
  const fail = (error: unknown) => send({ ok: false, error: (error as Error)?.stack ?? String(error) });
  setup().then(
    (state) => {
      send({ ok: true, value: (state as { report?: unknown }).report });
      process.on('message', (request: Q) => handle(state, request).then((value) => send({ ok: true, value }), fail));
      process.on('disconnect', () => process.exit(0));
    },
    (error) => {
      fail(error);
      process.exit(1);
    },
  );
}
