import { Clipper, PointInPolygonResult, type Path64, type Paths64, type Rect64 } from 'clipper2-ts';
import type { Footprint } from '../../types.ts';
import { ringPath } from '../../planar/clipper-paths.ts';
import { grown, inside, overlaps } from '../../planar/boxes.ts';
import { holeRing } from '../../planar/poly-tree.ts';

/**
 * Holes a local operation cannot change, kept out of Clipper's sweep. The base ground is a few
 * polygons with hundreds of holes (buildings, parks, every piece the roads leave inside a block),
 * and cutting a thin part away at one corner swept all of them again. A hole whose box lies
 * FAR_MARGIN clear of every cutter's box is neither cut nor touched: the ground around it stays
 * inside the polygon, so after the operation it is a hole of the piece whose outer ring contains
 * it, exactly as it was.
 */

/** Holes at least this far (grid units, 5 cm) from every cutter's box are far: well beyond rounding (a unit) and the cutters' own margins (2 mm). */
const FAR_MARGIN = 50;

/** Only polygons with at least this many holes are split: for fewer, the sweep is cheap anyway. */
const MIN_HOLES = 8;

/**
 * A polygon's paths (outer first, then its holes) as the outer with the holes near the cutters'
 * boxes, and the far holes; null when there is nothing worth leaving out.
 */
export function splitFarHoles(paths: Paths64, cutters: readonly Rect64[]): { near: Paths64; far: Paths64 } | null {
  if (paths.length <= MIN_HOLES || cutters.length === 0) return null;
  const boxes = cutters.map((b) => grown(b, FAR_MARGIN));
  const near: Paths64 = [paths[0]];
  const far: Paths64 = [];
  const touching = touchingRings(paths);
  for (let i = 1; i < paths.length; i++) {
    const b = Clipper.getBounds(paths[i]);
    (touching[i] || boxes.some((c) => overlaps(b, c)) ? near : far).push(paths[i]);
  }
  return far.length > 0 ? { near, far } : null;
}

/**
 * Gives each far hole back to the piece whose outer ring contains it (pieces are changed in
 * place). False when one fits no piece (then the caller does the whole operation instead).
 */
export function restoreFarHoles(pieces: Footprint[], far: Paths64): boolean {
  const outers = pieces.map((f) => ringPath(f.outer));
  const bounds = outers.map((p) => Clipper.getBounds(p));
  const owner = new Int32Array(far.length);
  for (let h = 0; h < far.length; h++) {
    owner[h] = ownerOf(far[h], outers, bounds);
    if (owner[h] < 0) return false;
  }
  for (let h = 0; h < far.length; h++) {
    const ring = holeRing(far[h]);
    if (ring) pieces[owner[h]].holes.push(ring);
  }
  return true;
}

/**
 * Which rings of a polygon share a vertex with another of its rings. Clipper writes a hole that
 * touches the outer ring or another hole either as rings of their own or joined into one ring
 * touching itself, depending on everything in the sweep: such a hole stays in it, so the pieces
 * are written as the whole sweep writes them.
 */
function touchingRings(paths: Paths64): Uint8Array {
  const out = new Uint8Array(paths.length);
  const seen = new Map<number, number>();
  paths.forEach((p, r) => {
    for (const q of p) {
      const key = q.x * 67_108_864 + q.y;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, r);
      else if (first !== r) {
        out[first] = 1;
        out[r] = 1;
      }
    }
  });
  return out;
}

/**
 * The piece whose outer ring holds the hole: the only one whose box holds it, else the innermost
 * (smallest) one a vertex of the hole lies strictly inside — a piece can lie in another's hole
 * when a cut closes a ring of thin parts around it. −1 when none does.
 */
function ownerOf(hole: Path64, outers: readonly Path64[], bounds: readonly Rect64[]): number {
  const b = Clipper.getBounds(hole);
  let only = -1,
    count = 0;
  for (let i = 0; i < bounds.length; i++)
    if (inside(b, bounds[i])) {
      only = i;
      count++;
    }
  if (count <= 1) return only;
  for (const q of hole) {
    let best = -1,
      bestArea = Infinity,
      on = false;
    for (let i = 0; i < outers.length && !on; i++) {
      if (!inside(b, bounds[i])) continue;
      const at = Clipper.pointInPolygon(q, outers[i]);
      if (at === PointInPolygonResult.IsOn) on = true;
      else if (at === PointInPolygonResult.IsInside) {
        const area = Math.abs(Clipper.area(outers[i]));
        if (area < bestArea) {
          best = i;
          bestArea = area;
        }
      }
    }
    if (!on) return best;
  }
  return -1;
}
