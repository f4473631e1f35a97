import type { DrapeLattice } from './drape.ts';
import { SPLIT_MIN_GAP, snapToGrid } from './drape.ts';

/**
 * Points closer than this to a terrain edge (metres, across it) count as on it: the draped rings'
 * split points are on the millimetre grid, a hair off their line, and must not be cut again.
 */
export const ON_EDGE_METRES = 0.001;

/** Twice this area (m²) or less is no area at all: a part of a cut that collapsed to a line. */
const NO_AREA = 1e-12;

/** The three families of terrain edges in lattice units: columns, rows, and SW–NE diagonals. */
const FAMILIES = 3;

/**
 * Cuts a plan triangulation along the edges of the terrain's triangles (the lattice's column and
 * row lines and its cells' SW–NE diagonals, ground-sampler.ts), so that every triangle lies in one
 * terrain triangle: draped by the sampler, each is then exactly on the terrain surface, interior
 * included, not only at its vertices. Each triangle is sliced family by family into convex pieces,
 * which are fanned into triangles. New points are put on the millimetre grid (snapToGrid) and
 * shared by value, so two triangles cut along their common side get the same points. A side is not
 * cut within SPLIT_MIN_GAP of its ends (the cut goes through the end instead), the rule `splitRing`
 * follows on the pieces' rings: the boundary of a mesh keeps exactly the points of its outline.
 *
 * `coords` is extended in place with the new points; the returned triangles replace `triangles`.
 * Triangles that the snapping leaves without area are not returned (removeSlivers tidies the rest).
 */
export function splitOnTerrain(coords: number[], triangles: readonly number[], lattice: DrapeLattice): number[] {
  const index = new Map<string, number>();
  for (let i = 0; i < coords.length / 2; i++) index.set(key(coords[2 * i], coords[2 * i + 1]), i);
  const pointId = (x: number, y: number): number => {
    const sx = snapToGrid(x),
      sy = snapToGrid(y);
    const k = key(sx, sy);
    let id = index.get(k);
    if (id === undefined) {
      id = coords.length / 2;
      coords.push(sx, sy);
      index.set(k, id);
    }
    return id;
  };
  const out: number[] = [];
  for (let t = 0; t < triangles.length; t += 3) {
    const ids = [triangles[t], triangles[t + 1], triangles[t + 2]];
    const x = ids.map((i) => coords[2 * i]),
      y = ids.map((i) => coords[2 * i + 1]);
    const side = [0, 1, 2].map((i): Side => segmentSide(x[i], y[i], x[(i + 1) % 3], y[(i + 1) % 3]));
    let pieces: Poly[] = [{ x, y, side }];
    for (let f = 0; f < FAMILIES; f++) {
      const next: Poly[] = [];
      for (const poly of pieces) sliceByFamily(poly, f, lattice, next);
      pieces = next;
    }
    if (pieces.length === 1 && pieces[0].x.length === 3) {
      out.push(ids[0], ids[1], ids[2]); // inside one terrain triangle already
      continue;
    }
    for (const poly of pieces) fan(poly, pointId, coords, out);
  }
  return out;
}

function key(x: number, y: number): string {
  return `${Math.round(x * 1000)},${Math.round(y * 1000)}`;
}

/**
 * What a side of a slice lies on: a side of the input triangle (its ends in a canonical order) or
 * a terrain edge (family f, level k). A cut computes its point from that, not from the slice's own
 * corners, so two triangles sharing a side get bit-identical points on it.
 */
type Side = { line: false; ax: number; ay: number; bx: number; by: number } | { line: true; f: number; k: number };

/** A convex polygon; side[i] runs from point i to point i + 1. */
interface Poly {
  x: number[];
  y: number[];
  side: Side[];
}

function segmentSide(ax: number, ay: number, bx: number, by: number): Side {
  return ax < bx || (ax === bx && ay < by) ? { line: false, ax, ay, bx, by } : { line: false, ax: bx, ay: by, bx: ax, by: ay };
}

/** Lattice coordinate of family f at (x, y): column, row (south), or their sum (the diagonals). */
function level(f: number, x: number, y: number, { ox, oy, step }: DrapeLattice): number {
  return f === 0 ? (x - ox) / step : f === 1 ? (oy - y) / step : (x - ox + oy - y) / step;
}

/** Where terrain edge (f, k) crosses a side (canonically computed; see Side). */
function crossing(side: Side, f: number, k: number, lattice: DrapeLattice): [number, number] {
  if (!side.line) {
    const la = level(f, side.ax, side.ay, lattice),
      lb = level(f, side.bx, side.by, lattice);
    const t = (k - la) / (lb - la);
    return [side.ax + (side.bx - side.ax) * t, side.ay + (side.by - side.ay) * t];
  }
  // two lattice lines: column u, row w, diagonal u + w
  const lines = [
    [side.f, side.k],
    [f, k],
  ].sort((p, q) => p[0] - q[0]);
  const [[f1, k1], [, k2]] = lines;
  const [u, w] = f1 === 0 ? (lines[1][0] === 1 ? [k1, k2] : [k1, k2 - k1]) : [k2 - k1, k1];
  return [lattice.ox + u * lattice.step, lattice.oy - w * lattice.step];
}

/** Area of a polygon, positive counter-clockwise. */
function polygonArea(x: readonly number[], y: readonly number[]): number {
  let a = 0;
  for (let i = 0, n = x.length; i < n; i++) {
    const j = (i + 1) % n;
    a += x[i] * y[j] - x[j] * y[i];
  }
  return a / 2;
}

/** Cuts a convex polygon at every terrain edge of family f strictly inside its range, pushing the slices to `out`. */
function sliceByFamily(poly: Poly, f: number, lattice: DrapeLattice, out: Poly[]): void {
  const tolerance = (f === 2 ? ON_EDGE_METRES * Math.SQRT2 : ON_EDGE_METRES) / lattice.step;
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < poly.x.length; i++) {
    const v = level(f, poly.x[i], poly.y[i], lattice);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  let rest = poly;
  for (let k = Math.ceil(lo + tolerance); k < hi - tolerance; k++) {
    const parts = cut(rest, f, k, tolerance, lattice);
    // a cut that the end rule turned into a chord leaves one part without area: the polygon then
    // stays whole, with the points the cut made on its sides (its neighbours have them too)
    if (polygonArea(parts.below.x, parts.below.y) <= NO_AREA || polygonArea(parts.above.x, parts.above.y) <= NO_AREA) {
      rest = parts.whole;
      continue;
    }
    out.push(parts.below);
    rest = parts.above;
  }
  out.push(rest);
}

/**
 * Splits a convex polygon at terrain edge (f, k): the part at levels ≤ k, the part at ≥ k, and the
 * whole polygon with the points the cut made on its sides. A side crossing the edge within
 * SPLIT_MIN_GAP of one of its ends is cut at that end instead (the end counts as on the edge):
 * both parts take it, so they still tile the polygon and stay convex (all their points lie on its
 * boundary).
 */
function cut(poly: Poly, f: number, k: number, tolerance: number, lattice: DrapeLattice): { below: Poly; above: Poly; whole: Poly } {
  const n = poly.x.length;
  const cls: number[] = poly.x.map((x, i) => {
    const v = level(f, x, poly.y[i], lattice) - k;
    return v < -tolerance ? -1 : v > tolerance ? 1 : 0;
  });
  // each side decides its crossing from its own ends alone (a neighbour sharing the side decides
  // the same); an end rule then counts that end as on the edge for the parts
  const inserted: ([number, number] | null)[] = new Array(n).fill(null);
  const onEdge: boolean[] = new Array(n).fill(false);
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    if (cls[i] === 0 || cls[j] === 0 || cls[i] === cls[j]) continue;
    const [px, py] = crossing(poly.side[i], f, k, lattice);
    if (Math.hypot(px - poly.x[i], py - poly.y[i]) < SPLIT_MIN_GAP) onEdge[i] = true;
    else if (Math.hypot(px - poly.x[j], py - poly.y[j]) < SPLIT_MIN_GAP) onEdge[j] = true;
    else inserted[i] = [px, py];
  }
  for (let i = 0; i < n; i++) if (onEdge[i]) cls[i] = 0;
  const whole: Poly = { x: [], y: [], side: [] };
  const wholeCls: number[] = [];
  for (let i = 0; i < n; i++) {
    whole.x.push(poly.x[i]);
    whole.y.push(poly.y[i]);
    whole.side.push(poly.side[i]);
    wholeCls.push(cls[i]);
    const p = inserted[i];
    if (p) {
      whole.x.push(p[0]);
      whole.y.push(p[1]);
      whole.side.push(poly.side[i]);
      wholeCls.push(0);
    }
  }
  const edge: Side = { line: true, f, k };
  const part = (keep: (c: number) => boolean): Poly => {
    const m = whole.x.length;
    const kept: number[] = [];
    for (let i = 0; i < m; i++) if (keep(wholeCls[i])) kept.push(i);
    const p: Poly = { x: [], y: [], side: [] };
    kept.forEach((i, q) => {
      p.x.push(whole.x[i]);
      p.y.push(whole.y[i]);
      // consecutive on the boundary: the same side; otherwise the part runs along the cut
      p.side.push(kept[(q + 1) % kept.length] === (i + 1) % m ? whole.side[i] : edge);
    });
    return p;
  };
  return { below: part((c) => c <= 0), above: part((c) => c >= 0), whole };
}

/**
 * Triangulates a convex polygon into counter-clockwise triangles of point ids. Points on its sides
 * (where a neighbour was cut) are kept as corners, so no T-junction is left: the fan starts at a
 * corner from which every triangle has area, else at an added centre point.
 */
function fan(poly: Poly, pointId: (x: number, y: number) => number, coords: number[], out: number[]): void {
  const ids: number[] = [],
    at: number[] = [];
  for (let i = 0; i < poly.x.length; i++) {
    const id = pointId(poly.x[i], poly.y[i]);
    if (ids.length > 0 && ids[ids.length - 1] === id) continue;
    ids.push(id);
    at.push(i);
  }
  while (ids.length > 1 && ids[0] === ids[ids.length - 1]) {
    ids.pop();
    at.pop();
  }
  const n = ids.length;
  if (n < 3 || polygonArea(poly.x, poly.y) <= NO_AREA) return;
  // judged on the exact points (collinear points have no area there), emitted on the snapped ones
  const area2 = (p: number, q: number, r: number) => (poly.x[q] - poly.x[p]) * (poly.y[r] - poly.y[p]) - (poly.y[q] - poly.y[p]) * (poly.x[r] - poly.x[p]);
  const snappedArea2 = (p: number, q: number, r: number) =>
    (coords[2 * q] - coords[2 * p]) * (coords[2 * r + 1] - coords[2 * p + 1]) - (coords[2 * q + 1] - coords[2 * p + 1]) * (coords[2 * r] - coords[2 * p]);
  const emit = (p: number, q: number, r: number) => {
    if (snappedArea2(p, q, r) > 0) out.push(p, q, r);
  };
  for (let apex = 0; apex < n; apex++) {
    let ok = true;
    for (let i = 1; i + 1 < n && ok; i++) ok = area2(at[apex], at[(apex + i) % n], at[(apex + i + 1) % n]) > 2 * NO_AREA;
    if (!ok) continue;
    for (let i = 1; i + 1 < n; i++) emit(ids[apex], ids[(apex + i) % n], ids[(apex + i + 1) % n]);
    return;
  }
  let cx = 0,
    cy = 0;
  for (const i of at) {
    cx += poly.x[i] / n;
    cy += poly.y[i] / n;
  }
  const centre = pointId(cx, cy);
  for (let i = 0; i < n; i++) {
    const p = ids[i],
      q = ids[(i + 1) % n];
    if (centre !== p && centre !== q) emit(centre, p, q);
  }
}
