/** Small predicates on sides and corners of a ring, for the thin-part finder (thin-parts.ts): pure arithmetic on coordinates. */

/** Twice the signed area of triangle a, b, p (positive when p lies left of a→b). */
export function cross(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/** Collinear sides a→b and c→d overlap along a stretch (not just at a point). */
export function sharedStretch(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const ux = bx - ax,
    uy = by - ay,
    len2 = ux * ux + uy * uy;
  if (len2 === 0) return false;
  const tc = ((cx - ax) * ux + (cy - ay) * uy) / len2,
    td = ((dx - ax) * ux + (dy - ay) * uy) / len2;
  return Math.min(1, Math.max(tc, td)) - Math.max(0, Math.min(tc, td)) > 0;
}

/** Corners sharper than this (the cosine of the angle inside) are needles, cut like thin parts. */
const NEEDLE_COS = Math.cos((20 * Math.PI) / 180);

/** Side p→q followed by q→r turning back (towards the inside) at an angle under 20°: a needle's tip. */
export function needle(px: number, py: number, qx: number, qy: number, rx: number, ry: number): boolean {
  const ux = px - qx,
    uy = py - qy,
    vx = rx - qx,
    vy = ry - qy;
  if ((qx - px) * (ry - qy) - (qy - py) * (rx - qx) <= 0) return false;
  return ux * vx + uy * vy > NEEDLE_COS * Math.hypot(ux, uy) * Math.hypot(vx, vy);
}

/** Side p→q followed by q→r going straight back over itself. */
export function foldsBack(px: number, py: number, qx: number, qy: number, rx: number, ry: number): boolean {
  return cross(px, py, qx, qy, rx, ry) === 0 && (qx - px) * (rx - qx) + (qy - py) * (ry - qy) < 0;
}
