import type { Path64, PolyPath64 } from 'clipper2-ts';
import type { Footprint, Ring } from '../types.ts';
import { signedArea2 } from '../ring.ts';

/**
 * Clipper on a finer grid than the millimetre one of clipper-paths.ts: 0.01 mm, for unions of
 * rings that are not on the grid (crop/site.ts), whose new points then land within 0.01 mm of
 * the exact ones.
 */
export const FINE_SCALE = 100000;

export function finePath(ring: Ring): Path64 {
  const path: Path64 = [];
  for (let i = 0; i < ring.length; i += 2) path.push({ x: Math.round(ring[i] * FINE_SCALE), y: Math.round(ring[i + 1] * FINE_SCALE) });
  return path;
}

function fineRing(path: Path64, ccw: boolean): Ring {
  const ring: Ring = [];
  for (const p of path) ring.push(p.x / FINE_SCALE, p.y / FINE_SCALE);
  if (signedArea2(ring) > 0 === ccw) return ring;
  const rev: Ring = [];
  for (let i = ring.length - 2; i >= 0; i -= 2) rev.push(ring[i], ring[i + 1]);
  return rev;
}

/**
 * Polygons with holes from a tree on the fine grid (islands in holes are polygons of their own):
 * outer counter-clockwise, holes clockwise, as Clipper wrote them otherwise; those under `minArea`
 * (m², net of holes) are left out.
 */
export function fineTreeFootprints(tree: PolyPath64, minArea: number): Footprint[] {
  const out: Footprint[] = [];
  const visit = (node: PolyPath64) => {
    for (let i = 0; i < node.count; i++) {
      const outer = node.child(i);
      const fp: Footprint = { outer: fineRing(outer.polygon ?? [], true), holes: [] };
      let area = Math.abs(signedArea2(fp.outer)) / 2;
      for (let k = 0; k < outer.count; k++) {
        const hole = outer.child(k);
        fp.holes.push(fineRing(hole.polygon ?? [], false));
        area -= Math.abs(signedArea2(fp.holes[fp.holes.length - 1])) / 2;
        visit(hole);
      }
      if (fp.outer.length >= 6 && area >= minArea) out.push(fp);
    }
  };
  visit(tree);
  return out;
}
