import type { BBox, Ring } from '../../types.ts';

/**
 * The part of segment a→b inside the box (boundary included) as [x0, y0, x1, y1, t0, t1], or null
 * (Liang–Barsky). An end inside the box is returned exactly as given (not recomputed as
 * a + 1·(b − a), which can differ from b in the last bit and break a run in two).
 */
export function clipSegment(ax: number, ay: number, bx: number, by: number, box: BBox): [number, number, number, number, number, number] | null {
  if (Math.max(ax, bx) < box.minX || Math.min(ax, bx) > box.maxX || Math.max(ay, by) < box.minY || Math.min(ay, by) > box.maxY) return null;
  let t0 = 0,
    t1 = 1;
  const dx = bx - ax,
    dy = by - ay;
  const p = [-dx, dx, -dy, dy];
  const q = [ax - box.minX, box.maxX - ax, ay - box.minY, box.maxY - ay];
  for (let i = 0; i < 4; i++) {
    if (p[i] === 0) {
      if (q[i] < 0) return null;
      continue;
    }
    const r = q[i] / p[i];
    if (p[i] < 0) {
      if (r > t1) return null;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return null;
      if (r < t1) t1 = r;
    }
  }
  if (!(t1 > t0)) return null;
  const x0 = t0 === 0 ? ax : ax + t0 * dx,
    y0 = t0 === 0 ? ay : ay + t0 * dy;
  const x1 = t1 === 1 ? bx : ax + t1 * dx,
    y1 = t1 === 1 ? by : ay + t1 * dy;
  return [x0, y0, x1, y1, t0, t1];
}

/**
 * The runs of a polyline inside the box (boundary included), in its direction. A closed polyline
 * wholly inside comes back whole and closed; one that leaves the box comes back as open runs from
 * the box's edge to its edge (the run through its first vertex joined across it).
 */
export function clipChainToBox(points: Ring, closed: boolean, box: BBox): { points: Ring; closed: boolean }[] {
  const n = points.length / 2;
  if (n < 2) return [];
  let allInside = true;
  for (let k = 0; k < points.length && allInside; k += 2) {
    allInside = points[k] >= box.minX && points[k] <= box.maxX && points[k + 1] >= box.minY && points[k + 1] <= box.maxY;
  }
  if (allInside) return [{ points: points.slice(), closed }];
  const out: { points: Ring; closed: boolean }[] = [];
  let run: Ring = [];
  const flush = () => {
    if (run.length >= 4) out.push({ points: run, closed: false });
    run = [];
  };
  const segments = closed ? n : n - 1;
  for (let s = 0; s < segments; s++) {
    const e = (s + 1) % n;
    const cut = clipSegment(points[2 * s], points[2 * s + 1], points[2 * e], points[2 * e + 1], box);
    if (!cut) {
      flush();
      continue;
    }
    const [x0, y0, x1, y1, t0, t1] = cut;
    if (t0 > 0 || run.length === 0) {
      flush();
      run = [x0, y0];
    }
    run.push(x1, y1);
    if (t1 < 1) flush();
  }
  flush();
  if (closed && out.length > 1) {
    const first = out[0].points,
      last = out[out.length - 1].points;
    if (last[last.length - 2] === first[0] && last[last.length - 1] === first[1]) {
      out[0] = { points: [...last, ...first.slice(2)], closed: false };
      out.pop();
    }
  }
  return out;
}
