import Database from 'better-sqlite3';

/**
 * Where the ground's cells are kept once built (docs/ground.md "The ground cache"): a SQLite file
 * beside the OSM store, one row per (generation, cell). A generation names everything a cell's
 * ground depends on besides its place — the store's version, the ground rules' version and the
 * request's building defaults — so a re-imported store or new rules never serve old ground: their
 * cells are simply other rows, and the oldest rows go first once the file passes its size bound.
 *
 * Every tile worker opens the file itself (WAL: readers never wait for a writer). Two workers
 * building the same cell at once both write it; the second write is ignored.
 */
export class GroundCacheStore {
  private readonly getStatement: Database.Statement;
  private readonly putStatement: Database.Statement;
  private readonly hasStatement: Database.Statement;
  private writes = 0;

  private constructor(
    private readonly db: Database.Database,
    private readonly maxBytes: number,
  ) {
    this.getStatement = db.prepare('SELECT data FROM cells WHERE generation = ? AND i = ? AND j = ?').pluck();
    this.hasStatement = db.prepare('SELECT 1 FROM cells WHERE generation = ? AND i = ? AND j = ?').pluck();
    this.putStatement = db.prepare('INSERT OR IGNORE INTO cells (generation, i, j, data, created) VALUES (?, ?, ?, ?, ?)');
  }

  /** Opens (creating when missing) the cache file; `maxBytes` bounds its size (oldest cells evicted). */
  static open(path: string, maxBytes: number): GroundCacheStore {
    const db = new Database(path, { timeout: 10_000 });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`CREATE TABLE IF NOT EXISTS cells (
      generation TEXT NOT NULL,
      i INTEGER NOT NULL,
      j INTEGER NOT NULL,
      data BLOB NOT NULL,
      created INTEGER NOT NULL,
      PRIMARY KEY (generation, i, j)
    )`);
    db.exec('CREATE INDEX IF NOT EXISTS cells_created ON cells (created)');
    return new GroundCacheStore(db, maxBytes);
  }

  get(generation: string, i: number, j: number): Uint8Array | undefined {
    return this.getStatement.get(generation, i, j) as Buffer | undefined;
  }

  has(generation: string, i: number, j: number): boolean {
    return this.hasStatement.get(generation, i, j) !== undefined;
  }

  put(generation: string, i: number, j: number, data: Uint8Array): void {
    this.putStatement.run(generation, i, j, data, Date.now());
    // the size is checked now and then, not on every write: a page count is cheap but not free
    if (++this.writes % 32 === 0) this.evict();
  }

  /** Number of cells kept (every generation). */
  count(): number {
    return this.db.prepare('SELECT count(*) FROM cells').pluck().get() as number;
  }

  /**
   * Drops the oldest quarter of the cells while the pages in use pass the bound. The freed pages
   * are reused by later cells, so the file stays at its high-water mark, near the bound, without
   * a VACUUM that would stall every reader.
   */
  evict(): void {
    const used = () => {
      const pages = (this.db.pragma('page_count', { simple: true }) as number) - (this.db.pragma('freelist_count', { simple: true }) as number);
      return pages * (this.db.pragma('page_size', { simple: true }) as number);
    };
    for (let round = 0; round < 8 && used() > this.maxBytes; round++) {
      const n = Math.max(1, Math.ceil(this.count() / 4));
      this.db.prepare('DELETE FROM cells WHERE rowid IN (SELECT rowid FROM cells ORDER BY created LIMIT ?)').run(n);
    }
  }

  close(): void {
    this.db.close();
  }
}

const open = new Map<string, GroundCacheStore>();

/** The cache at `path`, opened once per thread. */
export function groundCacheAt(path: string, maxBytes: number): GroundCacheStore {
  let store = open.get(path);
  if (!store) {
    store = GroundCacheStore.open(path, maxBytes);
    open.set(path, store);
  }
  return store;
}
