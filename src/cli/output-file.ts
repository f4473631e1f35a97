/**
 * Where `generate` writes its result: a file, written under a temporary name beside it and renamed
 * once complete (a failed or interrupted run never leaves a file that looks whole), or standard
 * output (`-o -`).
 */
import { createWriteStream } from 'node:fs';
import { chmod, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

export interface Output {
  /** The file's path, or null for standard output. */
  path: string | null;
  stream: Writable;
  /** Waits for every byte, then gives the file its name. */
  commit(): Promise<void>;
  /** Drops what was written (a file's temporary name goes). */
  abort(): Promise<void>;
}

/** The temporary name of `path` while it is written: hidden, in the same folder (so the rename is atomic). */
export function partialPathOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.partial-${process.pid}`);
}

export function openOutput(path: string | null, stdout: NodeJS.WritableStream): Output {
  if (path === null) {
    // standard output is never ended: the document's end goes through a stream of its own
    const stream = new PassThrough();
    stream.pipe(stdout, { end: false });
    return {
      path,
      stream,
      commit: async () => {
        await finished(stream);
        await new Promise<void>((resolve) => (stdout.write('') ? resolve() : stdout.once('drain', () => resolve())));
      },
      abort: async () => void stream.destroy(),
    };
  }
  const partial = partialPathOf(path);
  const stream = createWriteStream(partial, { mode: 0o644 });
  return {
    path,
    stream,
    commit: async () => {
      await finished(stream);
      await rename(partial, path);
    },
    abort: async () => {
      stream.destroy();
      await rm(partial, { force: true });
    },
  };
}

/** Moves a file another writer made (the export thread's staged file) to `path`, readable as a file the user made. */
export async function moveInto(from: string, path: string): Promise<void> {
  await rename(from, path);
  await chmod(path, 0o644);
}
