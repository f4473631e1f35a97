import { cleanPoints, MIN_GAP, type SweepPiece } from './path.ts';

/**
 * A bollard row (barrier=bollard on a way): square posts of side `side` every `spacing` metres
 * along the line, one at each end of an open way, evenly round a closed one. Each post is a
 * two-station piece turned along the line; posts closer than a side plus a gap are dropped so
 * that no two touch.
 */
export function postPieces(points: readonly number[], closed: boolean, side: number, spacing: number): SweepPiece[] {
  const p = cleanPoints(points, closed);
  const n = p.length / 2;
  if (n === 0) return [];
  if (closed && n < 3) closed = false;
  const segs = closed ? n : n - 1;
  const cumulative = [0];
  for (let s = 0; s < segs; s++) {
    const t = (s + 1) % n;
    cumulative.push(cumulative[s] + Math.hypot(p[2 * t] - p[2 * s], p[2 * t + 1] - p[2 * s + 1]));
  }
  const total = cumulative[segs];
  let at: number[];
  if (total === 0) at = [0];
  else if (closed) {
    const count = Math.max(3, Math.round(total / spacing));
    at = Array.from({ length: count }, (_, k) => (k * total) / count);
  } else {
    const count = Math.max(1, Math.round(total / spacing));
    at = Array.from({ length: count + 1 }, (_, k) => (k * total) / count);
  }
  const half = side / 2;
  const kept: [number, number][] = [];
  const pieces: SweepPiece[] = [];
  let s = 0;
  for (const d of at) {
    while (s + 1 < segs && cumulative[s + 1] < d) s++;
    const t = (s + 1) % n;
    const len = segs > 0 ? cumulative[s + 1] - cumulative[s] : 0;
    const dx = len > 0 ? (p[2 * t] - p[2 * s]) / len : 1,
      dy = len > 0 ? (p[2 * t + 1] - p[2 * s + 1]) / len : 0;
    const f = len > 0 ? (d - cumulative[s]) / len : 0;
    const x = p[2 * s] + f * (p[2 * t] - p[2 * s]),
      y = p[2 * s + 1] + f * (p[2 * t + 1] - p[2 * s + 1]);
    if (kept.some(([kx, ky]) => Math.hypot(kx - x, ky - y) < side * Math.SQRT2 + MIN_GAP)) continue;
    kept.push([x, y]);
    pieces.push({
      ring: false,
      stations: [
        { x: x - dx * half, y: y - dy * half, lx: -dy, ly: dx, reach: 0 },
        { x: x + dx * half, y: y + dy * half, lx: -dy, ly: dx, reach: 0 },
      ],
    });
  }
  return pieces;
}
