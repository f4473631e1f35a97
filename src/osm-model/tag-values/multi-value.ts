/**
 * OSM multi-values (`min_height=5;5.5`, `height=12;14`, `building:levels=3;4`): several numbers
 * separated by `;`, usually left by merging two ways or by a building whose sections differ. One
 * number is kept instead of dropping the tag:
 * - bottoms (`min_height`, `building:min_level`) take the **smallest** value, so a part (a bridge
 *   deck, a tower on a podium) reaches down as far as any value says and never floats on a guess;
 * - tops and thicknesses (`height`, `building:levels`, `roof:height`, `roof:levels`) take the
 *   **largest**: `height` is the top of the highest point of what is drawn, so a building tagged
 *   `height=12;14` does reach 14 m somewhere. Together the block spans every value tagged.
 *
 * Every item must parse on its own (with the tag's single-value parser); one bad item (`12;tall`,
 * `12;`) refuses the whole value, which is then ignored like any other nonsense.
 */

export type MultiValuePick = 'smallest' | 'largest';

export interface MultiValue {
  /** The number kept. */
  value: number;
  /** How many distinct numbers the tag held (1 for a plain value or `5;5`). */
  distinct: number;
}

export function parseMultiValued(value: string | undefined, parse: (item: string) => number | null, pick: MultiValuePick): MultiValue | null {
  if (value === undefined) return null;
  if (!value.includes(';')) {
    const n = parse(value);
    return n === null ? null : { value: n, distinct: 1 };
  }
  const items = value.split(';');
  const numbers: number[] = [];
  for (const item of items) {
    const n = parse(item);
    if (n === null) return null;
    numbers.push(n);
  }
  const kept = pick === 'smallest' ? Math.min(...numbers) : Math.max(...numbers);
  return { value: kept, distinct: new Set(numbers).size };
}
