/** Spacing of trees along a `natural=tree_row` when nothing says otherwise, metres (street trees stand 6–10 m apart). */
export const TREE_ROW_SPACING = 8;

/**
 * Positions of the trees of a row along its polyline (flat [x0, y0, x1, y1, …]): both ends and
 * evenly between them, as near `spacing` apart as a whole number of gaps allows. A row shorter
 * than a gap is one tree at its middle.
 */
export function treeRowPositions(line: readonly number[], spacing = TREE_ROW_SPACING): [number, number][] {
  const n = line.length / 2;
  if (n < 1) return [];
  const cumulative = [0];
  for (let k = 1; k < n; k++) cumulative.push(cumulative[k - 1] + Math.hypot(line[2 * k] - line[2 * k - 2], line[2 * k + 1] - line[2 * k - 1]));
  const length = cumulative[n - 1];
  if (length < spacing) return [pointAt(line, cumulative, length / 2)];
  const gaps = Math.max(1, Math.round(length / spacing));
  const out: [number, number][] = [];
  for (let g = 0; g <= gaps; g++) out.push(pointAt(line, cumulative, (length * g) / gaps));
  return out;
}

/** The point at arc length `s` along the polyline. */
export function pointAt(line: readonly number[], cumulative: readonly number[], s: number): [number, number] {
  const n = cumulative.length;
  if (n === 1) return [line[0], line[1]];
  let k = 1;
  while (k < n - 1 && cumulative[k] < s) k++;
  const seg = cumulative[k] - cumulative[k - 1];
  const t = seg > 0 ? Math.min(1, Math.max(0, (s - cumulative[k - 1]) / seg)) : 0;
  return [line[2 * k - 2] + t * (line[2 * k] - line[2 * k - 2]), line[2 * k - 1] + t * (line[2 * k + 1] - line[2 * k - 1])];
}
