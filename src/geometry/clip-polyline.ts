import type { BBox, Ring } from './types.ts';

/**
 * The parts of a polyline inside an axis-aligned box (Liang–Barsky per segment, consecutive
 * inside runs joined), as open polylines. A closed polyline is walked round to its first vertex;
 * when it lies wholly inside it comes back whole and `closed`. Half-open like the tiles: a point
 * exactly on the max edges counts as inside, so neighbouring tiles share the cut point.
 */
export function clipPolylineToBox(points: Ring, closed: boolean, box: BBox): { points: Ring; closed: boolean }[] {
  const n = points.length / 2;
  if (n < 2) return [];
  let inside = true;
  for (let k = 0; k < points.length && inside; k += 2) {
    const x = points[k],
      y = points[k + 1];
    inside = x >= box.minX && x <= box.maxX && y >= box.minY && y <= box.maxY;
  }
  if (inside) return [{ points: points.slice(), closed }];
  const out: { points: Ring; closed: boolean }[] = [];
  let run: Ring = [];
  const segments = closed ? n : n - 1;
  for (let s = 0; s < segments; s++) {
    const a = s,
      b = (s + 1) % n;
    const ax = points[2 * a],
      ay = points[2 * a + 1],
      bx = points[2 * b],
      by = points[2 * b + 1];
    const cut = clipSegment(ax, ay, bx, by, box);
    if (!cut) {
      if (run.length >= 4) out.push({ points: run, closed: false });
      run = [];
      continue;
    }
    const [t0, t1] = cut;
    // The segment's own ends exactly (t·(b − a) can miss b in the last bit and split a run at a vertex).
    const x0 = t0 === 0 ? ax : ax + t0 * (bx - ax),
      y0 = t0 === 0 ? ay : ay + t0 * (by - ay);
    const x1 = t1 === 1 ? bx : ax + t1 * (bx - ax),
      y1 = t1 === 1 ? by : ay + t1 * (by - ay);
    const last = run.length;
    if (last === 0 || run[last - 2] !== x0 || run[last - 1] !== y0) {
      if (run.length >= 4) out.push({ points: run, closed: false });
      run = [x0, y0];
    }
    if (x1 !== x0 || y1 !== y0) run.push(x1, y1);
    if (t1 < 1) {
      if (run.length >= 4) out.push({ points: run, closed: false });
      run = [];
    }
  }
  if (run.length >= 4) out.push({ points: run, closed: false });
  // A closed line that left and came back: its last run continues into its first.
  if (closed && out.length > 1) {
    const first = out[0].points,
      lastRun = out[out.length - 1].points;
    if (lastRun[lastRun.length - 2] === first[0] && lastRun[lastRun.length - 1] === first[1]) {
      out[0] = { points: [...lastRun, ...first.slice(2)], closed: false };
      out.pop();
    }
  }
  return out;
}

/** Parameters [t0, t1] of the part of segment a→b inside the box, or null. */
function clipSegment(ax: number, ay: number, bx: number, by: number, box: BBox): [number, number] | null {
  let t0 = 0,
    t1 = 1;
  const dx = bx - ax,
    dy = by - ay;
  const p = [-dx, dx, -dy, dy];
  const q = [ax - box.minX, box.maxX - ax, ay - box.minY, box.maxY - ay];
  for (let i = 0; i < 4; i++) {
    if (p[i] === 0) {
      if (q[i] < 0) return null;
    } else {
      const r = q[i] / p[i];
      if (p[i] < 0) {
        if (r > t1) return null;
        if (r > t0) t0 = r;
      } else {
        if (r < t0) return null;
        if (r < t1) t1 = r;
      }
    }
  }
  return t1 > t0 ? [t0, t1] : null;
}
