/**
 * Premium meshes built once, at import: the mesh repair costs about a millisecond a part, far more
 * than reading a building, so every building's meshes are built in the same transaction as its
 * import and stored (`building_meshes`), in the stable frame of its anchor — the point inside its
 * footprint that also decides which tile builds it (src/frame/stable-frame.ts) — so a request
 * only moves them into its frame. A store imported before this table existed has no rows: the
 * request builds those buildings itself.
 */
import type Database from 'better-sqlite3';
import type { BuildingMesh } from '../../geometry/buildings/from-osm.ts';
import { buildPremiumBuilding } from '../../geometry/buildings/premium/building-meshes.ts';
import { footprintInteriorPoint } from '../../geometry/buildings/premium-merge.ts';
import { stableFrameAt } from '../../frame/stable-frame.ts';
import { premiumMeshInput } from './mesh-input.ts';
import { decodeBuildingMeshes, encodeBuildingMeshes } from './mesh-codec.ts';
import { buildingOfRow, type BuildingRow, type PremiumDataset } from './store.ts';

const BATCH = 256;

/** Builds and stores the meshes of every building of a dataset (inside the caller's transaction); returns how many buildings. */
export function prepareDatasetMeshes(db: Database.Database, dataset: Pick<PremiumDataset, 'id' | 'name' | 'source'>): number {
  const select = db.prepare(
    'SELECT bid, dataset, source_id, name, lod, roof_type, measured_height, min_z, max_z, parts, footprint, surfaces FROM buildings WHERE dataset = ? AND bid > ? ORDER BY bid LIMIT ?',
  );
  const insert = db.prepare('INSERT OR REPLACE INTO building_meshes (bid, anchor_lon, anchor_lat, mesh) VALUES (?, ?, ?, ?)');
  let last = 0,
    count = 0;
  for (;;) {
    const rows = select.all(dataset.id, last, BATCH) as (BuildingRow & { bid: number })[];
    if (rows.length === 0) return count;
    for (const row of rows) {
      last = row.bid;
      const building = buildingOfRow(row);
      const anchor = footprintInteriorPoint(building.footprint);
      if (!anchor) continue;
      const frame = stableFrameAt(anchor[0], anchor[1]);
      const built = buildPremiumBuilding(premiumMeshInput(building, dataset, frame));
      const [ax, ay] = frame.toLocal(anchor[0], anchor[1]);
      insert.run(row.bid, anchor[0], anchor[1], encodeBuildingMeshes(built.meshes, ax, ay));
      count++;
    }
  }
}

const tables = new WeakMap<Database.Database, boolean>();

/** Whether the store has the table (a read-only handle on an older store may not); asked once per handle. */
export function hasPreparedMeshes(db: Database.Database): boolean {
  let has = tables.get(db);
  if (has === undefined) {
    has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'building_meshes'").get() !== undefined;
    tables.set(db, has);
  }
  return has;
}

export interface PreparedBuilding {
  anchor: [number, number];
  /** Positions in the stable frame of the anchor (stableFrameAt). */
  meshes: BuildingMesh[];
}

/** The prepared meshes of the buildings that have them, by row id. */
export function preparedMeshes(db: Database.Database, bids: readonly number[]): Map<number, PreparedBuilding> {
  const out = new Map<number, PreparedBuilding>();
  if (!hasPreparedMeshes(db)) return out;
  const get = db.prepare('SELECT anchor_lon, anchor_lat, mesh FROM building_meshes WHERE bid = ?');
  for (const bid of bids) {
    const row = get.get(bid) as { anchor_lon: number; anchor_lat: number; mesh: Buffer } | undefined;
    if (!row) continue;
    const [ax, ay] = stableFrameAt(row.anchor_lon, row.anchor_lat).toLocal(row.anchor_lon, row.anchor_lat);
    out.set(bid, { anchor: [row.anchor_lon, row.anchor_lat], meshes: decodeBuildingMeshes(row.mesh, ax, ay) });
  }
  return out;
}
