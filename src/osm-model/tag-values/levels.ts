/**
 * OSM level counts (`building:levels`, `building:min_level`, `roof:levels`): a non-negative number,
 * halves allowed (`2.5`, `0,5`). Negative, non-numeric, lists and absurd counts give null. One value
 * only: parseBuildingTags reads `a;b` lists item by item through multi-value.ts.
 */

/** More storeys than any building has. */
export const MAX_LEVELS = 250;

const LEVELS = /^(\d+(?:[.,]\d+)?)$/;

export function parseLevels(value: string | undefined, max = MAX_LEVELS): number | null {
  if (value === undefined) return null;
  const m = LEVELS.exec(value.trim());
  if (!m) return null;
  const levels = Number(m[1].replace(',', '.'));
  return Number.isFinite(levels) && levels <= max ? levels : null;
}
