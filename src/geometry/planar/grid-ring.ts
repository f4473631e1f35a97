import type { Footprint, Ring } from '../types.ts';
import { reverseRing, signedArea2 } from '../ring.ts';
import { CLIPPER_SCALE } from './clipper-paths.ts';

/**
 * Normalisation exact on the millimetre grid, for Clipper output: it drops repeated vertices and
 * vertices exactly on the line of their neighbours (spikes included), and nothing else. The
 * general normalizeFootprint (ring.ts) also drops vertices closer than 1 cm and nearly collinear
 * ones, which moves shared edges off each other (slivers between neighbouring pieces) and can make
 * Clipper's valid output cross itself; the result here has the same form (outer
 * counter-clockwise, holes clockwise, clean rings).
 */

/**
 * A ring on the millimetre grid without repeated vertices and without vertices exactly on the line
 * through their neighbours (computed in whole millimetres, so exactly); [] when under 3 corners.
 */
export function cleanGridRing(ring: Ring): Ring {
  const out: number[] = [];
  const turn = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => (bx - ax) * (cy - by) - (by - ay) * (cx - bx);
  for (let i = 0; i < ring.length; i += 2) {
    const x = Math.round(ring[i] * CLIPPER_SCALE),
      y = Math.round(ring[i + 1] * CLIPPER_SCALE);
    let m = out.length;
    if (m >= 2 && out[m - 2] === x && out[m - 1] === y) continue;
    out.push(x, y);
    // while the last three are on one line (a straight run or a spike), drop the middle one
    while ((m = out.length) >= 6 && turn(out[m - 6], out[m - 5], out[m - 4], out[m - 3], out[m - 2], out[m - 1]) === 0) {
      out.splice(m - 4, 2);
      m = out.length;
      if (out[m - 4] === out[m - 2] && out[m - 3] === out[m - 1]) out.length -= 2; // a spike folded onto itself
    }
  }
  // the seam between the last vertex and the first
  let changed = true;
  while (changed && out.length >= 6) {
    changed = false;
    const m = out.length;
    if (out[m - 2] === out[0] && out[m - 1] === out[1]) {
      out.length -= 2;
      changed = true;
    } else if (turn(out[m - 4], out[m - 3], out[m - 2], out[m - 1], out[0], out[1]) === 0) {
      out.length -= 2;
      changed = true;
    } else if (turn(out[m - 2], out[m - 1], out[0], out[1], out[2], out[3]) === 0) {
      out.splice(0, 2);
      changed = true;
    }
  }
  if (out.length < 6) return [];
  return out.map((v) => v / CLIPPER_SCALE);
}

/** Exact clean and orientation: outer counter-clockwise, holes clockwise; null when the outer collapses. */
export function normalizeGridFootprint(fp: Footprint): Footprint | null {
  let outer = cleanGridRing(fp.outer);
  if (outer.length === 0) return null;
  if (signedArea2(outer) < 0) outer = reverseRing(outer);
  const holes: Ring[] = [];
  for (const h of fp.holes) {
    let hole = cleanGridRing(h);
    if (hole.length === 0) continue;
    if (signedArea2(hole) > 0) hole = reverseRing(hole);
    holes.push(hole);
  }
  return { outer, holes };
}
