import {
  barrierFeature,
  buildBarrier,
  gateNodeFeature,
  withOpenings,
  BARRIER_LAYERS,
  GATE_HOST_LAYERS,
  type BarrierFeature,
  type BarrierMesh,
} from '../../geometry/barriers/from-osm.ts';
import { gateNodeKind } from '../../geometry/barriers/tags/index.ts';
import { pointInRing } from '../../geometry/ring.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';
import { OSM_ATTRIBUTION } from '../../sources/attributions.ts';
import { featureAnchor } from '../../geometry/anchor.ts';
import type { FeatureFamily, TileContext } from '../family.ts';
import { encodeMeshes } from '../encode-meshes.ts';
import { cropSolids } from '../../geometry/crop/crop-solids.ts';

/** Barriers are read this far around the tile (the lon/lat box of a local square is not exact). */
const EDGE_PAD_METRES = 2;
/** Ways a gate node stands on are read this far around it, degrees (~10 cm; the node is one of their vertices). */
const GATE_HOST_PAD_DEGREES = 1e-6;

/**
 * Barriers (docs/barriers.md; geometry/barriers has the tag parsers, the defaults table and the
 * sweep).
 * Ownership by anchor, like buildings: a barrier that meets the polygon is built whole by the one
 * tile holding its anchor — the first vertex of its line inside the polygon, else the first point
 * where its line crosses the polygon's edge (geometry/anchor.ts featureAnchor; a filled hedge also
 * counts its area) — so every barrier appears exactly once, uncut, whatever the tiling. The
 * anchor lies on the barrier, so the owner always finds it in its own square. A gate mapped as a
 * node on a way is a barrier too (its leaf across the way), owned by the tile holding the node.
 */
export const barriersFamily: FeatureFamily = {
  name: 'barriers',
  group: 'barriers',
  build(tile, out) {
    let t = performance.now();
    const built = tileBarriers(tile);
    const barriers = tile.crop ? cropSolids(built, tile.crop) : built; // cropScene: cut and capped like buildings
    out.timings.barriers = (out.timings.barriers ?? 0) + performance.now() - t;
    t = performance.now();
    out.groups.barriers = encodeMeshes(tile, out, barriers, true, 1 << 14);
    out.timings.barriersEncode = (out.timings.barriersEncode ?? 0) + performance.now() - t;
    out.attributions.push(OSM_ATTRIBUTION);
  },
};

/** The barriers one tile builds, in the local frame (z on tile.ground, or 0). */
export function tileBarriers(tile: TileContext): BarrierMesh[] {
  const out: BarrierMesh[] = [];
  for (const f of tile.source.query(tile.lonLatBBox(EDGE_PAD_METRES), BARRIER_LAYERS)) {
    const b = f.kind === 'point' ? gateNode(tile, f) : barrierFeature(f, tile.frame);
    if (!b || !ownsBarrier(tile, b)) continue;
    const built = buildBarrier(b.tags.shape === 'strip' && !b.node ? withOpenings(b, gatesIn(tile, f)) : b, tile.ground);
    if (!built) continue;
    if (beyondGround(tile, built.mesh.positions)) (built.descriptor.dataNotes ??= []).push(BEYOND_GROUND_NOTE);
    out.push(built);
  }
  return out;
}

/** Whether this tile builds the barrier (it meets the polygon and its anchor is in this tile). */
export function ownsBarrier(tile: Pick<TileContext, 'polygon' | 'owns'>, b: BarrierFeature): boolean {
  const anchor = barrierAnchor(b, tile.polygon);
  return anchor !== null && tile.owns(anchor);
}

const BEYOND_GROUND_NOTE = 'runs past the terrain read around its tile (250 m): the ground there continues the edge heights';

/** Whether a barrier reaches past the terrain grid its tile read (a way of several hundred metres). */
function beyondGround(tile: TileContext, p: Float64Array): boolean {
  const grid = tile.ground?.grids[0];
  if (!grid) return false;
  const b = grid.bbox;
  for (let k = 0; k < p.length; k += 3) if (p[k] < b.minX || p[k] > b.maxX || p[k + 1] < b.minY || p[k + 1] > b.maxY) return true;
  return false;
}

/** A gate node this tile owns, with the ways it stands on read around it; null otherwise (no read). */
function gateNode(tile: TileContext, f: OsmFeature): BarrierFeature | null {
  if (!f.point || !gateNodeKind(f.tags)) return null;
  const [x, y] = tile.frame.toLocal(f.point[0], f.point[1]);
  if (!pointInRing(x, y, tile.polygon) || !tile.owns([x, y])) return null;
  return gateAt(tile, f);
}

/** The gate node as built wherever it is owned (the same leaf and opening in every tile). */
function gateAt(tile: TileContext, f: OsmFeature): BarrierFeature | null {
  const [lon, lat] = f.point!,
    d = GATE_HOST_PAD_DEGREES;
  const hosts = tile.source.query({ minLon: lon - d, minLat: lat - d, maxLon: lon + d, maxLat: lat + d }, GATE_HOST_LAYERS);
  return gateNodeFeature(f, tile.frame, hosts);
}

/** The gates standing in a barrier way: gate nodes that are vertices of it (read over its extent). */
function gatesIn(tile: TileContext, way: OsmFeature): BarrierFeature[] {
  const coords = way.line ?? (way.polygons ?? []).flat(2);
  const vertices = new Set<string>();
  let minLon = Infinity,
    minLat = Infinity,
    maxLon = -Infinity,
    maxLat = -Infinity;
  for (let k = 0; k + 1 < coords.length; k += 2) {
    vertices.add(`${coords[k]},${coords[k + 1]}`);
    minLon = Math.min(minLon, coords[k]);
    maxLon = Math.max(maxLon, coords[k]);
    minLat = Math.min(minLat, coords[k + 1]);
    maxLat = Math.max(maxLat, coords[k + 1]);
  }
  if (!(minLon <= maxLon)) return [];
  const gates: BarrierFeature[] = [];
  for (const p of tile.source.query({ minLon, minLat, maxLon, maxLat }, ['barrier'])) {
    if (p.kind !== 'point' || !p.point || !gateNodeKind(p.tags) || !vertices.has(`${p.point[0]},${p.point[1]}`)) continue;
    const g = gateAt(tile, p);
    if (g) gates.push(g);
  }
  return gates;
}

/** A point of the barrier inside the polygon, or null when the barrier does not meet it. */
export function barrierAnchor(b: BarrierFeature, polygon: number[]): [number, number] | null {
  if (b.node) return pointInRing(b.node.x, b.node.y, polygon) ? [b.node.x, b.node.y] : null;
  if (b.filled)
    return featureAnchor(
      b.lines.map((l) => l.points),
      polygon,
      true,
    );
  for (const line of b.lines) {
    // a ring is walked as a line that returns to its start, so only the wall itself can meet the polygon
    const points = line.closed ? [...line.points, line.points[0], line.points[1]] : line.points;
    const a = featureAnchor([points], polygon, false);
    if (a) return a;
  }
  return null;
}
