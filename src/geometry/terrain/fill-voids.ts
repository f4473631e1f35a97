/**
 * Fills the NaN cells of a row-major grid from their neighbours, in place, so that no hole or
 * spike reaches the output (SRTM voids, GeoTIFF nodata, tiles of a merged grid nobody computed).
 *
 * 1. Onion peeling: each pass sets every hole cell that has valid 8-neighbours to their mean,
 *    using only values from before the pass, so the result does not depend on scan order.
 * 2. Relaxation: a few Jacobi passes average each filled cell with its 4 neighbours, which turns
 *    the onion's terraces into a smooth patch that meets the surrounding ground.
 * Every filled value is a weighted mean of valid values, so it stays within their range.
 *
 * Returns the number of cells left NaN (only when the grid has no valid cell at all).
 */
export function fillVoids(data: Float32Array, width: number, height: number, relaxPasses = 8): number {
  let holes: number[] = [];
  for (let k = 0; k < data.length; k++) if (Number.isNaN(data[k])) holes.push(k);
  if (holes.length === 0) return 0;
  const filled = holes.slice();
  const updates = new Float32Array(holes.length);

  while (holes.length > 0) {
    const remaining: number[] = [];
    const resolved: number[] = [];
    let u = 0;
    for (const k of holes) {
      const mean = neighbourMean(data, width, height, k, true);
      if (Number.isNaN(mean)) remaining.push(k);
      else {
        resolved.push(k);
        updates[u++] = mean;
      }
    }
    if (resolved.length === 0) return remaining.length;
    for (let r = 0; r < resolved.length; r++) data[resolved[r]] = updates[r];
    holes = remaining;
  }

  const next = new Float32Array(filled.length);
  for (let pass = 0; pass < relaxPasses; pass++) {
    for (let f = 0; f < filled.length; f++) next[f] = neighbourMean(data, width, height, filled[f], false);
    for (let f = 0; f < filled.length; f++) data[filled[f]] = next[f];
  }
  return 0;
}

/** Mean of the valid neighbours of cell k (8-neighbourhood when `diagonals`), NaN when none. */
function neighbourMean(data: Float32Array, width: number, height: number, k: number, diagonals: boolean): number {
  const x = k % width,
    y = (k - x) / width;
  let sum = 0,
    count = 0;
  for (let dy = -1; dy <= 1; dy++) {
    const ny = y + dy;
    if (ny < 0 || ny >= height) continue;
    for (let dx = -1; dx <= 1; dx++) {
      if (dx === 0 && dy === 0) continue;
      if (!diagonals && dx !== 0 && dy !== 0) continue;
      const nx = x + dx;
      if (nx < 0 || nx >= width) continue;
      const v = data[ny * width + nx];
      if (!Number.isNaN(v)) {
        sum += v;
        count++;
      }
    }
  }
  return count > 0 ? sum / count : NaN;
}
