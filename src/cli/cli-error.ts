/** Exit codes of every command: 0 done (or clean), 1 findings or a failed call, 2 could not run. */
export const EXIT = { ok: 0, findings: 1, failed: 1, error: 2 } as const;

/**
 * An error the command reports as one line on stderr (`toolwright: <message>`) before exiting with
 * `exitCode`. The message names what is wrong and says what to do.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.error,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The first line of an error's message, for the one-line report. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n').find((line) => line.trim() !== '') ?? String(error);
}
