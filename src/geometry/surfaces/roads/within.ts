import { Clipper, type Paths64 } from 'clipper2-ts';
import { CLIPPER_SCALE } from '../../planar/clipper-paths.ts';
import { flatBounds } from '../../ring.ts';
import type { BBox } from '../../types.ts';
import type { JunctionArm } from './junction.ts';
import { MITRE_LIMIT } from './offset.ts';

/** Metres: the farthest a junction polygon reaches from its node (`within`); acute merges of wide roads are trimmed this far. */
export const JUNCTION_REACH = 150;

/**
 * The tests roadSurfaces runs to build only what meets `within` (a tile): every one answers true
 * without a box. Pure box arithmetic; what they skip cannot reach the box (road-surfaces.ts).
 * A class, not closures made per call: V8 keeps a closure's optimised code only while a closure
 * lives, so per-call closures would be recompiled after every full collection.
 */
export class WithinBox {
  constructor(private readonly within: BBox | undefined) {}

  /** A node close enough for its junction to matter at all. */
  nodeNear(x: number, y: number): boolean {
    const within = this.within;
    return (
      !within ||
      (x >= within.minX - JUNCTION_REACH && x <= within.maxX + JUNCTION_REACH && y >= within.minY - JUNCTION_REACH && y <= within.maxY + JUNCTION_REACH)
    );
  }

  /**
   * Whether a node's junction (and its sidewalk corner) can reach the box: its polygon lies
   * within the longest trim (≤ an arm's cap, along the arm) plus the widest half-width with
   * sidewalks of the node, or within the mitre of two arms' sides across a reflex gap (at most
   * MITRE_LIMIT half-widths from the node: on a short arm, farther than its trim and width) —
   * most nodes around a tile are skipped without building their shape.
   */
  reachesWithin(x: number, y: number, arms: readonly JunctionArm[]): boolean {
    const within = this.within;
    if (!within) return true;
    let reach = 0;
    for (const a of arms) {
      const half = Math.max(a.left, a.right);
      reach = Math.max(reach, a.cap + half, MITRE_LIMIT * half);
    }
    reach += 1;
    const dx = Math.max(within.minX - x, 0, x - within.maxX),
      dy = Math.max(within.minY - y, 0, y - within.maxY);
    return dx * dx + dy * dy <= reach * reach;
  }

  /** Whether flat points grown by `pad` meet the box. */
  meets(pts: Float64Array, pad: number): boolean {
    const within = this.within;
    if (!within) return true;
    const { minX, minY, maxX, maxY } = flatBounds(pts);
    return minX - pad <= within.maxX && maxX + pad >= within.minX && minY - pad <= within.maxY && maxY + pad >= within.minY;
  }

  /** Whether grid paths (Clipper's millimetres) meet the box. */
  pathsMeet(paths: Paths64): boolean {
    const within = this.within;
    if (!within) return true;
    const r = Clipper.getBoundsPaths(paths);
    return (
      r.left <= within.maxX * CLIPPER_SCALE &&
      r.right >= within.minX * CLIPPER_SCALE &&
      r.top <= within.maxY * CLIPPER_SCALE &&
      r.bottom >= within.minY * CLIPPER_SCALE
    );
  }
}

/**
 * Of the pieces set `aside` (away from the box), those that meet the box of the pieces kept: a
 * piece away from the box still cuts one reaching into it (a strip trimmed back past the box lies
 * under the sidewalk corner that reaches out over it).
 */
export function meetingTheirBox<P extends { paths: Paths64 }>(kept: readonly P[], aside: readonly P[]): P[] {
  if (kept.length === 0 || aside.length === 0) return [];
  const reach = Clipper.getBoundsPaths(kept.flatMap((p) => p.paths));
  return aside.filter((p) => {
    const r = Clipper.getBoundsPaths(p.paths);
    return r.left <= reach.right && r.right >= reach.left && r.top <= reach.bottom && r.bottom >= reach.top;
  });
}
