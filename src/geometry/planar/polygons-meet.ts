/**
 * Whether two polygons (each a list of flat rings: the first the outer ring, the others holes, no
 * closing point) share any point: a side of one touching or crossing a side of the other, or one
 * lying inside the other. Exact for the inputs as given, in any planar units (lon/lat degrees for a
 * request polygon against a premium dataset's coverage); the cost is the product of their side counts,
 * so callers filter by box first.
 */
import { pointInRing } from '../ring.ts';
import { segmentsIntersect } from '../segments.ts';
import type { Ring } from '../types.ts';

export function polygonsMeet(a: readonly Ring[], b: readonly Ring[]): boolean {
  if (a.length === 0 || b.length === 0 || a[0].length < 6 || b[0].length < 6) return false;
  for (const ra of a) for (const rb of b) if (ringSidesMeet(ra, rb)) return true;
  // no sides meet: one outer ring lies wholly inside the other polygon, or they are apart
  return insidePolygon(a[0][0], a[0][1], b) || insidePolygon(b[0][0], b[0][1], a);
}

/** Inside the outer ring and in none of the holes. */
function insidePolygon(x: number, y: number, rings: readonly Ring[]): boolean {
  if (!pointInRing(x, y, rings[0])) return false;
  for (let h = 1; h < rings.length; h++) if (pointInRing(x, y, rings[h])) return false;
  return true;
}

function ringSidesMeet(p: Ring, q: Ring): boolean {
  const n = p.length / 2,
    m = q.length / 2;
  for (let i = 0; i < n; i++) {
    const j = i + 1 < n ? i + 1 : 0;
    const ax = p[2 * i],
      ay = p[2 * i + 1],
      bx = p[2 * j],
      by = p[2 * j + 1];
    for (let k = 0; k < m; k++) {
      const l = k + 1 < m ? k + 1 : 0;
      if (segmentsIntersect(ax, ay, bx, by, q[2 * k], q[2 * k + 1], q[2 * l], q[2 * l + 1])) return true;
    }
  }
  return false;
}
