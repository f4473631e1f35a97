import type { Ring } from '../types.ts';
import { type CropPolygon, insidePolygon } from './crop-polygon.ts';

/**
 * The parts of a polyline inside the polygon (cropScene), as open polylines: every segment is
 * cut where it crosses a polygon edge, the pieces whose midpoint lies inside are kept and
 * consecutive kept pieces joined, so a line that leaves and re-enters comes back as several
 * polylines. A closed polyline wholly inside comes back whole and closed; one that is cut is
 * walked round from a point outside, so its first and last parts are not split at its start.
 * (Lines are not polygons: this is segment arithmetic, exact in doubles, no Clipper grid.)
 */
export function clipPolylineToPolygon(points: Ring, closed: boolean, poly: CropPolygon): { points: Ring; closed: boolean }[] {
  const n = points.length / 2;
  if (n < 2) return [];
  const segments = closed ? n : n - 1;
  // closed lines start at a vertex outside, if any, so a run never wraps past the array's end
  let start = 0;
  if (closed) {
    start = -1;
    for (let i = 0; i < n && start < 0; i++) if (!insidePolygon(poly, points[2 * i], points[2 * i + 1])) start = i;
    if (start < 0 && !crossesAny(points, closed, poly)) return [{ points: points.slice(), closed: true }];
    if (start < 0) start = 0;
  }
  const out: { points: Ring; closed: boolean }[] = [];
  let run: Ring = [];
  const flush = () => {
    if (run.length >= 4) out.push({ points: run, closed: false });
    run = [];
  };
  const ts: number[] = [];
  for (let s = 0; s < segments; s++) {
    const a = (start + s) % n,
      b = (a + 1) % n;
    const ax = points[2 * a],
      ay = points[2 * a + 1],
      bx = points[2 * b],
      by = points[2 * b + 1];
    ts.length = 0;
    ts.push(0);
    crossings(ax, ay, bx, by, poly, ts);
    ts.push(1);
    ts.sort((p, q) => p - q);
    for (let k = 0; k + 1 < ts.length; k++) {
      const t0 = ts[k],
        t1 = ts[k + 1];
      if (t1 - t0 < 1e-12) continue;
      const tm = (t0 + t1) / 2;
      if (!insidePolygon(poly, ax + tm * (bx - ax), ay + tm * (by - ay))) {
        flush();
        continue;
      }
      // endpoints exactly (t = 0, 1), so consecutive kept pieces join
      const x0 = t0 === 0 ? ax : ax + t0 * (bx - ax),
        y0 = t0 === 0 ? ay : ay + t0 * (by - ay);
      const m = run.length;
      if (m === 0 || run[m - 2] !== x0 || run[m - 1] !== y0) {
        flush();
        run.push(x0, y0);
      }
      if (t1 === 1) run.push(bx, by);
      else run.push(ax + t1 * (bx - ax), ay + t1 * (by - ay));
    }
  }
  flush();
  // a closed line cut elsewhere but whose walk started inside: its last part continues into its first
  if (closed && out.length >= 2) {
    const first = out[0].points,
      last = out[out.length - 1].points;
    if (first[0] === last[last.length - 2] && first[1] === last[last.length - 1]) {
      out[0].points = [...last, ...first.slice(2)];
      out.pop();
    }
  }
  return out;
}

/** Parameters t in (0, 1) where segment a→b crosses a polygon edge. */
function crossings(ax: number, ay: number, bx: number, by: number, poly: CropPolygon, out: number[]): void {
  const e = poly.edges,
    dx = bx - ax,
    dy = by - ay;
  const minX = Math.min(ax, bx),
    maxX = Math.max(ax, bx),
    minY = Math.min(ay, by),
    maxY = Math.max(ay, by);
  for (let k = 0; k < poly.n; k++) {
    const o = 8 * k;
    const px = e[o],
      py = e[o + 1],
      qx = e[o + 2],
      qy = e[o + 3];
    if (Math.max(px, qx) < minX || Math.min(px, qx) > maxX || Math.max(py, qy) < minY || Math.min(py, qy) > maxY) continue;
    const ex = qx - px,
      ey = qy - py;
    const den = dx * ey - dy * ex;
    if (den === 0) continue; // parallel: the midpoint test decides
    const t = ((px - ax) * ey - (py - ay) * ex) / den;
    const u = ((px - ax) * dy - (py - ay) * dx) / den;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) out.push(t);
  }
}

function crossesAny(points: Ring, closed: boolean, poly: CropPolygon): boolean {
  const n = points.length / 2,
    ts: number[] = [];
  for (let s = 0; s < (closed ? n : n - 1); s++) {
    const b = (s + 1) % n;
    crossings(points[2 * s], points[2 * s + 1], points[2 * b], points[2 * b + 1], poly, ts);
    if (ts.length > 0) return true;
  }
  return false;
}
