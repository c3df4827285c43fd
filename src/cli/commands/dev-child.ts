/** Set in the environment of the server process `toolwright dev` runs. */
export const DEV_CHILD = 'TOOLWRIGHT_DEV_CHILD';

/** What the server process of `toolwright dev` tells the parent to watch. */
export interface DevReport {
  readonly loadedFiles: string[];
  /** Watched recursively: the directories of the ES modules it loaded. */
  readonly moduleDirectories: string[];
}

export function reportLoadedFiles(loadedFiles: string[], moduleDirectories: string[]): void {
  if (process.env[DEV_CHILD] && process.send) process.send({ loadedFiles, moduleDirectories } satisfies DevReport);
}
