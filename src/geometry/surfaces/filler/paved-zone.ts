import { Clipper, ClipType, EndType, FillRule, JoinType, PolyTree64, type Path64, type Paths64 } from 'clipper2-ts';
import type { BBox, Footprint } from '../../types.ts';
import { CLIPPER_SCALE, ringPath } from '../../planar/clipper-paths.ts';
import { offset } from '../../planar/offset.ts';
import { booleanPieces, pathsOf } from '../../planar/pieces.ts';
import { treePolygons } from '../../planar/poly-tree.ts';

/** A road or path on the ground as its axis: an open polyline (x, y, …) and half its width, sidewalks included. */
export interface FillerRoad {
  points: readonly number[];
  halfWidth: number;
}

/** What decides the filler around a tile: every building and road within FILLER_READ_METRES of it. */
export interface FillerContext {
  /** Footprints of the buildings standing on the ground (those cut out of the ground). */
  buildings: readonly Footprint[];
  /** Roads and paths drawn on the ground (not bridges, not tunnels). */
  roads: readonly FillerRoad[];
}

/**
 * The distances of the rule (metres), docs/ground.md "The filler":
 * - `facadeReach`: ground this close to a building is a forecourt, a yard, a passage — paved;
 * - `roadReach`: ground this close to a road's edge is its verge, paved where built-up;
 * - `builtUpReach`: built-up is within this distance of a building (a country road far from any
 *   house keeps its grass verges);
 * - `courtyardSide`: a space enclosed by buildings (a hole of their union) whose box is at most this
 *   wide is a courtyard — paved, however far from the walls its middle is.
 */
export const FILLER_RULES = { facadeReach: 8, roadReach: 8, builtUpReach: 30, courtyardSide: 80 } as const;

export type FillerRules = { [K in keyof typeof FILLER_RULES]: number };

/**
 * Buildings and roads are needed this far around a tile (metres) for the zone to be the same in
 * every tiling: the farthest any of the rule's distances reaches (a courtyard touching the tile lies
 * within its side of it), plus a margin for the lon/lat box.
 */
export const FILLER_READ_METRES = Math.max(FILLER_RULES.builtUpReach, FILLER_RULES.courtyardSide, FILLER_RULES.facadeReach) + 2;

/** Descriptor of the inferred paved filler. */
export const PAVED_FILLER_DESCRIPTOR = { type: 'pavement', inferred: true } as const;

/**
 * Where the ground that no mapped area covers is paved rather than grass: within `facadeReach` of a
 * building, in a courtyard (a hole of the buildings' union no wider than `courtyardSide`), or
 * within `roadReach` of a road's edge where that is also within `builtUpReach` of a building — the
 * strips between carriageway, sidewalk and façade, yards, courtyards and the corners between
 * streets of a built-up area. Elsewhere (a garden beyond the reach of the house, the country,
 * the middle of an unmapped open space) the filler stays grass.
 *
 * The zone at a point depends only on the buildings and roads within FILLER_READ_METRES of it, so
 * tiles that read that far around themselves compute the same zone along their common edge: the
 * filler's kind does not depend on the tiling. Returned cut to `box` (valid footprints on the
 * millimetre grid); pure, no I/O.
 */
export function pavedZone(context: FillerContext, box: BBox, rules: FillerRules = FILLER_RULES): Footprint[] {
  const buildings = pathsOf(context.buildings);
  const parts: Paths64 = [];
  if (buildings.length > 0) {
    for (const p of offset(buildings, rules.facadeReach * CLIPPER_SCALE)) parts.push(p);
    for (const p of courtyards(buildings, rules.courtyardSide)) parts.push(p);
    const verges = roadVerges(context.roads, rules.roadReach);
    if (verges.length > 0) {
      const builtUp = offset(buildings, rules.builtUpReach * CLIPPER_SCALE);
      for (const p of Clipper.intersect(verges, builtUp, FillRule.NonZero)) parts.push(p);
    }
  }
  if (parts.length === 0) return [];
  return booleanPieces(ClipType.Intersection, parts, [ringPath([box.minX, box.minY, box.maxX, box.minY, box.maxX, box.maxY, box.minX, box.maxY])]);
}

/** Holes of the buildings' union whose box is at most `side` wide, as outer (positive) paths. */
function courtyards(buildings: Paths64, side: number): Paths64 {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, buildings, null, tree, FillRule.NonZero);
  const max = side * CLIPPER_SCALE;
  const out: Paths64 = [];
  for (const polygon of treePolygons(tree)) {
    for (const hole of polygon.holes) {
      const b = Clipper.getBounds(hole);
      if (b.right - b.left > max || b.bottom - b.top > max) continue;
      const p: Path64 = hole.slice();
      if (Clipper.area(p) < 0) p.reverse();
      out.push(p);
    }
  }
  return out;
}

/** The roads grown by their half width plus `reach` (square ends), united; roads of one width in one offset. */
function roadVerges(roads: readonly FillerRoad[], reach: number): Paths64 {
  const byDelta = new Map<number, Paths64>();
  for (const r of roads) {
    if (r.points.length < 4 || !(r.halfWidth >= 0)) continue;
    const delta = Math.round((r.halfWidth + reach) * CLIPPER_SCALE);
    const path: Path64 = [];
    for (let i = 0; i < r.points.length; i += 2) path.push({ x: Math.round(r.points[i] * CLIPPER_SCALE), y: Math.round(r.points[i + 1] * CLIPPER_SCALE) });
    let list = byDelta.get(delta);
    if (!list) byDelta.set(delta, (list = []));
    list.push(path);
  }
  const out: Paths64 = [];
  for (const [delta, paths] of byDelta) for (const p of Clipper.inflatePaths(paths, delta, JoinType.Square, EndType.Square)) out.push(p);
  return out;
}
