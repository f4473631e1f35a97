/**
 * Premium buildings and OSM buildings in one model: which OSM buildings a premium dataset replaces.
 * Decided per OSM building (its outline and parts together) by how much of its footprint lies
 * under premium footprints:
 * - ≥ REPLACE_SHARE: replaced (left out; the premium buildings stand there);
 * - < KEEP_SHARE: kept as it is (a porch or a shed touching a premium building);
 * - in between: kept minus the premium footprints, each remaining piece opened by SLIVER_WIDTH and
 *   dropped when narrower than that or smaller than SLIVER_AREA; when nothing of the outline is
 *   left, the building counts as replaced.
 * Premium buildings are never cut. Everything is computed in the stable frame of the OSM building's
 * interior point (src/frame/stable-frame.ts) from nothing but the two sets of footprints, so the
 * answer is the same for every polygon, origin and tiling. Pure geometry.
 */
import { Clipper, FillRule, type Paths64 } from 'clipper2-ts';
import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import { stableFrameAt } from '../../frame/stable-frame.ts';
import { CLIPPER_SCALE } from '../planar/clipper-paths.ts';
import { openPieces, orientedPaths } from '../planar/pieces.ts';
import type { Footprint } from '../types.ts';
import { interiorPoint } from './parts.ts';

/** Polygons with holes, each [outer, ...holes], each ring flat [lon0, lat0, …] without the closing point. */
export type LonLatPolygons = number[][][];

export const REPLACE_SHARE = 0.5;
export const KEEP_SHARE = 0.1;
/** What is left of a cut OSM building is kept only in pieces at least this wide (metres)… */
export const SLIVER_WIDTH = 2;
/** …and this large (m²). */
export const SLIVER_AREA = 4;

export type MergeDecision =
  | { action: 'keep'; share: number }
  | { action: 'replace'; share: number }
  /** `members`: what is left of each member (principal first, then its parts), empty where nothing is. */
  | { action: 'cut'; share: number; members: LonLatPolygons[] };

const AREA_SCALE = CLIPPER_SCALE * CLIPPER_SCALE;

/**
 * The decision for one OSM building: `members` are the polygons of its principal (outline or lone
 * building) first, then of its parts; `premium` the footprints of the premium buildings near it
 * (any superset of those it meets); `at` its interior point, which picks the frame.
 */
export function osmMergeDecision(members: readonly LonLatPolygons[], premium: readonly LonLatPolygons[], at: readonly [number, number]): MergeDecision {
  if (premium.length === 0) return { action: 'keep', share: 0 };
  const frame = stableFrameAt(at[0], at[1]);
  const memberPaths = members.map((m) => pathsIn(frame, m));
  const osm = memberPaths.flat();
  const total = netArea(Clipper.union(osm, FillRule.NonZero));
  if (!(total > 0)) return { action: 'keep', share: 0 };
  // (a boolean operation unions each side by itself under NonZero: no union of the premium side first)
  const cover = premium.flatMap((p) => pathsIn(frame, p));
  const share = netArea(Clipper.intersect(osm, cover, FillRule.NonZero)) / total;
  if (share >= REPLACE_SHARE) return { action: 'replace', share };
  if (share < KEEP_SHARE) return { action: 'keep', share };
  const left = memberPaths.map((paths) => {
    const rest = Clipper.difference(paths, cover, FillRule.NonZero);
    return openPieces(rest, SLIVER_WIDTH, SLIVER_AREA).map((f) => lonLatPolygon(frame, f));
  });
  if (left[0].length === 0) return { action: 'replace', share };
  return { action: 'cut', share, members: left };
}

/** Area (m²) of `a` (several polygon sets, unioned) that lies under footprint `b`, in the stable frame at `at`. */
export function overlapArea(a: readonly LonLatPolygons[], b: LonLatPolygons, at: readonly [number, number]): number {
  const frame = stableFrameAt(at[0], at[1]);
  return netArea(
    Clipper.intersect(
      a.flatMap((p) => pathsIn(frame, p)),
      pathsIn(frame, b),
      FillRule.NonZero,
    ),
  );
}

/**
 * A point strictly inside a premium building's footprint, the same in every request: inside its
 * largest polygon, found in the stable frame of the footprint's first point. Null for an empty footprint.
 */
export function footprintInteriorPoint(footprint: LonLatPolygons): [number, number] | null {
  const first = footprint[0]?.[0];
  if (!first || first.length < 6) return null;
  const frame = stableFrameAt(first[0], first[1]);
  let best: Footprint | null = null,
    bestArea = -1;
  for (const polygon of footprint) {
    const f: Footprint = { outer: projectFlat(frame, polygon[0]), holes: polygon.slice(1).map((h) => projectFlat(frame, h)) };
    const a = Math.abs(netArea(orientedPaths(f)));
    if (a > bestArea) {
      bestArea = a;
      best = f;
    }
  }
  if (!best) return null;
  const [x, y] = interiorPoint(best);
  return frame.toLonLat(x, y);
}

/** [minLon, minLat, maxLon, maxLat] of polygon sets. */
export function lonLatBox(sets: readonly LonLatPolygons[]): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const set of sets)
    for (const polygon of set)
      for (const ring of polygon)
        for (let k = 0; k < ring.length; k += 2) {
          if (ring[k] < box[0]) box[0] = ring[k];
          if (ring[k + 1] < box[1]) box[1] = ring[k + 1];
          if (ring[k] > box[2]) box[2] = ring[k];
          if (ring[k + 1] > box[3]) box[3] = ring[k + 1];
        }
  return box;
}

export function boxesMeet(a: readonly number[], b: readonly number[]): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

function pathsIn(frame: LocalFrame, polygons: LonLatPolygons): Paths64 {
  const out: Paths64 = [];
  for (const polygon of polygons) {
    if (!polygon[0] || polygon[0].length < 6) continue;
    orientedPaths({ outer: projectFlat(frame, polygon[0]), holes: polygon.slice(1).map((h) => projectFlat(frame, h)) }, out);
  }
  return out;
}

function netArea(paths: Paths64): number {
  let a = 0;
  for (const p of paths) a += Clipper.area(p);
  return a / AREA_SCALE;
}

function lonLatPolygon(frame: LocalFrame, f: Footprint): number[][] {
  const ring = (r: readonly number[]) => {
    const out: number[] = [];
    for (let k = 0; k < r.length; k += 2) out.push(...frame.toLonLat(r[k], r[k + 1]));
    return out;
  };
  return [ring(f.outer), ...f.holes.map(ring)];
}
