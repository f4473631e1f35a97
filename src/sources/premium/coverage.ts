/**
 * Where a dataset has buildings: the union of its footprints' outlines grown by COVERAGE_MARGIN
 * metres, simplified, so a request can tell which datasets cover it without reading buildings.
 *
 * Memory follows neither the file nor the dataset: footprints are grouped by tile (TILE_DEGREES,
 * by their first point), grown and unioned per tile in batches, and each tile's running union waits
 * in a temporary on-disk SQLite database. The result is one row per polygon per tile; polygons of
 * neighbouring tiles may overlap where a grown footprint crosses a tile edge, which a coverage test
 * ("is this point in any of them") does not mind.
 */
import Database from 'better-sqlite3';
import { ClipType, Clipper, EndType, FillRule, JoinType, PolyTree64, type Path64, type Paths64 } from 'clipper2-ts';
import { polygonsOf } from './footprint.ts';
import { localMetres, type LocalMetres } from './local-metres.ts';
import type { LonLatPolygons } from './surface-codec.ts';

export const COVERAGE_MARGIN = 30;
/** Largest distance (m) simplification may move the outline: it stays at least MARGIN − this outside the footprints. */
const SIMPLIFY = 5;
const TILE_DEGREES = 0.05;
/** Footprint points waiting in memory before every tile's batch is merged into its stored union. */
const PENDING_POINTS = 200_000;

interface Tile {
  frame: LocalMetres;
  pending: Paths64;
}

export class CoverageBuilder {
  private readonly db = new Database('');
  private readonly load: Database.Statement;
  private readonly save: Database.Statement;
  private readonly tiles = new Map<string, Tile>();
  private pendingPoints = 0;

  constructor() {
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec('CREATE TABLE tile_union (key TEXT PRIMARY KEY, paths TEXT NOT NULL)');
    this.load = this.db.prepare('SELECT paths FROM tile_union WHERE key = ?');
    this.save = this.db.prepare('INSERT OR REPLACE INTO tile_union (key, paths) VALUES (?, ?)');
  }

  /** Adds one footprint (lon/lat polygons). */
  add(polygons: LonLatPolygons): void {
    for (const polygon of polygons) {
      const outer = polygon[0];
      if (!outer || outer.length < 6) continue;
      const tx = Math.floor(outer[0] / TILE_DEGREES),
        ty = Math.floor(outer[1] / TILE_DEGREES);
      const key = `${tx}/${ty}`;
      let tile = this.tiles.get(key);
      if (!tile) {
        tile = { frame: localMetres(tx * TILE_DEGREES, ty * TILE_DEGREES), pending: [] };
        this.tiles.set(key, tile);
      }
      const path: Path64 = [];
      for (let i = 0; i < outer.length; i += 2) {
        const [x, y] = tile.frame.toXY(outer[i], outer[i + 1]);
        path.push({ x: Math.round(x), y: Math.round(y) });
      }
      // holes are left out: a courtyard is covered by the dataset as much as the roof around it
      tile.pending.push(Clipper.area(path) < 0 ? path.reverse() : path);
      this.pendingPoints += path.length;
    }
    if (this.pendingPoints >= PENDING_POINTS) this.flush();
  }

  private flush(): void {
    for (const [key, tile] of this.tiles) {
      if (tile.pending.length === 0) continue;
      const grown = Clipper.inflatePaths(tile.pending, COVERAGE_MARGIN, JoinType.Round, EndType.Polygon, 2, 1);
      tile.pending = [];
      const row = this.load.get(key) as { paths: string } | undefined;
      const stored = row ? (JSON.parse(row.paths) as number[][]).map(pathOf) : [];
      const merged = Clipper.simplifyPaths(Clipper.union(stored, grown, FillRule.NonZero), SIMPLIFY, true);
      this.save.run(key, JSON.stringify(merged.map(flatOf)));
    }
    this.pendingPoints = 0;
  }

  /** Hands every coverage polygon (lon/lat, holes kept) to `write`, tile by tile; then the builder is spent. */
  finish(write: (polygon: LonLatPolygons[number]) => void): void {
    this.flush();
    try {
      for (const [key, tile] of this.tiles) {
        const row = this.load.get(key) as { paths: string } | undefined;
        if (!row) continue;
        const tree = new PolyTree64();
        Clipper.booleanOpWithPolyTree(ClipType.Union, (JSON.parse(row.paths) as number[][]).map(pathOf), null, tree, FillRule.NonZero);
        for (const polygon of polygonsOf(tree, (x, y) => tile.frame.toLonLat(x, y))) write(polygon);
      }
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function flatOf(path: Path64): number[] {
  const out: number[] = [];
  for (const p of path) out.push(p.x, p.y);
  return out;
}

function pathOf(flat: number[]): Path64 {
  const path: Path64 = [];
  for (let i = 0; i < flat.length; i += 2) path.push({ x: flat[i], y: flat[i + 1] });
  return path;
}
