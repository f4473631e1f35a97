/**
 * Reading OSM tag values the way mappers write them: `;` lists, stray spaces and capitals, `no`
 * meaning "not this". No knowledge of any key here (the area classifier's rules use them).
 */

type Tags = Readonly<Record<string, string>>;

/** The items of a value (`grass; meadow` → [`grass`, `meadow`]), trimmed, lower case, empty items dropped. */
export function valueItems(value: string | undefined): string[] {
  if (value === undefined) return [];
  if (!value.includes(';')) {
    const v = value.trim().toLowerCase();
    return v === '' ? [] : [v];
  }
  return value
    .split(';')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');
}

/** The tag is present and says something other than `no` (`tunnel=yes`, `bridge=viaduct`, `water=pond`). */
export function isSet(tags: Tags, key: string): boolean {
  const items = valueItems(tags[key]);
  return items.length > 0 && !(items.length === 1 && items[0] === 'no');
}

/** One of the value's items is in `set`; returns that item (the first in the value's order), else null. */
export function itemIn(tags: Tags, key: string, set: ReadonlySet<string>): string | null {
  for (const item of valueItems(tags[key])) if (set.has(item)) return item;
  return null;
}

/** A numeric tag (`layer=-1`, `level=-2;-1`, `+1`); null when absent or any item is not a number. */
export function numericItems(value: string | undefined): number[] | null {
  const items = valueItems(value);
  if (items.length === 0) return null;
  const out: number[] = [];
  for (const item of items) {
    if (!/^[+-]?\d+(?:\.\d+)?$/.test(item)) return null;
    out.push(Number(item));
  }
  return out;
}

/** Every item of a numeric tag is below zero. */
export function allNegative(value: string | undefined): boolean {
  const ns = numericItems(value);
  return ns !== null && ns.every((n) => n < 0);
}

/** `layer` as one number for the descriptor (the lowest item of a list); undefined when absent or not numeric. */
export function parseLayer(value: string | undefined): number | undefined {
  const ns = numericItems(value);
  return ns === null ? undefined : Math.min(...ns);
}
