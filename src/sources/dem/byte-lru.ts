/**
 * A least-recently-used cache bounded by bytes. Values are promises so that concurrent readers of
 * the same block share one decode; a value's size counts once it has resolved, and a rejected
 * promise is dropped so that a later read can retry.
 */
export class ByteLru<V> {
  private entries = new Map<string, { value: Promise<V>; bytes: number }>();
  private used = 0;
  hits = 0;
  misses = 0;

  constructor(
    public maxBytes: number,
    private sizeOf: (value: V) => number,
  ) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached value for `key`, or the result of `load()`, cached. */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      this.hits++;
      this.entries.delete(key);
      this.entries.set(key, hit); // most recent last
      return hit.value;
    }
    this.misses++;
    const entry = { value: load(), bytes: 0 };
    this.entries.set(key, entry);
    entry.value.then(
      (v) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = this.sizeOf(v);
        this.used += entry.bytes;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.value;
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.used <= this.maxBytes) break;
      if (entry.bytes === 0) continue; // still loading
      this.entries.delete(key);
      this.used -= entry.bytes;
    }
  }
}

/** Decoded, void-filled raster blocks; null marks a block with no data at all (e.g. a missing PNG tile). */
export type CachedBlock = Float32Array | null;

/**
 * One cache per worker thread (module state), shared by every source and request the thread
 * serves. 128 MB holds ~8,000 SRTM3 blocks of 64×64 or a few hundred 256×256 COG blocks.
 */
export const sharedBlockCache = new ByteLru<CachedBlock>(128 * 1024 * 1024, (b) => (b ? b.byteLength : 64));
