import { CANOPY_DETECT_DEFAULTS, detectionMargin, detectTrees, type CanopyDetectOptions, type CanopyDetectTuning } from '../../geometry/canopy/index.ts';
import { pointInRing } from '../../geometry/ring.ts';
import type { Attribution } from '../../sources/attributions.ts';
import { sharedCanopySource } from '../../sources/canopy/config.ts';
import type { CanopyWindow } from '../../sources/canopy/types.ts';
import type { InstanceTile } from './context.ts';
import type { TreePlan } from './tree-plan.ts';

/** Coverage is counted on a lattice of the request's frame this fine, metres (each sample belongs to one tile). */
export const COVERAGE_SPACING = 5;

/** A detected tree near the tile, in the request's local frame. */
export interface TileTree {
  x: number;
  y: number;
  lon: number;
  lat: number;
  height: number;
  crownDiameter: number;
  /** Lattice cell of the top (stable identity and tie-breaks). */
  key: number;
  /** The lattice's id (its first raster: tops of different lattices are different trees). */
  lattice: string;
  /** Whether this tile returns it (its top in the polygon and in the tile). */
  owned: boolean;
}

/** What a tile knows of the canopy: trees detected around it, where there is data, how much of its area. */
export interface TileCanopy {
  trees: TileTree[];
  /** Whether canopy data covers a lon/lat point (a cell with a value in any raster). */
  covered(lon: number, lat: number): boolean;
  /** Coverage samples the tile owns inside the polygon, how many have data, and whether the tile read any data at all (a polygon smaller than the sample lattice has no samples). */
  samples: { total: number; covered: number; anyData: boolean };
  /** Lon/lat box of the owned samples without data ([west, south, east, north]), null when none. */
  uncovered: [number, number, number, number] | null;
  attributions: Attribution[];
  /** The detection options (with the largest crown radius bound of any raster: the merge's reach). */
  options: CanopyDetectOptions;
}

/**
 * Reads the canopy height model around a tile (its square plus detectionMargin, plus a crown
 * radius for the hybrid merge, on each raster's own pixel grid) and detects the trees there.
 * Tops a later-listed raster finds where an earlier one has data are left to the earlier one.
 */
export async function readTileCanopy(t: InstanceTile, plan: TreePlan, signal?: AbortSignal): Promise<TileCanopy> {
  const request = { minHeight: plan.minHeight, minSpacing: plan.minSpacing };
  const optionsFor = (tuning: CanopyDetectTuning): CanopyDetectOptions => ({ ...CANOPY_DETECT_DEFAULTS, ...tuning, ...request });
  const source = await sharedCanopySource(plan.canopy);
  let windows: CanopyWindow[] = [];
  let options = optionsFor({});
  if (source) {
    const all = source.detections.map(optionsFor);
    options = { ...options, maxCrownRadius: Math.max(...all.map((o) => o.maxCrownRadius)) };
    // hybrid also needs the tops a crown radius around the tile: they may be its surveyed trees
    const pad = Math.max(...all.map((o) => detectionMargin(o, source.maxCellSize))) + (plan.source === 'hybrid' ? options.maxCrownRadius : 0);
    const b = t.tile.lonLatBBox(pad);
    windows = await source.readWindows({ west: b.minLon, south: b.minLat, east: b.maxLon, north: b.maxLat }, signal);
  }
  const covered = (lon: number, lat: number) => windows.some((w) => !Number.isNaN(w.valueAt(lon, lat)));
  const trees: TileTree[] = [];
  windows.forEach((w, k) => {
    const found = detectTrees({ data: w.data, width: w.width, height: w.height, cellSize: w.cellSize, col0: w.col0, row0: w.row0 }, optionsFor(w.detection));
    for (const d of found) {
      const [lon, lat] = w.lonLatOfLattice(d.latticeCol, d.latticeRow);
      if (windows.slice(0, k).some((e) => !Number.isNaN(e.valueAt(lon, lat)))) continue; // an earlier raster's tree
      const [x, y] = t.tile.frame.toLocal(lon, lat);
      trees.push({ x, y, lon, lat, height: d.height, crownDiameter: d.crownDiameter, key: d.key, lattice: w.latticeId, owned: t.takes(x, y) });
    }
  });
  const { samples, uncovered } = coverage(t, windows.length > 0 ? covered : null);
  return { trees, covered, samples, uncovered, attributions: [...new Map(windows.flatMap((w) => w.attributions).map((a) => [a.id, a])).values()], options };
}

/** Counts the coverage samples this tile owns inside the polygon, and where the ones without data are. */
function coverage(t: InstanceTile, covered: ((lon: number, lat: number) => boolean) | null): Pick<TileCanopy, 'samples' | 'uncovered'> {
  const b = t.tile.bbox,
    s = COVERAGE_SPACING;
  let total = 0,
    hits = 0;
  let west = Infinity,
    south = Infinity,
    east = -Infinity,
    north = -Infinity;
  for (let j = Math.floor(b.minY / s); j <= Math.ceil(b.maxY / s); j++) {
    const y = (j + 0.5) * s;
    if (y < b.minY || y > b.maxY) continue;
    for (let i = Math.floor(b.minX / s); i <= Math.ceil(b.maxX / s); i++) {
      const x = (i + 0.5) * s;
      if (x < b.minX || x > b.maxX || !pointInRing(x, y, t.tile.polygon) || !t.tile.owns([x, y])) continue;
      total++;
      const [lon, lat] = t.tile.frame.toLonLat(x, y);
      if (covered?.(lon, lat)) {
        hits++;
        continue;
      }
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  }
  return { samples: { total, covered: hits, anyData: covered !== null }, uncovered: west <= east ? [west, south, east, north] : null };
}
