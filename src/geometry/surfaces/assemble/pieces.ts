import { Clipper, ClipType, EndType, FillRule, JoinType, PolyTree64, type Path64, type Paths64, type PolyPath64 } from 'clipper2-ts';
import type { Footprint, Ring } from '../../types.ts';
import { CLIPPER_SCALE, pathRing, ringPath } from '../../clipper-paths.ts';
import { signedArea2 } from '../../ring.ts';

/**
 * Clipper2 plumbing for the ground pieces, on the millimetre grid of src/geometry/clipper-paths.ts.
 *
 * Unlike `footprintsFromTree`, the pieces are taken from Clipper's output as it is (oriented, and
 * only millimetre specks dropped), without the 1 cm vertex cleaning of `normalizeFootprint`: that
 * moves a boundary by up to a centimetre, an overlap with the neighbouring piece; Clipper's own
 * output on the integer grid shares its boundaries with the neighbours vertex for vertex.
 */

/** A footprint's rings as Clipper paths, outer positive and holes negative whatever the input's orientation (NonZero then unions overlapping paths correctly). */
export function orientedPaths(footprint: Footprint, out: Paths64 = []): Paths64 {
  pushOriented(footprint.outer, true, out);
  for (const h of footprint.holes) pushOriented(h, false, out);
  return out;
}

function pushOriented(ring: Ring, positive: boolean, out: Paths64): void {
  if (ring.length < 6) return;
  const path = ringPath(ring);
  if (Clipper.area(path) > 0 !== positive) path.reverse();
  out.push(path);
}

/** Paths of many footprints in one list. */
export function pathsOf(footprints: readonly Footprint[]): Paths64 {
  const out: Paths64 = [];
  for (const f of footprints) orientedPaths(f, out);
  return out;
}

/** Net area of a footprint (outer minus holes), m². */
export function netArea(footprint: Footprint): number {
  let a = Math.abs(signedArea2(footprint.outer));
  for (const h of footprint.holes) a -= Math.abs(signedArea2(h));
  return a / 2;
}

export function totalArea(footprints: readonly Footprint[]): number {
  let a = 0;
  for (const f of footprints) a += netArea(f);
  return a;
}

/** Outer counter-clockwise, holes clockwise, rings of fewer than three vertices or no area left out. */
function orientedRing(path: Path64, ccw: boolean): Ring | null {
  if (path.length < 3) return null;
  const a = Clipper.area(path);
  if (a === 0) return null;
  const ring = pathRing(path);
  if (a > 0 !== ccw) {
    const n = ring.length / 2;
    for (let i = 0, j = n - 1; i < j; i++, j--) {
      const x = ring[2 * i], y = ring[2 * i + 1];
      ring[2 * i] = ring[2 * j]; ring[2 * i + 1] = ring[2 * j + 1];
      ring[2 * j] = x; ring[2 * j + 1] = y;
    }
  }
  return ring;
}

/** A corner whose triangle with its neighbours is under this (m²) and that has a side under SPECK_SIDE is a speck. */
const SPECK_AREA = 4e-6;
const SPECK_SIDE = 0.01;

/**
 * Drops millimetre specks from a ring: corners with a side shorter than a centimetre whose
 * triangle with their neighbours has (almost) no area — the zigzags and needle tips Clipper's
 * rounding leaves where boundaries nearly coincide. They are below the output's precision, and a
 * mesh could only drop them as degenerate triangles, leaving an outline vertex off the mesh. Longer
 * straight runs keep their vertices (a neighbour's corner may stand there). One pass, never two
 * neighbours: each removal changes the ring by its own triangle only (under SPECK_AREA), so the
 * piece cannot creep into its neighbour. Null when the ring collapses.
 */
function dropSpecks(ring: Ring | null): Ring | null {
  if (!ring || ring.length < 8) return ring;
  const n = ring.length / 2;
  const keep: number[] = [];
  let previousDropped = false, firstDropped = false;
  for (let i = 0; i < n; i++) {
    const h = (i + n - 1) % n, j = (i + 1) % n;
    const px = ring[2 * h], py = ring[2 * h + 1], x = ring[2 * i], y = ring[2 * i + 1], nx = ring[2 * j], ny = ring[2 * j + 1];
    const area = Math.abs((x - px) * (ny - py) - (y - py) * (nx - px)) / 2;
    const side = Math.min(Math.hypot(x - px, y - py), Math.hypot(nx - x, ny - y));
    const lastWithFirstDropped = i === n - 1 && firstDropped;
    if (!previousDropped && !lastWithFirstDropped && area < SPECK_AREA && side < SPECK_SIDE && keep.length / 2 + (n - i - 1) >= 3) {
      previousDropped = true;
      if (i === 0) firstDropped = true;
      continue;
    }
    previousDropped = false;
    keep.push(x, y);
  }
  return keep.length >= 6 && signedArea2(keep) !== 0 ? keep : null;
}

/**
 * Polygons with holes from a poly tree, exactly as Clipper wrote them (islands in holes are
 * polygons of their own). Clipper puts crossing points on the integer grid, which on rare
 * millimetre-sized features leaves two sides of a result crossing; such a polygon is rebuilt once
 * (union, positive fill: a tiny reversed lobe goes) so every piece is a valid polygon.
 */
export function piecesFromTree(tree: PolyPath64, minArea = 0, repair = true): Footprint[] {
  const out: Footprint[] = [];
  const visit = (node: PolyPath64) => {
    for (let i = 0; i < node.count; i++) {
      const outerNode = node.child(i);
      const outer = dropSpecks(orientedRing(outerNode.polygon ?? [], true));
      const holes: Ring[] = [];
      for (let k = 0; k < outerNode.count; k++) {
        const holeNode = outerNode.child(k);
        const hole = dropSpecks(orientedRing(holeNode.polygon ?? [], false));
        if (hole) holes.push(hole);
        visit(holeNode);
      }
      if (!outer) continue;
      const fp = { outer, holes };
      if (!(netArea(fp) >= minArea && netArea(fp) > 0)) continue;
      if (repair && hasCrossingSides([outer, ...holes])) for (const f of repairPiece(fp, minArea)) out.push(f);
      else out.push(fp);
    }
  };
  visit(tree);
  return out;
}

/**
 * A piece whose sides cross, rebuilt: united with itself (positive fill, so a tiny reversed lobe
 * goes); when Clipper2 returns the crossing unchanged — it can miss a crossing of two nearly
 * parallel sides — opened by one grid unit instead (shrunk by a millimetre and grown back, an
 * offset Clipper computes from scratch): that drops what is under 2 mm wide, where such crossings
 * are, and never reaches outside the piece (closing would, filling the gap between nearly
 * coincident sides — into the neighbour).
 */
function repairPiece(fp: Footprint, minArea: number): Footprint[] {
  const paths = piecePaths([fp]);
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, paths, null, tree, FillRule.Positive);
  const united = piecesFromTree(tree, minArea, false);
  if (!united.some((f) => hasCrossingSides([f.outer, ...f.holes]))) return united;
  const opened = Clipper.inflatePaths(Clipper.inflatePaths(paths, -1, JoinType.Miter, EndType.Polygon), 1, JoinType.Miter, EndType.Polygon);
  const again = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, opened, null, again, FillRule.Positive);
  return piecesFromTree(again, minArea, false);
}

/** Runs a boolean operation into a poly tree and returns its pieces. */
export function booleanPieces(op: ClipType, subject: Paths64, clip: Paths64 | null, minArea = 0): Footprint[] {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(op, subject, clip, tree, FillRule.NonZero);
  return piecesFromTree(tree, minArea);
}

/** How much further the opening grows back than it shrank, in grid units (5 mm). */
const OVERSHOOT = 5;

/**
 * Morphological opening: the parts of `paths` narrower than `minWidth` (metres) go, the rest keeps
 * its exact boundary (shrink by half the width, grow back, intersect with the original — the
 * opening of the building outline remainder in src/geometry/buildings/parts.ts). Polygons smaller
 * than `minArea` (m²) are dropped too.
 *
 * The shape is grown back OVERSHOOT further than it was shrunk: grown back exactly, its edges would
 * lie within Clipper's rounding (a millimetre) of the original ones, and intersecting two such
 * nearly coincident boundaries leaves millimetre zigzags and self-touching rings along every side.
 */
export function openPieces(paths: Paths64, minWidth: number, minArea: number): Footprint[] {
  if (paths.length === 0) return [];
  if (minWidth <= 0) return booleanPieces(ClipType.Union, paths, null, minArea);
  const half = (minWidth / 2) * CLIPPER_SCALE;
  const shrunk = Clipper.inflatePaths(paths, -half, JoinType.Miter, EndType.Polygon);
  if (shrunk.length === 0) return [];
  const opened = Clipper.inflatePaths(shrunk, half + OVERSHOOT, JoinType.Miter, EndType.Polygon);
  if (opened.length === 0) return [];
  return booleanPieces(ClipType.Intersection, opened, paths, minArea);
}

/** Paths of pieces produced by this module (already oriented on the grid). */
export function piecePaths(pieces: readonly Footprint[], out: Paths64 = []): Paths64 {
  for (const p of pieces) {
    out.push(ringPath(p.outer));
    for (const h of p.holes) out.push(ringPath(h));
  }
  return out;
}

/** True when the footprint is the axis-aligned rectangle it spans (then a box test replaces clipping). */
export function isAxisRectangle(footprint: Footprint): boolean {
  if (footprint.holes.length > 0 || footprint.outer.length !== 8) return false;
  const r = footprint.outer;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    if (r[2 * i] !== r[2 * j] && r[2 * i + 1] !== r[2 * j + 1]) return false;
  }
  return true;
}

/**
 * One valid polygon's paths (outer first, then its holes, as `orientedPaths` makes them) back as a
 * footprint on the millimetre grid, so that it meets the pieces Clipper made without a gap or an
 * overlap. Consecutive duplicate vertices that the rounding made are merged.
 */
export function gridFootprints(paths: Paths64): Footprint[] {
  if (paths.length === 0) return [];
  const rings: Ring[] = [];
  for (let r = 0; r < paths.length; r++) {
    const dedup = paths[r].filter((p, i, a) => { const q = a[(i + a.length - 1) % a.length]; return p.x !== q.x || p.y !== q.y; });
    const ring = orientedRing(dedup, r === 0);
    if (ring) rings.push(ring);
    else if (r === 0) return [];
  }
  return [{ outer: rings[0], holes: rings.slice(1) }];
}

/**
 * True when two sides of the rings cross (each passes strictly through the other) or overlap
 * along a stretch; touching at a shared vertex, as Clipper writes touching rings, is fine. A sweep
 * over the sides sorted by their left end.
 */
export function hasCrossingSides(rings: readonly Ring[]): boolean {
  let total = 0;
  for (const r of rings) total += r.length / 2;
  const x1 = new Float64Array(total), y1 = new Float64Array(total), x2 = new Float64Array(total), y2 = new Float64Array(total);
  let k = 0;
  for (const r of rings) {
    const n = r.length / 2;
    for (let i = 0; i < n; i++, k++) {
      const j = (i + 1) % n;
      x1[k] = r[2 * i]; y1[k] = r[2 * i + 1]; x2[k] = r[2 * j]; y2[k] = r[2 * j + 1];
    }
  }
  if (total <= 3) return false;
  // sides sorted by their left end: sort the left ends packed with the side's number
  const keys = new Float64Array(total);
  for (let i = 0; i < total; i++) keys[i] = Math.min(x1[i], x2[i]);
  const order = Uint32Array.from({ length: total }, (_, i) => i).sort((a, b) => keys[a] - keys[b]);
  for (let a = 0; a < total; a++) {
    const s = order[a];
    const maxX = Math.max(x1[s], x2[s]), minY = Math.min(y1[s], y2[s]), maxY = Math.max(y1[s], y2[s]);
    for (let b = a + 1; b < total; b++) {
      const t = order[b];
      if (Math.min(x1[t], x2[t]) > maxX) break;
      if (Math.max(y1[t], y2[t]) < minY || Math.min(y1[t], y2[t]) > maxY) continue;
      if (sidesCross(x1[s], y1[s], x2[s], y2[s], x1[t], y1[t], x2[t], y2[t])) return true;
    }
  }
  return false;
}

function sidesCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = Math.sign((dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)), d2 = Math.sign((dx - cx) * (by - cy) - (dy - cy) * (bx - cx));
  const d3 = Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)), d4 = Math.sign((bx - ax) * (dy - ay) - (by - ay) * (dx - ax));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  // a vertex strictly inside the other side (a T), or collinear sides sharing a stretch
  const inside = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
    (rx - px) * (qx - rx) + (ry - py) * (qy - ry) > 0; // r strictly between p and q (given collinear)
  if (d1 === 0 && inside(cx, cy, dx, dy, ax, ay)) return true;
  if (d2 === 0 && inside(cx, cy, dx, dy, bx, by)) return true;
  if (d3 === 0 && inside(ax, ay, bx, by, cx, cy)) return true;
  if (d4 === 0 && inside(ax, ay, bx, by, dx, dy)) return true;
  return false;
}
