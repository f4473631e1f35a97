/**
 * Text output for the big text formats (DXF, OBJ, DAE) without one giant array of strings or one
 * giant string: lines are appended to a short string that is UTF-8 encoded every ~1 MB, so a
 * 10 km² file costs its bytes, not ten times that in small strings (and stays under V8's
 * maximum string length). The chunks are handed over as they are (`take`), never joined. In an
 * export thread that stages its file, each chunk goes to the spill file as it is encoded
 * (src/export/spill.ts) and only its place is kept.
 */
import { activeSpill, isSpilled, type FilePiece } from '../spill.ts';

const FLUSH = 1 << 20;
/** Reused for every spilled flush: the text is encoded into it, written, and the bytes go with the next. */
let scratch = new Uint8Array(0);

export class TextSink {
  private readonly chunks: FilePiece[] = [];
  private text = '';
  private readonly encoder = new TextEncoder();

  /**
   * `separator` ends every item (`\n` for OBJ, `\r\n` for DXF, '' for raw text). With `onChunk`,
   * each encoded chunk goes there instead of being held (OBJ deflates its text as it is written).
   */
  constructor(
    private readonly separator = '\n',
    private readonly onChunk?: (bytes: Uint8Array) => void,
  ) {}

  /** Appends items, each followed by the separator. */
  push(...items: string[]): void {
    for (const s of items) this.text += s + this.separator;
    if (this.text.length > FLUSH) this.flush();
  }

  /** Appends what another sink holds so far (its chunks, not a copy). */
  append(other: TextSink): void {
    this.flush();
    other.flush();
    for (const c of other.chunks) this.chunks.push(c);
  }

  /** True when nothing was pushed, or everything went to `onChunk` or was taken. */
  isEmpty(): boolean {
    return !this.text && this.chunks.length === 0;
  }

  bytes(): Uint8Array {
    return joinBytes(this.take());
  }

  /** The encoded chunks so far (in memory or spilled), handed over: the sink is empty afterwards. */
  take(): FilePiece[] {
    this.flush();
    return this.chunks.splice(0);
  }

  /** Encodes what is pending (a sink with `onChunk` hands it over). */
  flush(): void {
    if (!this.text) return;
    const spill = this.onChunk ? null : activeSpill();
    if (spill) {
      if (scratch.length < 3 * this.text.length) scratch = new Uint8Array(3 * this.text.length); // UTF-8 ≤ 3 bytes per UTF-16 unit
      const { written } = this.encoder.encodeInto(this.text, scratch);
      this.text = '';
      this.chunks.push(spill.write(scratch.subarray(0, written)));
      return;
    }
    const bytes = this.encoder.encode(this.text);
    this.text = '';
    if (this.onChunk) this.onChunk(bytes);
    else this.chunks.push(bytes);
  }
}

/** One buffer of `parts` in order (spilled ones read back); each part is let go once copied (the caller hands them over). */
export function joinBytes(parts: FilePiece[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (isSpilled(p)) p.spill.read(p, 0, out.subarray(o), p.length);
    else out.set(p, o);
    o += p.length;
    parts[i] = EMPTY;
  }
  return out;
}

const EMPTY = new Uint8Array(0);
