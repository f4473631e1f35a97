/**
 * OSM lengths (`height`, `min_height`, `roof:height`): metres by default, with the units people
 * actually tag: `12`, `12.5 m`, `12,5`, `1250 cm`, `40'`, `12'6"`, `12 ft 6 in`, `3 ft`.
 * Negative, non-numeric, ranges, lists and absurd values (above `max`) give null. One value only:
 * parseBuildingTags reads `a;b` lists item by item through multi-value.ts.
 */

const UNIT_METRES: Record<string, number> = {
  '': 1,
  m: 1,
  meter: 1,
  meters: 1,
  metre: 1,
  metres: 1,
  cm: 0.01,
  mm: 0.001,
  km: 1000,
  ft: 0.3048,
  feet: 0.3048,
  foot: 0.3048,
  "'": 0.3048,
  in: 0.0254,
  inch: 0.0254,
  inches: 0.0254,
  '"': 0.0254,
};

/** The largest length accepted, metres: taller than any building, smaller than any typo. */
export const MAX_LENGTH_METRES = 1000;

const NUMBER = String.raw`(\d+(?:[.,]\d+)?|[.,]\d+)`;
const SIMPLE = new RegExp(String.raw`^${NUMBER}\s*(m|meters?|metres?|cm|mm|km|ft|feet|foot|in|inch|inches|'|")?$`);
const FEET_INCHES = new RegExp(String.raw`^${NUMBER}\s*(?:'|ft|feet|foot)\s*${NUMBER}\s*(?:"|''|in|inch|inches)?$`);

function num(text: string): number {
  return Number(text.replace(',', '.'));
}

export function parseLength(value: string | undefined, max = MAX_LENGTH_METRES): number | null {
  if (value === undefined) return null;
  const text = value.trim().toLowerCase();
  let metres: number;
  const feetInches = FEET_INCHES.exec(text);
  const simple = feetInches ? null : SIMPLE.exec(text);
  if (feetInches) {
    const inches = num(feetInches[2]);
    if (inches >= 12) return null;
    metres = num(feetInches[1]) * 0.3048 + inches * 0.0254;
  } else if (simple) {
    metres = num(simple[1]) * UNIT_METRES[simple[2] ?? ''];
  } else {
    return null;
  }
  return Number.isFinite(metres) && metres >= 0 && metres <= max ? metres : null;
}
