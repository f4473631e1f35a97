import { Clipper, ClipType, FillRule, PolyTree64 } from 'clipper2-ts';
import type { Footprint } from './types.ts';
import { footprintPaths, footprintsFromTree } from './clipper-paths.ts';
import { normalizeFootprint } from './ring.ts';
import { orient, segmentsIntersect, withinBox } from './segments.ts';

/**
 * Real OSM footprints are sometimes invalid: self-intersecting rings, holes touching or crossing
 * their outer ring. Such input cannot become a closed solid as is, so it is rebuilt as the area it
 * encloses (non-zero winding) with Clipper2 on a millimetre grid, giving valid polygons with holes.
 */

interface Segment { ax: number; ay: number; bx: number; by: number; ring: number; index: number; count: number }

/** True when no two edges of the footprint's rings cross or touch, other than neighbours at their shared corner. */
export function isSimpleFootprint(footprint: Footprint): boolean {
  const rings = [footprint.outer, ...footprint.holes];
  const segs: Segment[] = [];
  rings.forEach((ring, r) => {
    const n = ring.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      segs.push({ ax: ring[2 * i], ay: ring[2 * i + 1], bx: ring[2 * j], by: ring[2 * j + 1], ring: r, index: i, count: n });
    }
  });
  // Sweep and prune on x: only segments whose x ranges overlap are compared.
  segs.sort((s, t) => Math.min(s.ax, s.bx) - Math.min(t.ax, t.bx));
  for (let a = 0; a < segs.length; a++) {
    const s = segs[a];
    const sMaxX = Math.max(s.ax, s.bx);
    for (let b = a + 1; b < segs.length; b++) {
      const t = segs[b];
      if (Math.min(t.ax, t.bx) > sMaxX) break;
      if (Math.max(Math.min(s.ay, s.by), Math.min(t.ay, t.by)) > Math.min(Math.max(s.ay, s.by), Math.max(t.ay, t.by))) continue;
      const neighbours = s.ring === t.ring && (Math.abs(s.index - t.index) === 1 || Math.abs(s.index - t.index) === s.count - 1);
      if (neighbours) {
        if (s.count === 3) continue;
        if (collinearOverlap(s, t)) return false; // a spike folding back on itself
        continue;
      }
      if (segmentsTouch(s, t)) return false;
    }
  }
  return true;
}

function segmentsTouch(s: Segment, t: Segment): boolean {
  return segmentsIntersect(s.ax, s.ay, s.bx, s.by, t.ax, t.ay, t.bx, t.by);
}

/** Adjacent edges sharing a corner overlap when they are collinear and point back over each other. */
function collinearOverlap(s: Segment, t: Segment): boolean {
  const far = [[t.ax, t.ay], [t.bx, t.by]].filter(([x, y]) => !((x === s.ax && y === s.ay) || (x === s.bx && y === s.by)));
  return far.some(([x, y]) => orient(s.ax, s.ay, s.bx, s.by, x, y) === 0 && withinBox(s.ax, s.ay, s.bx, s.by, x, y));
}

/** Rebuilds a footprint as valid polygons with holes (the area its rings enclose, non-zero winding). */
export function repairFootprint(footprint: Footprint): Footprint[] {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, footprintPaths(footprint), null, tree, FillRule.NonZero);
  return footprintsFromTree(tree);
}

/** Normalises a footprint and, when it is not simple, repairs it into valid polygons. */
export function validFootprints(footprint: Footprint): Footprint[] {
  const fp = normalizeFootprint(footprint);
  if (!fp) return [];
  return isSimpleFootprint(fp) ? [fp] : repairFootprint(fp);
}
