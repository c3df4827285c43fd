/**
 * A throwaway redis-server: from the PATH, on a free port, no persistence (`--save '' --appendonly
 * no`). The scale-out example and the queue tests start their own and stop it when done.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port';

export interface TestRedis {
  readonly port: number;
  readonly connection: { host: string; port: number };
  stop(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and Redis answers nothing, until `resume()`. */
  pause(): void;
  /** Lets a paused process run again (SIGCONT). */
  resume(): void;
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', (error) =>
      reject(
        new Error(
          `Could not start redis-server (${error.message}). The queue tests need redis-server on the PATH: apt-get install redis-server.`,
        ),
      ),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`)));
  });
}

/** A redis-server on a free port, or on `port` (to start one again where a stopped one was). */
export async function startRedis(options: { port?: number } = {}): Promise<TestRedis> {
  for (let attempt = 0; ; attempt++) {
    const port = options.port ?? (await freePort());
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      await ready(child);
    } catch (error) {
      child.kill('SIGKILL');
      child.stdout?.destroy();
      if (attempt < 3 && options.port === undefined && !String(error).includes('PATH')) continue; // the port was taken meanwhile
      throw error;
    }
    child.stdout?.resume();
    return {
      port,
      connection: { host: '127.0.0.1', port },
      stop: () =>
        new Promise<void>((resolve) => {
          const done = () => (child.stdout?.destroy(), resolve());
          if (child.exitCode !== null) return done();
          child.once('exit', done);
          child.kill('SIGTERM');
          child.kill('SIGCONT'); // a paused process ends only once it runs again
        }),
      pause: () => void child.kill('SIGSTOP'),
      resume: () => void child.kill('SIGCONT'),
    };
  }
}
