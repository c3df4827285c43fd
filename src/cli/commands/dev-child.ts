/** Set in the environment of the server process `toolwright dev` runs. */
export const DEV_CHILD = 'TOOLWRIGHT_DEV_CHILD';

/** What the server process of `toolwright dev` tells the parent to watch. */
export interface DevReport {
  readonly loadedFiles: string[];
  /** Watched recursively: the directories of the ES modules it loaded. */
  readonly moduleDirectories: string[];
}

/** The parent's answer to a report: its watchers for the reported files exist. */
export interface DevWatching {
  readonly watching: true;
}

/**
 * In `dev`'s server process: reports the loaded files and resolves once the parent watches them (or
 * has gone), so the server says it is serving only when a change to them is seen. Elsewhere: at once.
 */
export function reportLoadedFiles(loadedFiles: string[], moduleDirectories: string[]): Promise<void> {
  const send = process.send?.bind(process);
  if (!process.env[DEV_CHILD] || !send || !process.connected) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      process.off('message', answered);
      process.off('disconnect', done);
      resolve();
    };
    const answered = (message: Partial<DevWatching>) => {
      if (message?.watching === true) done();
    };
    process.on('message', answered);
    process.on('disconnect', done);
    send({ loadedFiles, moduleDirectories } satisfies DevReport);
  });
}
