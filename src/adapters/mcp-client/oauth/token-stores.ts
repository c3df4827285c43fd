/**
 * Where a remote server's OAuth tokens and client registration are kept between requests,
 * reconnects and (with a file or Redis store) processes. A store holds secrets: keep its file or
 * its Redis private.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeValue } from '../../../adapter-kit';
import { DeclarationError } from '../../../index';

/**
 * A key-value store of strings for OAuth state (one JSON value per server URL, holding its tokens
 * and registration). Implement it for your own secret store; toolwright has MemoryTokenStore,
 * FileTokenStore and RedisTokenStore.
 */
export interface McpTokenStore {
  get(key: string): Promise<string | undefined> | string | undefined;
  set(key: string, value: string): Promise<void> | void;
  delete(key: string): Promise<void> | void;
}

/** A store in this process's memory: what a config without `auth.store` gets, per connection. */
export class MemoryTokenStore implements McpTokenStore {
  private readonly values = new Map<string, string>();

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  set(key: string, value: string): void {
    this.values.set(key, value);
  }

  delete(key: string): void {
    this.values.delete(key);
  }
}

/**
 * A store in one JSON file, created with mode 0600 and replaced whole on each change (written
 * beside it, then renamed), so a crash never leaves half a file. Meant for one process (a desktop
 * or CLI host); several processes sharing a file may overwrite each other's changes.
 */
export class FileTokenStore implements McpTokenStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {
    if (typeof path !== 'string' || path === '')
      throw new DeclarationError(`FileTokenStore: the path must be a non-empty string; got ${describeValue(path)}.`);
  }

  private async read(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, string>;
    } catch {
      // reported below
    }
    throw new DeclarationError(
      `FileTokenStore: ${this.path} is not a token store file (a JSON object); move it away or give another path.`,
    );
  }

  /** Changes run one after another, each on the file as the one before left it. */
  private change(edit: (values: Record<string, string>) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const values = await this.read();
      edit(values);
      await mkdir(dirname(this.path), { recursive: true });
      const temporary = `${this.path}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(values), { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, this.path);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  async get(key: string): Promise<string | undefined> {
    await this.queue;
    const value = (await this.read())[key];
    return typeof value === 'string' ? value : undefined;
  }

  set(key: string, value: string): Promise<void> {
    return this.change((values) => void (values[key] = value));
  }

  delete(key: string): Promise<void> {
    return this.change((values) => void delete values[key]);
  }
}

/** What RedisTokenStore needs of a Redis client: an ioredis instance (or one like it). */
export interface RedisLike {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/** A store in Redis (an ioredis client you pass, and close), shared by every process that uses it; keys get `prefix` (default `'toolwright:mcp-oauth:'`). */
export class RedisTokenStore implements McpTokenStore {
  constructor(
    private readonly redis: RedisLike,
    private readonly options: { prefix?: string } = {},
  ) {
    if (
      typeof redis !== 'object' ||
      redis === null ||
      ['get', 'set', 'del'].some((m) => typeof redis[m as keyof RedisLike] !== 'function')
    ) {
      throw new DeclarationError(`RedisTokenStore takes an ioredis client (new Redis(...)); got ${describeValue(redis)}.`);
    }
    if (options.prefix !== undefined && typeof options.prefix !== 'string') {
      throw new DeclarationError(`RedisTokenStore: 'prefix' must be a string; got ${describeValue(options.prefix)}.`);
    }
  }

  private key(key: string): string {
    return `${this.options.prefix ?? 'toolwright:mcp-oauth:'}${key}`;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(this.key(key))) ?? undefined;
  }

  async set(key: string, value: string): Promise<void> {
    await this.redis.set(this.key(key), value);
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.key(key));
  }
}
