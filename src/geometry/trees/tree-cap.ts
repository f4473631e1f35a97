/**
 * The `canopyMaxTrees` cap. Every tree (and shrub) gets a rank from its OSM id, its measured
 * height or its grid cell — surveyed ones in [0, 1), trees detected in a canopy height model in
 * [1, 2) (tallest first), procedural ones in [2, 3), so surveyed trees are kept first — and the
 * request keeps the `cap` lowest ranks. Procedural ranks follow an ordered dither of the global
 * grid (ditherUnit), so the trees dropped are spread evenly over the area, not the last tiles to
 * finish; and because a rank does not depend on the request, one tree is dropped or kept alike by
 * every tile. Tiles run in parallel and cannot
 * count for each other, so they return every rank and the main thread picks the threshold.
 */

/** Rank of a surveyed tree (mapped in OSM) from a hash in [0, 1). */
export function surveyedRank(u: number): number {
  return u;
}

/**
 * Where a plant of global grid cell (i, j) falls in an ordered dither (a 16 × 16 Bayer matrix),
 * with the hash `u` in [0, 1) ordering plants of one dither level: any threshold then keeps a
 * regular sub-lattice of the cells — the kept plants are evenly spread at every scale down to
 * 16 cells, not just on average — and the choice depends only on the cell.
 */
export function ditherUnit(i: number, j: number, u: number): number {
  const x = i & 15,
    y = (i ^ j) & 15;
  // interleave the bits of (i ^ j) and i, most significant first, then read them reversed
  let v = 0;
  for (let bit = 0; bit < 4; bit++) v |= (((y >> bit) & 1) << (7 - 2 * bit)) | (((x >> bit) & 1) << (6 - 2 * bit));
  return (v + u) / 256;
}

/**
 * Rank of a tree detected from canopy data: after every surveyed tree, before every procedural
 * one, the tallest first (millimetres of height decide; `u` in [0, 1) from the tree's lattice cell
 * orders equal heights), so a cap keeps the trees that shape the skyline.
 */
export function detectedRank(height: number, u: number): number {
  return 1 + 0.999 * (1 - Math.round(Math.min(Math.max(height, 0), 999) * 1000) / 1e6) + 1e-9 * u;
}

/** Rank of a procedural tree from a value in [0, 1) (ditherUnit): after every surveyed and detected tree. */
export function proceduralRank(u: number): number {
  return 2 + u;
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
