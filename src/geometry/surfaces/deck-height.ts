/**
 * Heights on a bridge deck (docs/ground.md "Bridges, tunnels and heights"): the deck's top at a
 * point, its thickness, and how densely its outlines are split so that a slab made of the pieces'
 * boundary vertices follows the profile between them.
 */
import type { DeckElevation } from './types.ts';

/** A deck is a slab this thick, metres: its underside is this far under its top. */
export const DECK_THICKNESS = 0.8;

/** Deck outlines (and centerlines) get a vertex at least this often, metres: the profile is drawn by them. */
export const DECK_STEP = 2;

/**
 * The deck's top at (x, y). With `axes`: z of the nearest point of any axis in plan (interpolated
 * along its segment); a junction's deck lists its arms' axes, so it meets each strip where the
 * strip's own axis is. Without: linear along start→end, clamped beyond the ends.
 */
export function deckHeight(deck: DeckElevation, x: number, y: number): number {
  if (deck.axes && deck.axes.length > 0) return nearestAxisHeight(deck.axes, x, y);
  const { start, end } = deck;
  const dx = end.x - start.x,
    dy = end.y - start.y;
  const len2 = dx * dx + dy * dy;
  if (!(len2 > 0)) return start.z;
  const t = Math.min(Math.max(((x - start.x) * dx + (y - start.y) * dy) / len2, 0), 1);
  return start.z + (end.z - start.z) * t;
}

function nearestAxisHeight(axes: readonly number[][], x: number, y: number): number {
  let best = Infinity,
    z = 0;
  for (const a of axes) {
    const n = a.length / 3;
    if (n === 1) {
      const d = (a[0] - x) ** 2 + (a[1] - y) ** 2;
      if (d < best) {
        best = d;
        z = a[2];
      }
      continue;
    }
    for (let i = 0; i + 1 < n; i++) {
      const ax = a[3 * i],
        ay = a[3 * i + 1],
        bx = a[3 * i + 3],
        by = a[3 * i + 4];
      const dx = bx - ax,
        dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.min(Math.max(((x - ax) * dx + (y - ay) * dy) / len2, 0), 1) : 0;
      const px = ax + t * dx,
        py = ay + t * dy;
      const d = (px - x) ** 2 + (py - y) ** 2;
      if (d < best) {
        best = d;
        z = a[3 * i + 2] + (a[3 * i + 5] - a[3 * i + 2]) * t;
      }
    }
  }
  return z;
}

/**
 * A ring (or open polyline) with every side longer than `step` split into equal parts no longer
 * than it. The points of a side depend only on the unordered side, so two pieces sharing it split
 * it alike; they are put on the millimetre grid, as the pieces' own vertices are.
 */
export function splitByLength(ring: readonly number[], step: number, closed = true): number[] {
  const n = ring.length / 2;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const ax = ring[2 * i],
      ay = ring[2 * i + 1];
    out.push(ax, ay);
    if (!closed && i === n - 1) break;
    const j = (i + 1) % n;
    const bx = ring[2 * j],
      by = ring[2 * j + 1];
    const parts = Math.ceil(Math.hypot(bx - ax, by - ay) / step);
    const swap = ax > bx || (ax === bx && ay > by);
    const [px, py, qx, qy] = swap ? [bx, by, ax, ay] : [ax, ay, bx, by];
    for (let k = 1; k < parts; k++) {
      const t = (swap ? parts - k : k) / parts;
      out.push(Math.round((px + (qx - px) * t) * 1000) / 1000, Math.round((py + (qy - py) * t) * 1000) / 1000);
    }
  }
  return out;
}
