/**
 * Cuts the values of chosen top-level members out of a JSON byte stream (each becomes `null`)
 * before it reaches the tokenizer: the two CityJSON passes each need only part of the file
 * (`vertices` and the small members, then `CityObjects`), and scanning bytes for the end of a
 * value is far cheaper than tokenizing it. Everything is still parsed once, by one of the passes.
 * Pure byte state machine; works across chunk boundaries.
 */
import { Transform } from 'node:stream';

const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COLON = 0x3a,
  COMMA = 0x2c;
const OPEN = new Set([0x7b, 0x5b]);
const CLOSE = new Set([0x7d, 0x5d]);
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const NULL = Buffer.from('null');
const MAX_KEY = 64;

/** A key from its raw bytes between the quotes (escapes decoded); null when too long to be one asked for. */
function keyOf(raw: number[]): string | null {
  if (raw.length > MAX_KEY) return null;
  try {
    return JSON.parse(`"${Buffer.from(raw).toString('utf8')}"`) as string;
  } catch {
    return null;
  }
}

export class JsonMemberFilter extends Transform {
  private depth = 0;
  private inString = false;
  private escape = false;
  private expectKey = false;
  private key: number[] | null = null;
  private lastKey: string | null = null;
  /** Inside a dropped value: its own nesting, and whether it has started / is a string / a bare primitive. */
  private skipping = false;
  private skipDepth = 0;
  private skipStarted = false;
  private skipString = false;
  private skipEscape = false;
  private skipPrimitive = false;

  constructor(private readonly dropKeys: ReadonlySet<string>) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    const out: Buffer[] = [];
    let from = 0;
    let i = 0;
    while (i < chunk.length) {
      const b = chunk[i];
      if (this.skipping) {
        if (this.skipValueByte(b)) {
          this.skipping = false;
          // a bare primitive ends at the byte after it, which is the document's again
          from = this.skipPrimitive ? i : i + 1;
          if (!this.skipPrimitive) i++;
          continue;
        }
        i++;
        continue;
      }
      i++;
      if (this.inString) {
        if (!this.escape && b === QUOTE) {
          this.inString = false;
          if (this.key) this.lastKey = keyOf(this.key);
          this.key = null;
          continue;
        }
        this.escape = !this.escape && b === BACKSLASH;
        if (this.key && this.key.length <= MAX_KEY) this.key.push(b);
        continue;
      }
      if (b === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) {
          this.key = [];
          this.expectKey = false;
        }
      } else if (OPEN.has(b)) {
        this.depth++;
        this.expectKey = this.depth === 1 && b === 0x7b;
      } else if (CLOSE.has(b)) this.depth--;
      else if (b === COMMA && this.depth === 1) this.expectKey = true;
      else if (b === COLON && this.depth === 1 && this.lastKey !== null) {
        const dropped = this.dropKeys.has(this.lastKey);
        this.lastKey = null;
        if (dropped) {
          out.push(chunk.subarray(from, i), NULL);
          this.skipping = true;
          this.skipStarted = this.skipString = this.skipEscape = this.skipPrimitive = false;
          this.skipDepth = 0;
        }
      }
    }
    if (!this.skipping && from < chunk.length) out.push(chunk.subarray(from));
    done(null, out.length === 1 ? out[0] : Buffer.concat(out));
  }

  /** Consumes one byte of a dropped value; true when the value ended (at this byte, or just before it for a bare primitive). */
  private skipValueByte(b: number): boolean {
    if (this.skipString) {
      if (this.skipEscape) this.skipEscape = false;
      else if (b === BACKSLASH) this.skipEscape = true;
      else if (b === QUOTE) {
        this.skipString = false;
        return this.skipDepth === 0;
      }
      return false;
    }
    if (!this.skipStarted) {
      if (isSpace(b)) return false;
      this.skipStarted = true;
      if (OPEN.has(b)) this.skipDepth = 1;
      else if (b === QUOTE) this.skipString = true;
      else this.skipPrimitive = true;
      return false;
    }
    if (this.skipPrimitive) return isSpace(b) || b === COMMA || CLOSE.has(b);
    if (b === QUOTE) this.skipString = true;
    else if (OPEN.has(b)) this.skipDepth++;
    else if (CLOSE.has(b)) return --this.skipDepth === 0;
    return false;
  }
}
