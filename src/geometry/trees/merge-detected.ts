/** A tree detected in a canopy height model, in the request's local frame. */
export interface DetectedPoint {
  x: number;
  y: number;
  height: number;
  crownDiameter: number;
  /** Stable identity (lattice cell): orders equal heights. */
  key: number;
}

/** Detected tops closer to a surveyed tree than this are the same tree even when the crown is tiny, metres. */
export const MERGE_MIN_RADIUS = 1;

/**
 * `treeSource: hybrid`: which detected trees are surveyed trees seen from above. A detected top is
 * the same tree as the nearest surveyed tree within its crown radius (at least MERGE_MIN_RADIUS);
 * a surveyed tree takes the measurements of the tallest top that chose it. Each choice looks
 * only at trees within a crown radius, so tiles that see the same neighbourhood agree.
 *
 * `surveyed` is flat [x0, y0, x1, y1, …]. Returns, per detected tree, the surveyed tree it is
 * (−1: none, it stands on its own) and, per surveyed tree, the detected tree it takes its size
 * from (−1: none).
 */
export function mergeDetected(
  surveyed: ArrayLike<number>,
  detected: readonly DetectedPoint[],
  maxRadius: number,
): { sameAs: Int32Array; measuredBy: Int32Array } {
  const ns = surveyed.length / 2;
  const sameAs = new Int32Array(detected.length).fill(-1);
  const measuredBy = new Int32Array(ns).fill(-1);
  if (ns === 0 || detected.length === 0) return { sameAs, measuredBy };
  const cell = Math.max(maxRadius, MERGE_MIN_RADIUS);
  const buckets = new Map<string, number[]>();
  for (let s = 0; s < ns; s++) {
    const k = `${Math.floor(surveyed[2 * s] / cell)},${Math.floor(surveyed[2 * s + 1] / cell)}`;
    (buckets.get(k) ?? buckets.set(k, []).get(k)!).push(s);
  }
  detected.forEach((d, n) => {
    const r = Math.min(Math.max(d.crownDiameter / 2, MERGE_MIN_RADIUS), cell);
    const bx = Math.floor(d.x / cell),
      by = Math.floor(d.y / cell);
    let best = -1,
      bestD = r * r;
    for (let y = by - 1; y <= by + 1; y++)
      for (let x = bx - 1; x <= bx + 1; x++) {
        for (const s of buckets.get(`${x},${y}`) ?? []) {
          const dd = (surveyed[2 * s] - d.x) ** 2 + (surveyed[2 * s + 1] - d.y) ** 2;
          if (dd < bestD || (dd === bestD && best >= 0 && s < best)) {
            bestD = dd;
            best = s;
          }
        }
      }
    if (best < 0) return;
    sameAs[n] = best;
    const m = measuredBy[best];
    if (m < 0 || d.height > detected[m].height || (d.height === detected[m].height && d.key < detected[m].key)) measuredBy[best] = n;
  });
  return { sameAs, measuredBy };
}
