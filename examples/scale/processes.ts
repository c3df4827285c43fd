/**
 * The scale-out example's child processes: its server and worker scripts forked under ts-node, each
 * reporting on IPC once it is ready, and stopped with a signal.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const EXEC_ARGV = ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'];

/** Forks `script` (of this folder); resolves with its first IPC message (its URL, or that it is ready). */
export function start(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; message: Record<string, unknown> }> {
  const child = fork(path.join(__dirname, script), [], {
    cwd: ROOT,
    execArgv: EXEC_ARGV,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, message: message as Record<string, unknown> }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
}

/** Stops the child (SIGTERM: gracefully; SIGKILL: at once) and resolves once it has exited. */
export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
