/**
 * Where a building or building:part stands relative to the ground, from its OSM tags alone:
 * underground structures (not built as above-ground blocks) and bridge parts (decks held up by
 * `min_height`). Pure predicates; the caller decides what to do with them.
 */

type Tags = Readonly<Record<string, string>>;

/** OSM multi-values (`a;b`), trimmed, lower case, empty items dropped. */
function values(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(';')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');
}

/** One of the value's items is `item` (a cheap substring test first: this runs for every building). */
function hasItem(value: string | undefined, item: string): boolean {
  return value !== undefined && value.toLowerCase().includes(item) && values(value).includes(item);
}

/** Present and not `no` (`tunnel=yes`, `bridge=viaduct`, `indoor=room`, …). */
function set(value: string | undefined): boolean {
  const vs = values(value);
  return vs.length > 0 && !(vs.length === 1 && vs[0] === 'no');
}

/** A number (`-1`, `-2`, `+1`, `-0.5`) or a `;` list of them; null when any item is not one. */
function numbers(value: string | undefined): number[] | null {
  const vs = values(value);
  if (vs.length === 0) return null;
  const out: number[] = [];
  for (const v of vs) {
    if (!/^[+-]?\d+(?:\.\d+)?$/.test(v)) return null;
    out.push(Number(v));
  }
  return out;
}

/** Every value of a numeric tag is below zero (`layer=-1`, `level=-2;-1`). */
function allNegative(value: string | undefined): boolean {
  const ns = numbers(value);
  return ns !== null && ns.every((n) => n < 0);
}

/** `location=*` values that put a structure above ground: never an underground hint. */
const ABOVE_GROUND_LOCATIONS = new Set(['overground', 'surface', 'roof', 'rooftop', 'overhead', 'bridge', 'elevated', 'outdoor', 'platform']);

/**
 * Why a building or building:part is underground (so not an above-ground block), or null when it
 * is an ordinary building. The answer is a short text naming the deciding tags, e.g.
 * `location=underground` or `layer=-1 with tunnel=yes`.
 *
 * Underground on its own (whatever `layer` says):
 * - `location=underground`, also as one item of a multi-value (`location=underground;indoor`);
 * - `building=underground` or `building:part=underground` (rare, but they say it outright).
 *
 * Underground when `layer` is negative (every value of a multi-value below 0) *and* one hint agrees:
 * - `location=*` other than an above-ground value (overground, surface, roof, rooftop, overhead,
 *   bridge, elevated, outdoor, platform): e.g. `basement`, `subway`, `underwater`, `indoor`;
 * - `tunnel=*` other than `no` (a building in a tunnel, a covered passage below street level);
 * - `indoor=*` other than `no` (indoor mapping of a basement);
 * - `level=*` entirely below 0 (`level=-1`, `level=-2;-1`);
 * - `parking=underground` (a car park drawn with a building tag; without `layer` < 0 the outline
 *   is often the above-ground structure over it, so that alone is not enough).
 *
 * Plain `layer=-1` without any hint stays a building: OSM uses `layer` for the drawing order of
 * crossing features (a building under a bridge or a highway ramp), not as a statement that the
 * building is below ground. Likewise a hint without a negative layer (`tunnel=building_passage`
 * on a building with a passage through it, `indoor=yes` on an ordinary outline) is not enough.
 */
export function undergroundReason(tags: Tags): string | null {
  if (hasItem(tags.location, 'underground')) return `location=${tags.location}`;
  if (hasItem(tags.building, 'underground')) return `building=${tags.building}`;
  if (hasItem(tags['building:part'], 'underground')) return `building:part=${tags['building:part']}`;
  if (!allNegative(tags.layer)) return null;
  const hint = undergroundHint(tags);
  return hint ? `layer=${tags.layer} with ${hint}` : null;
}

function undergroundHint(tags: Tags): string | null {
  const locations = values(tags.location);
  if (locations.length > 0 && locations.some((l) => !ABOVE_GROUND_LOCATIONS.has(l))) return `location=${tags.location}`;
  if (set(tags.tunnel)) return `tunnel=${tags.tunnel}`;
  if (set(tags.indoor)) return `indoor=${tags.indoor}`;
  if (allNegative(tags.level)) return `level=${tags.level}`;
  if (values(tags.parking).includes('underground')) return `parking=${tags.parking}`;
  return null;
}

/**
 * A bridge or viaduct mapped as a building or building:part: `bridge=*` other than `no`
 * (`yes`, `viaduct`, `aqueduct`, …), `building:part=bridge`, `building=bridge`, or
 * `man_made=bridge` (the bridge's area; only meaningful on a feature that is a building at all).
 *
 * Its deck stands where `min_height` (or `building:min_level`) puts it, like any part. A bridge
 * part with neither stands on the ground from 0 to its height: nothing in the tags says where the
 * deck is (`layer` and `bridge:structure` give no heights), and parseBuildingTags notes that.
 */
export function isBridgePart(tags: Tags): boolean {
  return (
    set(tags.bridge) || values(tags['building:part']).includes('bridge') || values(tags.building).includes('bridge') || values(tags.man_made).includes('bridge')
  );
}
