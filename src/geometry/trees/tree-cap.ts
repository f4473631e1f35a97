/**
 * The `canopyMaxTrees` cap. Every tree (and shrub) gets a rank from its own position hash or OSM id
 * — surveyed ones in [0, 1), procedural ones in [1, 2), so surveyed trees are kept first — and the
 * request keeps the `cap` lowest ranks. Because ranks are hashes, the trees dropped are a uniform
 * sample of the area, not the last tiles to finish; and because a rank does not depend on the
 * request, one tree is dropped or kept alike by every tile. Tiles run in parallel and cannot
 * count for each other, so they return every rank and the main thread picks the threshold.
 */

/** Rank of a surveyed tree (mapped in OSM) from a hash in [0, 1). */
export function surveyedRank(u: number): number {
  return u;
}

/** Rank of a procedural tree from a hash in [0, 1): after every surveyed tree. */
export function proceduralRank(u: number): number {
  return 1 + u;
}

/**
 * The threshold t such that keeping the ranks < t keeps at most `cap` of them (exactly `cap` unless
 * ranks tie at the cut); Infinity when all fit.
 */
export function capThreshold(ranks: readonly ArrayLike<number>[], cap: number): number {
  let total = 0;
  for (const r of ranks) total += r.length;
  if (total <= cap) return Infinity;
  const all = new Float64Array(total);
  let n = 0;
  for (const r of ranks) for (let k = 0; k < r.length; k++) all[n++] = r[k];
  all.sort();
  return all[cap];
}
