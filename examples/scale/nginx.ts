/**
 * A throwaway nginx in front of server replicas: from the PATH (Debian's `nginx`), on a free port of
 * 127.0.0.1, plain round-robin over the upstream ports, no buffering (SSE streams pass through as
 * they are written), its own prefix directory (config, pid, temp files, error log) removed on stop.
 * The scale-out example and its test start their own and stop it when done.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { freePort } from './free-port';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export interface TestNginx {
  readonly port: number;
  /** `http://127.0.0.1:<port><path>`. */
  url(path: string): string;
  /** The error log so far (for a failing test's message). */
  errorLog(): string;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /**
   * A replica that refuses the connection or fails before answering is taken out for this long
   * (nginx `fail_timeout`, default 2 s) and the request goes to the next one. A request nginx
   * already sent is never sent again (nginx does not retry POSTs once sent).
   */
  failTimeoutSeconds?: number;
}

function config(dir: string, port: number, upstreams: readonly number[], failTimeout: number): string {
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=${failTimeout}s;`).join('\n');
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream replicas {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 8m;
    location / {
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 120s;
      proxy_next_upstream error timeout;
    }
  }
}
`;
}

/** Resolves once something accepts connections on the port. */
async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode} before it was ready:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`nginx did not listen on 127.0.0.1:${port} within 5 s:\n${log()}`);
}

/** nginx on a free port of 127.0.0.1, round-robin over `upstreams` (ports of 127.0.0.1). */
export async function startNginx(upstreams: readonly number[], options: NginxOptions = {}): Promise<TestNginx> {
  if (upstreams.length === 0) throw new Error('startNginx needs at least one upstream port.');
  const dir = mkdtempSync(path.join(tmpdir(), 'toolwright-nginx-'));
  const log = () => {
    try {
      return readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    writeFileSync(path.join(dir, 'nginx.conf'), config(dir, port, upstreams, options.failTimeoutSeconds ?? 2));
    const child = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const spawnError = new Promise<never>((_, reject) =>
      child.once('error', (error) =>
        reject(new Error(`Could not start nginx (${error.message}). The scale-out test needs nginx on the PATH: apt-get install nginx.`)),
      ),
    );
    try {
      await Promise.race([listening(port, child, () => stderr + log()), spawnError]);
    } catch (error) {
      child.kill('SIGKILL');
      // The port was taken between freePort and nginx's bind: try another.
      if (attempt < 3 && /Address already in use/.test(String(error))) continue;
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    return {
      port,
      url: (p) => `http://127.0.0.1:${port}${p}`,
      errorLog: () => stderr + log(),
      stop: () =>
        new Promise<void>((resolve) => {
          const done = () => {
            rmSync(dir, { recursive: true, force: true });
            resolve();
          };
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', done);
          // SIGQUIT would wait for open SSE streams; the test is done with them.
          child.kill('SIGTERM');
        }),
    };
  }
}
