/**
 * serveStdio in a child process (test/fixtures/mcp/stdio-server.ts), spoken to over its real stdin
 * and stdout, one JSON-RPC message per line.
 */
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as path from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

const repo = path.resolve(__dirname, '..', '..', '..');
const fixture = ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'test/fixtures/mcp/stdio-server.ts'];

interface Line {
  id?: unknown;
  result?: { tools?: Array<{ name: string }> } & Record<string, unknown>;
  error?: { code: number; message: string };
}

class StdioPeer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly answers: Line[] = [];
  stderr = '';
  exitCode?: number | null;
  private pending = '';
  private waiters: Array<() => void> = [];

  constructor(env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, fixture, { cwd: repo, env: { ...process.env, ...env } });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.pending += chunk.toString();
      let end: number;
      while ((end = this.pending.indexOf('\n')) !== -1) {
        this.answers.push(JSON.parse(this.pending.slice(0, end)));
        this.pending = this.pending.slice(end + 1);
      }
      this.waiters.splice(0).forEach((wake) => wake());
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
      this.waiters.splice(0).forEach((wake) => wake());
    });
    this.child.stdin.on('error', () => {});
    this.child.on('exit', (code) => {
      this.exitCode = code;
      this.waiters.splice(0).forEach((wake) => wake());
    });
  }

  write(text: string): void {
    this.child.stdin.write(text);
  }

  send(message: object): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  /**
   * The first `count` lines of stderr, once written: stderr is its own pipe, so a warning can arrive
   * after the answer written after it (seen on Node 24).
   */
  async stderrLines(count: number): Promise<string[]> {
    const lines = () => this.stderr.split('\n').filter((line) => line.trim() !== '');
    while (lines().length < count) {
      if (this.exitCode !== undefined) throw new Error(`the server exited (${this.exitCode}) before ${count} lines of stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return lines();
  }

  /** The next answer after the first `count` ones. */
  async answer(index: number): Promise<Line> {
    while (this.answers.length <= index) {
      if (this.exitCode !== undefined) throw new Error(`the server exited (${this.exitCode}) before answer ${index}; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.answers[index];
  }

  async initialize(): Promise<void> {
    this.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    expect((await this.answer(0)).id).toBe('init');
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  close(): void {
    this.child.kill();
  }
}

describe('serveStdio with bad input', () => {
  let peer: StdioPeer;
  afterEach(() => peer.close());

  it('answers a line over the default 10 MiB with -32600 and one log line, then keeps serving', async () => {
    peer = new StdioPeer();
    await peer.initialize();
    peer.write(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${'x'.repeat(11 * 1024 * 1024)}"}}}\n`);
    peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(await peer.answer(1)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: "Invalid Request: the message is over this server's limit of 10485760 bytes (maxMessageBytes)." },
    });
    expect(await peer.answer(2)).toMatchObject({ id: 2, result: { tools: [{ name: 'echo' }] } });
    expect(peer.stderr.trim().split('\n')).toEqual(['toolwright/mcp: a stdin message over 10485760 bytes (maxMessageBytes) was discarded and answered -32600.']);
  });

  it('honours maxMessageBytes: one byte over is refused, the limit itself is served, in pieces across writes', async () => {
    const call = (id: number, text: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
    const limit = Buffer.byteLength(call(3, 'x'.repeat(100)));
    peer = new StdioPeer({ MAX_MESSAGE_BYTES: String(limit) });
    await peer.initialize();
    const atLimit = call(3, 'x'.repeat(100));
    const over = call(4, 'x'.repeat(101));
    peer.write(over.slice(0, 50));
    await new Promise((resolve) => setTimeout(resolve, 20));
    peer.write(`${over.slice(50)}\n${atLimit.slice(0, 70)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    peer.write(`${atLimit.slice(70)}\r\n`);
    expect((await peer.answer(1)).error).toEqual({ code: -32600, message: expect.stringContaining(`limit of ${limit} bytes (maxMessageBytes)`) });
    expect(await peer.answer(2)).toMatchObject({ id: 3, result: { structuredContent: { text: 'x'.repeat(100) } } });
  });

  it('answers a line that is not JSON with -32700, one that is not JSON-RPC with -32600 (with its id), ignores blank lines, and keeps serving', async () => {
    peer = new StdioPeer();
    await peer.initialize();
    peer.write('this is not json\n\n   \n{"id":5,"method":"tools/list"}\n[1,2]\n');
    peer.send({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
    expect(await peer.answer(1)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the message is not valid JSON.' } });
    expect(await peer.answer(2)).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32600, message: 'Invalid Request: the message is not a JSON-RPC 2.0 request, notification or response.' },
    });
    expect((await peer.answer(3)).error?.code).toBe(-32600);
    expect(await peer.answer(4)).toMatchObject({ id: 6, result: { tools: [{ name: 'echo' }] } });
    expect(await peer.stderrLines(3)).toEqual([
      'toolwright/mcp: a stdin message of 16 bytes is not valid JSON; answered -32700.',
      'toolwright/mcp: a stdin message of 30 bytes is not a JSON-RPC 2.0 message; answered -32600.',
      'toolwright/mcp: a stdin message of 5 bytes is not a JSON-RPC 2.0 message; answered -32600.',
    ]);
  });

  it('refuses a bad maxMessageBytes at start with a TypeError naming the option', async () => {
    peer = new StdioPeer({ MAX_MESSAGE_BYTES: '0' });
    await peer.answer(0).catch(() => undefined);
    expect(peer.stderr).toContain("serveStdio: 'maxMessageBytes' must be a positive whole number; got 0.");
  });
});
