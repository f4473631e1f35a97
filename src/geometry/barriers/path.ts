/**
 * A barrier's line as *stations*: cross-sections the profile is swept through (sweep.ts). Joins
 * are mitred; a join the mitre cannot make cleanly — a turn sharper than the mitre limit, or a
 * mitre that would reach past the middle of a short segment — splits the line into two pieces
 * that overlap at the corner instead (the first runs on by half the width, so the outer corner
 * stays filled). Each piece is one closed tube; a closed way without splits is one ring tube.
 */

/** A cross-section: centre (x, y) and lateral vector (lx, ly): the left edge is centre + halfWidth·l. */
export interface Station {
  x: number;
  y: number;
  lx: number;
  ly: number;
  /** How far along the line the cross-section reaches either side of its centre (mitres; 0 when square). */
  reach: number;
}

export interface SweepPiece {
  stations: Station[];
  /** True: the last station joins the first (closed way, no caps). */
  ring: boolean;
}

/**
 * Lines x = ox + k·step, y = oy + k·step and x − y = ox − oy + k·step: the edges of the terrain's
 * triangles (ground-sampler.ts), where the ground bends. Stations are added where the line crosses
 * them, and between those at most `maxGap` apart (the centre line is on the ground exactly; the
 * stations keep the wall's sides, up to half a width off it, close to the ground as well).
 */
export interface Lattice {
  ox: number;
  oy: number;
  step: number;
  maxGap: number;
}

/** Longest mitre, in half-widths (SVG's default is 4; 2 keeps corners of thick walls tidy: turns up to 120°). */
export const MITRE_LIMIT = 2;
/** Consecutive points closer than this (metres) are one point. */
export const DUPLICATE_DISTANCE = 0.01;
/** Stations are kept at least this far apart along the line (no slivers in millimetre output). */
export const MIN_GAP = 0.05;

/** Finite points without consecutive near-duplicates (nor the closing duplicate of a ring). */
export function cleanPoints(points: readonly number[], closed: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < points.length; i += 2) {
    const x = points[i],
      y = points[i + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    const n = out.length;
    if (n >= 2 && Math.hypot(x - out[n - 2], y - out[n - 1]) < DUPLICATE_DISTANCE) continue;
    out.push(x, y);
  }
  if (closed) {
    while (out.length >= 4 && Math.hypot(out[0] - out[out.length - 2], out[1] - out[out.length - 1]) < DUPLICATE_DISTANCE) out.length -= 2;
  }
  return out;
}

interface Join {
  mitre: boolean;
  lx: number;
  ly: number;
  reach: number;
}

/** The pieces a line of half-width `halfWidth` is swept as. */
export function sweepPieces(points: readonly number[], closed: boolean, halfWidth: number, lattice: Lattice | null = null): SweepPiece[] {
  let p = cleanPoints(points, closed);
  // an open way that ends where it began is a ring (its end caps would meet face to face)
  if (!closed && p.length >= 6 && Math.hypot(p[0] - p[p.length - 2], p[1] - p[p.length - 1]) < DUPLICATE_DISTANCE) {
    p = p.slice(0, -2);
    closed = true;
  }
  const n = p.length / 2;
  if (closed && n < 3) closed = false;
  if (n < 2) return [];
  const segs = closed ? n : n - 1;
  const dx = new Float64Array(segs),
    dy = new Float64Array(segs),
    len = new Float64Array(segs);
  for (let s = 0; s < segs; s++) {
    const t = (s + 1) % n;
    const ex = p[2 * t] - p[2 * s],
      ey = p[2 * t + 1] - p[2 * s + 1];
    len[s] = Math.hypot(ex, ey);
    dx[s] = ex / len[s];
    dy[s] = ey / len[s];
  }
  const join = (a: number, b: number): Join => {
    const c = dx[a] * dx[b] + dy[a] * dy[b];
    const cross = dx[a] * dy[b] - dy[a] * dx[b];
    const reach = (halfWidth * Math.abs(cross)) / (1 + c);
    const mitre = 1 + c >= 2 / (MITRE_LIMIT * MITRE_LIMIT) && reach <= Math.min(len[a], len[b]) / 2 - MIN_GAP;
    return { mitre, lx: (-dy[a] - dy[b]) / (1 + c), ly: (dx[a] + dx[b]) / (1 + c), reach };
  };
  const square = (x: number, y: number, s: number): Station => ({ x, y, lx: -dy[s], ly: dx[s], reach: 0 });

  if (closed) {
    const joins = Array.from({ length: n }, (_, v) => join((v - 1 + n) % n, v));
    // a ring touching itself at a vertex (a figure of eight) is split there
    for (let v = 0; v < n; v++) {
      for (let u = v + 1; u < n; u++) {
        if (Math.hypot(p[2 * u] - p[2 * v], p[2 * u + 1] - p[2 * v + 1]) < MIN_GAP) joins[u].mitre = joins[v].mitre = false;
      }
    }
    const firstSplit = joins.findIndex((j) => !j.mitre);
    if (firstSplit < 0) {
      const stations: Station[] = [];
      for (let v = 0; v < n; v++) {
        const j = joins[v];
        const st = { x: p[2 * v], y: p[2 * v + 1], lx: j.lx, ly: j.ly, reach: j.reach };
        if (v > 0) addBetween(stations, st, lattice);
        stations.push(st);
      }
      addBetween(stations, stations[0], lattice);
      return [{ stations, ring: true }];
    }
    // open walk from a split vertex round to itself
    const order = Array.from({ length: n + 1 }, (_, k) => (firstSplit + k) % n);
    return walk(
      order,
      (k) => order[k - 1],
      (k) => (k < n ? joins[order[k]] : null),
      true,
    );
  }
  const order = Array.from({ length: n }, (_, k) => k);
  return walk(
    order,
    (k) => k - 1,
    (k) => (k < n - 1 ? join(k - 1, k) : null),
    false,
  );

  /** Sweeps the vertices `order`; segIn(k) is the segment arriving at order[k]; joinAt(k) null at the last vertex. */
  function walk(order: number[], segIn: (k: number) => number, joinAt: (k: number) => Join | null, splitEnds: boolean): SweepPiece[] {
    const pieces: SweepPiece[] = [];
    let stations: Station[] = [square(p[2 * order[0]], p[2 * order[0] + 1], segIn(1))];
    for (let k = 1; k < order.length; k++) {
      const v = order[k],
        a = segIn(k);
      const x = p[2 * v],
        y = p[2 * v + 1];
      const j = joinAt(k);
      // a way touching itself splits before the touching vertex, or cross-sections there could coincide
      const nx = k + 1 < order.length ? p[2 * order[k + 1]] : NaN,
        ny = k + 1 < order.length ? p[2 * order[k + 1] + 1] : NaN;
      const touches = stations.some((st) => Math.hypot(st.x - x, st.y - y) < MIN_GAP || Math.hypot(st.x - nx, st.y - ny) < MIN_GAP);
      if (j?.mitre && !touches) {
        const st = { x, y, lx: j.lx, ly: j.ly, reach: j.reach };
        addBetween(stations, st, lattice);
        stations.push(st);
        continue;
      }
      // a split (or the far end of a ring walked open) runs on by half the width; an open end stops square
      const run = j || (splitEnds && k === order.length - 1) ? halfWidth : 0;
      const end = square(x + dx[a] * run, y + dy[a] * run, a);
      addBetween(stations, end, lattice);
      stations.push(end);
      pieces.push({ stations, ring: false });
      if (k + 1 < order.length) stations = [square(x, y, segIn(k + 1))];
    }
    return pieces;
  }
}

/** Adds square stations between the last station and `next` where the line crosses the lattice. */
function addBetween(stations: Station[], next: Station, lattice: Lattice | null): void {
  if (!lattice) return;
  const a = stations[stations.length - 1];
  const ex = next.x - a.x,
    ey = next.y - a.y;
  const length = Math.hypot(ex, ey);
  const lo = a.reach + MIN_GAP,
    hi = length - next.reach - MIN_GAP;
  if (!(hi > lo)) return;
  const ts: number[] = [];
  const crossings = (from: number, delta: number, origin: number) => {
    if (delta === 0) return;
    const k0 = Math.ceil((Math.min(from, from + delta) - origin) / lattice.step);
    const k1 = Math.floor((Math.max(from, from + delta) - origin) / lattice.step);
    for (let k = k0; k <= k1 && k - k0 < 10000; k++) ts.push(((origin + k * lattice.step - from) / delta) * length);
  };
  crossings(a.x, ex, lattice.ox);
  crossings(a.y, ey, lattice.oy);
  crossings(a.x - a.y, ex - ey, lattice.ox - lattice.oy); // the cells' SW–NE diagonals
  ts.push(0, length);
  ts.sort((u, v) => u - v);
  for (let k = ts.length - 1; k > 0; k--) {
    const parts = Math.min(1000, Math.ceil((ts[k] - ts[k - 1]) / lattice.maxGap));
    for (let q = 1; q < parts; q++) ts.push(ts[k - 1] + ((ts[k] - ts[k - 1]) * q) / parts);
  }
  ts.sort((u, v) => u - v);
  const lx = -ey / length,
    ly = ex / length;
  let last = -Infinity;
  for (const d of ts) {
    if (d < lo || d > hi || d - last < MIN_GAP) continue;
    last = d;
    stations.push({ x: a.x + (ex * d) / length, y: a.y + (ey * d) / length, lx, ly, reach: 0 });
  }
}
