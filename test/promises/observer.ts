/**
 * What a way in wrote where an application or an operator reads it: the audit records and exception
 * reports of its invoker, and everything written to the console (where toolwright logs) of this
 * process (a server in a child process: that process's stderr, read by its way in).
 */
import { inspect } from 'node:util';
import { audit, type InvokerOptions } from 'toolwright';

export class Observer {
  private readonly seen: string[] = [];
  private readonly restore: Array<() => void> = [];

  add(text: string): void {
    this.seen.push(text);
  }

  text(): string {
    return this.seen.join('\n');
  }

  /** The invoker options that record every audit record and exception report here. */
  invoker(): InvokerOptions {
    return {
      middleware: [audit((record) => this.add(JSON.stringify(record)))],
      onException: (error, context) => this.add(`${inspect(error, { depth: 8 })} ${inspect(context.args, { depth: 8 })}`),
    };
  }

  /** Records (and silences) this process's console until `stop()`. */
  start(): this {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const original = console[method];
      console[method] = (...args: unknown[]) => this.add(args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 8 }))).join(' '));
      this.restore.push(() => (console[method] = original));
    }
    return this;
  }

  stop(): void {
    for (const undo of this.restore.splice(0).reverse()) undo();
  }
}
