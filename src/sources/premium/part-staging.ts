/**
 * Where a single-file CityJSON import keeps its parts until the file is read: parts may come
 * before the building that owns them, so they wait in a temporary SQLite database on disk (SQLite
 * deletes it on close) rather than in memory, and come back grouped under their root building.
 */
import Database from 'better-sqlite3';
import type { PartResult } from './cityjson-object.ts';
import type { AssemblyInput } from './building-assembly.ts';

export class PartStaging {
  private readonly db = new Database('');
  private readonly insert: Database.Statement;
  private seq = 0;

  constructor() {
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('cache_size = -16384');
    this.db.exec('CREATE TABLE staged (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, parent TEXT, result TEXT NOT NULL); BEGIN');
    this.insert = this.db.prepare('INSERT INTO staged (seq, id, parent, result) VALUES (?, ?, ?, ?)');
  }

  add(id: string, parent: string | null, result: PartResult): void {
    this.insert.run(++this.seq, id, parent, JSON.stringify(result));
  }

  get count(): number {
    return this.seq;
  }

  /** Each root (no parent, or a parent not in the file) with all its descendants, in file order. */
  *groups(): Generator<{ root: AssemblyInput; descendants: AssemblyInput[] }> {
    this.db.exec('COMMIT; CREATE INDEX staged_parent ON staged(parent); CREATE INDEX staged_id ON staged(id)');
    const roots = this.db.prepare(
      `SELECT s.seq, s.id, s.result FROM staged s
       WHERE s.seq > ? AND (s.parent IS NULL OR NOT EXISTS (SELECT 1 FROM staged p WHERE p.id = s.parent))
       ORDER BY s.seq LIMIT 256`,
    );
    const below = this.db.prepare(`
      WITH RECURSIVE tree(seq, id) AS (
        SELECT seq, id FROM staged WHERE parent = ?
        UNION SELECT s.seq, s.id FROM staged s JOIN tree t ON s.parent = t.id
      )
      SELECT s.id, s.result FROM staged s WHERE s.seq IN (SELECT seq FROM tree) ORDER BY s.seq`);
    // pages of roots rather than one open cursor: the connection runs one statement at a time
    for (let after = 0; ; ) {
      const page = roots.all(after) as { seq: number; id: string; result: string }[];
      if (page.length === 0) return;
      for (const row of page) {
        const descendants = (below.all(row.id) as { id: string; result: string }[]).map((d) => ({ id: d.id, result: JSON.parse(d.result) as PartResult }));
        yield { root: { id: row.id, result: JSON.parse(row.result) as PartResult }, descendants };
      }
      after = page[page.length - 1].seq;
    }
  }

  close(): void {
    this.db.close();
  }
}
