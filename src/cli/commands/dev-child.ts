/** Set in the environment of the server process `toolwright dev` runs. */
export const DEV_CHILD = 'TOOLWRIGHT_DEV_CHILD';

/** In the server process of `toolwright dev`: tell the parent which files to watch. */
export function reportLoadedFiles(files: string[]): void {
  if (process.env[DEV_CHILD] && process.send) process.send({ loadedFiles: files });
}
