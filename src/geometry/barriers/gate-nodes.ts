import type { OsmTags } from '../../osm-model/feature.ts';
import { parseLength } from '../../osm-model/tag-values/length.ts';
import type { BarrierLine } from './types.ts';

/** A way a gate node may stand on, in the local frame. */
export interface HostWay {
  id: string;
  tags: OsmTags;
  points: number[];
  closed: boolean;
}

/** Where a gate node lies on a way, and which way it spans. */
export interface GateSpan {
  line: BarrierLine;
  /** The opening, metres. */
  span: number;
  /** The way the gate stands on (`way/…`). */
  on: string;
  spanSource: 'tag' | 'way' | 'default';
  /** True: the leaf lies along a barrier way (which leaves an opening for it, openings.ts). */
  along: boolean;
}

/** The node counts as a vertex of a way within this distance, metres (one node projects to one point). */
const ON_WAY = 0.001;
const MAX_SPAN = 30;

/**
 * A gate or lift gate mapped as a node on a way (docs/barriers.md "Gates on ways"), as the short
 * line its leaf or boom covers. In a wall or fence the leaf lies along the barrier, filling its
 * opening; on a road or path it lies across the way. The opening is the gate's own `width` (or
 * `maxwidth`), else the road's `width`, else `defaultSpan`. Null when the node is on no way (a
 * free-standing gate has nothing to close).
 */
export function gateSpan(x: number, y: number, tags: OsmTags, ways: readonly HostWay[], defaultSpan: number): GateSpan | null {
  let across: { dx: number; dy: number; way: HostWay } | null = null;
  let along: { dx: number; dy: number; way: HostWay } | null = null;
  for (const way of ways) {
    const dir = directionAt(way, x, y);
    if (!dir) continue;
    if (way.tags.barrier !== undefined && way.tags.highway === undefined) along ??= { ...dir, way };
    else if (way.tags.highway !== undefined) across ??= { ...dir, way };
  }
  const host = along ?? across;
  if (!host) return null;
  const own = parseLength(tags.width, MAX_SPAN) ?? parseLength(tags.maxwidth, MAX_SPAN);
  const road = across ? parseLength(across.way.tags.width, MAX_SPAN) : null;
  const span = own ?? road ?? defaultSpan;
  // along a barrier the leaf follows it; across a road the leaf is turned a quarter
  const [ux, uy] = along ? [host.dx, host.dy] : [-host.dy, host.dx];
  const h = span / 2;
  return {
    line: { points: [x - ux * h, y - uy * h, x + ux * h, y + uy * h], closed: false },
    span,
    on: host.way.id,
    spanSource: own ? 'tag' : road ? 'way' : 'default',
    along: along !== null,
  };
}

/** The way's unit direction at its vertex (x, y) (mean of the two segments there), or null when (x, y) is no vertex of it. */
function directionAt(way: HostWay, x: number, y: number): { dx: number; dy: number } | null {
  const p = way.points,
    n = p.length / 2;
  for (let k = 0; k < n; k++) {
    if (Math.abs(p[2 * k] - x) > ON_WAY || Math.abs(p[2 * k + 1] - y) > ON_WAY) continue;
    let dx = 0,
      dy = 0;
    const add = (a: number, b: number) => {
      const ex = p[2 * b] - p[2 * a],
        ey = p[2 * b + 1] - p[2 * a + 1],
        l = Math.hypot(ex, ey);
      if (l > 0) {
        dx += ex / l;
        dy += ey / l;
      }
    };
    const prev = k > 0 ? k - 1 : way.closed ? n - 1 : -1;
    const next = k < n - 1 ? k + 1 : way.closed ? 0 : -1;
    if (prev >= 0) add(prev, k);
    if (next >= 0) add(k, next);
    const l = Math.hypot(dx, dy);
    // a hairpin at the node: the segment leaving it decides
    if (l < 1e-9) {
      if (next < 0) return null;
      const ex = p[2 * next] - x,
        ey = p[2 * next + 1] - y,
        m = Math.hypot(ex, ey);
      return m > 0 ? { dx: ex / m, dy: ey / m } : null;
    }
    return { dx: dx / l, dy: dy / l };
  }
  return null;
}
