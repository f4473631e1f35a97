/**
 * Where an export thread's text goes while the file is written: a spill file next to the file
 * being staged (src/export/stage-file.ts). The text writers (DXF, DAE, IFC) must write their
 * header and tables last, in front of the body, so the body waited in memory as ~1 MB pieces —
 * the whole file (58 MB for a dense 10 km² DXF), allocated by the thread's malloc arena, which
 * glibc then keeps. With a spill active, TextSink writes each piece here at once and keeps only
 * its place; the staged file copies it back in order.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';

/** Bytes already written to a spill file: where they are. */
export interface SpillSegment {
  spill: Spill;
  offset: number;
  length: number;
}

/** A piece of a file: bytes in memory, or bytes spilled to disk. */
export type FilePiece = Uint8Array | SpillSegment;

export const isSpilled = (p: FilePiece): p is SpillSegment => !(p instanceof Uint8Array);

export class Spill {
  private fd: number;
  private size = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'wx+'); // read back when the file is staged
  }

  /** Appends `bytes` (whole: a short write goes on) and says where they went. */
  write(bytes: Uint8Array): SpillSegment {
    const offset = this.size;
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done, offset + done);
    this.size += bytes.length;
    return { spill: this, offset, length: bytes.length };
  }

  /** Reads `length` bytes of a segment from `from` into `into` (whole). */
  read(segment: SpillSegment, from: number, into: Uint8Array, length: number): void {
    for (let done = 0; done < length; ) {
      const n = readSync(this.fd, into, done, length - done, segment.offset + from + done);
      if (n === 0) throw new Error(`spill file ${this.path} ended early`);
      done += n;
    }
  }

  /** Closes and removes the spill file (errors ignored: it is scratch). */
  dispose(): void {
    if (this.fd < 0) return;
    try {
      closeSync(this.fd);
    } catch {
      /* already closed */
    }
    try {
      unlinkSync(this.path);
    } catch {
      /* already gone */
    }
    this.fd = -1;
  }
}

/**
 * The thread's active spill lives on globalThis: from source, writers are loaded with `require`
 * (formats/index.ts) and may get their own copy of this module.
 */
const ACTIVE = Symbol.for('city-context.export-spill');
const slot = globalThis as { [ACTIVE]?: Spill | null };

/** The spill of the export running in this thread, if it stages its file (one export per thread at a time). */
export function activeSpill(): Spill | null {
  return slot[ACTIVE] ?? null;
}

export function setActiveSpill(spill: Spill | null): void {
  slot[ACTIVE] = spill;
}
