import { cleanPoints } from './path.ts';
import type { BarrierLine } from './types.ts';

/** An opening in a barrier line: `half` metres either side of (x, y), measured along the line. */
export interface Opening {
  x: number;
  y: number;
  half: number;
}

/** A vertex matches an opening within this distance, metres (the gate node is a vertex of the way). */
const AT_VERTEX = 0.001;
/** Pieces shorter than this are dropped, metres. */
const MIN_PIECE = 0.05;

/**
 * The line with gaps cut where gates stand in it (a gate node that is a vertex of a wall or fence:
 * the gate's leaf fills the gap, gate-nodes.ts). A cut ring becomes open lines. Openings at no
 * vertex of the line are ignored.
 */
export function cutOpenings(line: BarrierLine, openings: readonly Opening[]): BarrierLine[] {
  if (openings.length === 0) return [line];
  const p = cleanPoints(line.points, line.closed);
  const n = p.length / 2;
  if (n < 2) return [line];
  // arc length along the line; a ring is walked once round back to its start
  const pts = line.closed ? [...p, p[0], p[1]] : p;
  const m = pts.length / 2;
  const s = [0];
  for (let k = 1; k < m; k++) s.push(s[k - 1] + Math.hypot(pts[2 * k] - pts[2 * k - 2], pts[2 * k + 1] - pts[2 * k - 1]));
  const total = s[m - 1];
  const cuts: [number, number][] = [];
  for (const o of openings) {
    for (let k = 0; k < n; k++) {
      if (Math.abs(p[2 * k] - o.x) > AT_VERTEX || Math.abs(p[2 * k + 1] - o.y) > AT_VERTEX) continue;
      const a = s[k] - o.half,
        b = s[k] + o.half;
      if (!line.closed) cuts.push([Math.max(a, 0), Math.min(b, total)]);
      else if (a < 0) cuts.push([a + total, total], [0, b]);
      else if (b > total) cuts.push([a, total], [0, b - total]);
      else cuts.push([a, b]);
    }
  }
  if (cuts.length === 0) return [line];
  cuts.sort((u, v) => u[0] - v[0]);
  const kept: [number, number][] = [];
  let at = 0;
  for (const [a, b] of cuts) {
    if (a > at) kept.push([at, a]);
    at = Math.max(at, b);
  }
  if (at < total) kept.push([at, total]);
  // on a ring the piece that runs through the start joins the one that ends there
  if (line.closed && kept.length > 1 && kept[0][0] === 0 && kept[kept.length - 1][1] === total) {
    const last = kept.pop()!;
    kept[0] = [last[0], total + kept[0][1]];
  }
  const twice = line.closed ? [...pts, ...p.slice(2), p[0], p[1]] : pts;
  const s2 = line.closed ? [...s, ...s.slice(1).map((v) => v + total)] : s;
  return kept.filter(([a, b]) => b - a >= MIN_PIECE).map(([a, b]) => ({ points: sub(twice, s2, a, b), closed: false }));
}

/** The part of an open polyline between arc positions a < b. */
function sub(pts: number[], s: number[], a: number, b: number): number[] {
  const at = (d: number): [number, number] => {
    let k = 1;
    while (k < s.length - 1 && s[k] < d) k++;
    const f = s[k] > s[k - 1] ? (d - s[k - 1]) / (s[k] - s[k - 1]) : 0;
    return [pts[2 * k - 2] + f * (pts[2 * k] - pts[2 * k - 2]), pts[2 * k - 1] + f * (pts[2 * k + 1] - pts[2 * k - 1])];
  };
  const out = [...at(a)];
  for (let k = 0; k < s.length; k++) if (s[k] > a && s[k] < b) out.push(pts[2 * k], pts[2 * k + 1]);
  out.push(...at(b));
  return out;
}
