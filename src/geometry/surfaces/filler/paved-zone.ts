import { Clipper, ClipType, EndType, FillRule, JoinType, PolyTree64, type Path64, type Paths64, type Rect64 } from 'clipper2-ts';
import { flatBounds } from '../../ring.ts';
import Flatbush from 'flatbush';
import { clipToBox, overlappingGroups } from '../../planar/boxes.ts';
import type { BBox, Footprint } from '../../types.ts';
import { CLIPPER_SCALE, ringPath } from '../../planar/clipper-paths.ts';
import { offset } from '../../planar/offset.ts';
import { booleanPieces, pathsOf } from '../../planar/pieces.ts';
import { treePolygons, type TreePolygon } from '../../planar/poly-tree.ts';

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
 * - `builtUpReach`: a 20 m stretch of road is built-up when its box comes this close to a
 *   building's box (a country road far from any house keeps its grass verges);
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
 * within `roadReach` of the edge of a built-up stretch of road (a building within `builtUpReach`) — the
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
  const regions = pavedZoneRegions(context, box, rules);
  if (regions.length === 0) return [];
  return booleanPieces(ClipType.Intersection, regions.flat(), [ringPath([box.minX, box.minY, box.maxX, box.minY, box.maxX, box.maxY, box.minX, box.maxY])]);
}

/**
 * The paved zone (pavedZone) as the regions whose union it is, each a set of paths under the
 * NonZero rule (outer rings positive, holes negative) on the millimetre grid: the façades' reach,
 * the courtyards, and the verges of the roads of each width; what reaches into `box`, not cut to it.
 */
export function pavedZoneRegions(context: FillerContext, box: BBox, rules: FillerRules = FILLER_RULES): Paths64[] {
  if (context.buildings.length === 0) return [];
  const courtyards: Paths64 = [];
  // the buildings united first: their courtyards are its holes, and the offset works on blocks
  // instead of every wall twice
  const blocks: Paths64 = [];
  for (const polygon of unitedBuildings(context.buildings)) {
    blocks.push(polygon.outer);
    for (const hole of polygon.holes) {
      blocks.push(hole);
      if (isCourtyard(hole, rules.courtyardSide)) courtyards.push(Clipper.area(hole) < 0 ? hole.slice().reverse() : hole);
    }
  }
  // what lies farther from the box than the offset reaches (mitred corners: twice the distance)
  // cannot grow into it: cut off first, the cut's own sides growing no farther than that
  const margin = Math.ceil((2 * rules.facadeReach + 2) * CLIPPER_SCALE);
  const near: Rect64 = {
    left: Math.floor(box.minX * CLIPPER_SCALE) - margin,
    top: Math.floor(box.minY * CLIPPER_SCALE) - margin,
    right: Math.ceil(box.maxX * CLIPPER_SCALE) + margin,
    bottom: Math.ceil(box.maxY * CLIPPER_SCALE) + margin,
  };
  const regions: Paths64[] = [offset(clipToBox(blocks, near), rules.facadeReach * CLIPPER_SCALE)];
  if (courtyards.length) regions.push(courtyards);
  for (const verges of roadVerges(context.roads, rules, box, buildingBoxes(context.buildings))) regions.push(verges);
  return regions.filter((r) => r.length > 0);
}

/**
 * The union of the buildings, group by group of buildings whose boxes overlap: groups apart
 * cannot touch, and Clipper's sweep costs about the sides times the sides crossing a scanline,
 * so a tile's few blocks of streets united apart cost less than all in one sweep.
 */
function unitedBuildings(buildings: readonly Footprint[]): TreePolygon[] {
  const paths = buildings.map((f) => pathsOf([f])).filter((p) => p.length > 0);
  const out: TreePolygon[] = [];
  for (const group of overlappingGroups(paths.map((p) => Clipper.getBounds(p[0])))) {
    const tree = new PolyTree64();
    Clipper.booleanOpWithPolyTree(
      ClipType.Union,
      group.flatMap((i) => paths[i]),
      null,
      tree,
      FillRule.NonZero,
    );
    for (const polygon of treePolygons(tree)) out.push(polygon);
  }
  return out;
}

/** A hole of the buildings' union is a courtyard when its box is at most `side` wide. */
function isCourtyard(hole: Path64, side: number): boolean {
  const b = Clipper.getBounds(hole);
  const max = side * CLIPPER_SCALE;
  return b.right - b.left <= max && b.bottom - b.top <= max;
}

/** Whether the box of flat points comes within `pad` of `box`. */
function near(points: readonly number[], box: BBox, pad: number): boolean {
  const b = flatBounds(points);
  return b.minX - pad <= box.maxX && b.maxX + pad >= box.minX && b.minY - pad <= box.maxY && b.maxY + pad >= box.minY;
}

/** Stretches of road this long (m, counted from the way's start) are each in a built-up area or not. */
const STRETCH = 20;

/** An index of the buildings' boxes. */
function buildingBoxes(buildings: readonly Footprint[]): Flatbush {
  const index = new Flatbush(buildings.length);
  for (const f of buildings) {
    const b = flatBounds(f.outer);
    index.add(b.minX, b.minY, b.maxX, b.maxY);
  }
  index.finish();
  return index;
}

/**
 * The verges of the roads near the box in a built-up area: each road cut into stretches of
 * STRETCH metres from its start, and a stretch whose box comes within `builtUpReach` of a
 * building's box grown by its half width plus `roadReach`; a run of such stretches is offset as one
 * line (square ends), the runs of one width in one offset: one region per width. The stretches
 * depend on the way alone, so every tile cuts them alike.
 */
function roadVerges(roads: readonly FillerRoad[], rules: FillerRules, box: BBox, buildings: Flatbush): Paths64[] {
  const byDelta = new Map<number, Paths64>();
  const r = rules.builtUpReach;
  for (const road of roads) {
    const p = road.points;
    if (p.length < 4 || !(road.halfWidth >= 0)) continue;
    const pad = road.halfWidth + rules.roadReach + 1;
    if (!near(p, box, pad + STRETCH)) continue;
    const delta = Math.round((road.halfWidth + rules.roadReach) * CLIPPER_SCALE);
    let list = byDelta.get(delta);
    // consecutive built-up stretches are one line: offset apart, each one's square ends overlapped
    // its neighbours' by twice the reach, and the union's sweep spent its time on those crossings
    let run: Path64 | null = null;
    for (const stretch of stretches(p)) {
      const { minX, minY, maxX, maxY } = flatBounds(stretch);
      if (!near(stretch, box, pad) || buildings.search(minX - r, minY - r, maxX + r, maxY + r).length === 0) {
        run = null;
        continue;
      }
      if (!run) {
        if (!list) byDelta.set(delta, (list = []));
        list.push((run = []));
      }
      for (let i = run.length ? 2 : 0; i < stretch.length; i += 2)
        run.push({ x: Math.round(stretch[i] * CLIPPER_SCALE), y: Math.round(stretch[i + 1] * CLIPPER_SCALE) });
    }
  }
  const out: Paths64[] = [];
  for (const [delta, paths] of byDelta) out.push(Clipper.inflatePaths(paths, delta, JoinType.Square, EndType.Square));
  return out;
}

/** A polyline cut into stretches of STRETCH metres measured from its start (the last one shorter). */
function stretches(p: readonly number[]): number[][] {
  const out: number[][] = [];
  let cur: number[] = [p[0], p[1]],
    left = STRETCH;
  for (let i = 2; i < p.length; i += 2) {
    let ax = cur[cur.length - 2],
      ay = cur[cur.length - 1];
    const bx = p[i],
      by = p[i + 1];
    let d = Math.hypot(bx - ax, by - ay);
    while (d > left) {
      const t = left / d;
      const x = ax + (bx - ax) * t,
        y = ay + (by - ay) * t;
      cur.push(x, y);
      out.push(cur);
      cur = [x, y];
      ax = x;
      ay = y;
      d -= left;
      left = STRETCH;
    }
    cur.push(bx, by);
    left -= d;
  }
  if (cur.length >= 4) out.push(cur);
  return out;
}
