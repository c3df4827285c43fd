/**
 * What the generated functions of the compiled path share (../invocation/generated-input.ts,
 * ../serialization/generated-output.ts): fresh variable names, values passed in as constants (never
 * spliced into the code), the signal that a shape is not written, and the one place code is made
 * from text.
 */

/** Thrown while writing: the generator does not write this shape, and the caller keeps its closures. */
export class NotGenerated extends Error {}

export class CodeWriter {
  private next = 0;
  /** The values the code reads as `k[i]`. */
  readonly constants: unknown[] = [];

  /** A variable name not used before in this writer's code. */
  variable(prefix: string): string {
    return `${prefix}${this.next++}`;
  }

  /** The expression that reads `value` from the constants. */
  constant(value: unknown): string {
    this.constants.push(value);
    return `k[${this.constants.length - 1}]`;
  }

  /**
   * Makes the function(s) `body` returns from (k, h): the constants and the helpers. Returns null
   * when writing threw NotGenerated.
   */
  make<T>(write: () => string, helpers: object): T | null {
    let body: string;
    try {
      body = write();
    } catch (error) {
      if (error instanceof NotGenerated) return null;
      throw error;
    }
    // The code is the contract's, written from its metadata; `k` holds every value.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return new Function('k', 'h', body)(this.constants, helpers) as T;
  }
}

/**
 * A generator's answer per class, made at first use and kept as long as the class: the generated
 * functions, or undefined where `build` does not write its shape (remembered too).
 */
export function perClass<T>(build: (target: Function) => T | null): (target: Function) => T | undefined {
  const made = new WeakMap<Function, T | null>();
  return (target) => {
    let found = made.get(target);
    if (found === undefined) made.set(target, (found = build(target)));
    return found ?? undefined;
  };
}
