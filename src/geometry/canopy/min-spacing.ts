import type { TopCandidate } from './local-maxima.ts';

/** Whether top a outranks top b: its cell higher, or as high and first in lattice order (measured values only: a refined height could flip a pair). */
export function outranks(a: TopCandidate, b: TopCandidate): boolean {
  return a.cellHeight > b.cellHeight || (a.cellHeight === b.cellHeight && a.key < b.key);
}

/**
 * `canopyMinSpacing`: of two tops closer than `spacingCells`, the lower one goes. Every pair is
 * judged among the candidates (a top goes when any higher candidate is near, even one that goes
 * itself), like the hard-core thinning of the forest fill: a top's fate depends only on the
 * candidates within the spacing, never on a chain of removals across the raster — which is what
 * lets two tiles decide a top near their seam alike.
 */
export function enforceMinSpacing(tops: readonly TopCandidate[], spacingCells: number): TopCandidate[] {
  if (!(spacingCells > 0) || tops.length < 2) return tops.slice();
  const cell = spacingCells;
  const buckets = new Map<number, number[]>();
  const bucketKey = (bx: number, by: number) => by * 1_000_003 + bx;
  tops.forEach((t, n) => {
    const k = bucketKey(Math.floor(t.col / cell), Math.floor(t.row / cell));
    const list = buckets.get(k);
    if (list) list.push(n);
    else buckets.set(k, [n]);
  });
  const s2 = spacingCells * spacingCells;
  const out: TopCandidate[] = [];
  for (const t of tops) {
    const bx = Math.floor(t.col / cell),
      by = Math.floor(t.row / cell);
    let keep = true;
    for (let y = by - 1; y <= by + 1 && keep; y++) {
      for (let x = bx - 1; x <= bx + 1 && keep; x++) {
        for (const n of buckets.get(bucketKey(x, y)) ?? []) {
          const u = tops[n];
          if (u !== t && (u.col - t.col) ** 2 + (u.row - t.row) ** 2 < s2 && outranks(u, t)) {
            keep = false;
            break;
          }
        }
      }
    }
    if (keep) out.push(t);
  }
  return out;
}
