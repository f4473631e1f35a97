/** Planar predicates on points and segments (exact for the inputs as given; no tolerance). */

/** Twice the signed area of triangle abc: > 0 when c lies left of a→b. */
export function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Whether p lies in the bounding box of segment ab (for collinear p: on the segment). */
export function withinBox(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

/** Closed segment intersection test: crossing, touching and overlapping all count. */
export function segmentsIntersect(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  if (Math.max(ax, bx) < Math.min(cx, dx) || Math.max(cx, dx) < Math.min(ax, bx)) return false;
  if (Math.max(ay, by) < Math.min(cy, dy) || Math.max(cy, dy) < Math.min(ay, by)) return false;
  const d1 = orient(cx, cy, dx, dy, ax, ay),
    d2 = orient(cx, cy, dx, dy, bx, by);
  const d3 = orient(ax, ay, bx, by, cx, cy),
    d4 = orient(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && withinBox(cx, cy, dx, dy, ax, ay)) ||
    (d2 === 0 && withinBox(cx, cy, dx, dy, bx, by)) ||
    (d3 === 0 && withinBox(ax, ay, bx, by, cx, cy)) ||
    (d4 === 0 && withinBox(ax, ay, bx, by, dx, dy))
  );
}
