/**
 * The export thread writes the finished file to disk itself (into the store's directory, where
 * the store moves it in: ./store/staged.ts), piece after piece, spilled text copied back from its
 * spill file through one small buffer. So the file is never held whole by either thread, and the
 * thread's malloc arena does not keep a file's worth of freed pieces (glibc keeps what a thread
 * freed for its next allocations: ~90 MB after a dense glb, DXF and IFC in a row).
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { isSpilled, type FilePiece } from './spill.ts';
import { etagOfHash } from './store/entry.ts';
import type { StagedFile } from './store/types.ts';

const COPY = 1 << 20;

/** Writes `bytes` to a new file at `path`, flushed, hashed on the way; the file is removed on failure. */
export function writeStagedFile(path: string, bytes: Uint8Array | FilePiece[]): StagedFile {
  const fd = openSync(path, 'wx');
  const hash = createHash('sha256');
  let size = 0,
    buffer: Uint8Array | null = null;
  const put = (b: Uint8Array): void => {
    for (let done = 0; done < b.length; ) done += writeSync(fd, b, done, b.length - done, size + done);
    hash.update(b);
    size += b.length;
  };
  try {
    for (const piece of bytes instanceof Uint8Array ? [bytes] : bytes) {
      if (!isSpilled(piece)) {
        put(piece);
        continue;
      }
      buffer ??= new Uint8Array(COPY);
      for (let from = 0; from < piece.length; from += COPY) {
        const n = Math.min(COPY, piece.length - from);
        piece.spill.read(piece, from, buffer, n);
        put(buffer.subarray(0, n));
      }
    }
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      /* never made */
    }
    throw err;
  }
  closeSync(fd);
  return { stagedPath: path, size, etag: etagOfHash(hash) };
}
