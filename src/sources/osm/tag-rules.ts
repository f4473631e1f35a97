/**
 * Tag rules the importer needs before a feature exists: which tags carry no meaning of their own,
 * and whether a closed way is an area or a closed line (a roundabout, a fence around a field).
 */
import type { OsmTags } from '../../osm-model/feature.ts';

/** Bookkeeping keys: an entity with only these is not a feature. */
const NOISE_KEYS = new Set([
  'created_by',
  'source',
  'note',
  'fixme',
  'FIXME',
  'comment',
  'attribution',
  'converted_by',
  'odbl',
  'odbl:note',
  'history',
  'import_uuid',
  'import',
  'check_date',
  'survey:date',
  'description:fixme',
]);
const NOISE_PREFIXES = ['source:', 'note:', 'fixme:', 'FIXME:', 'check_date:'];

export function isNoiseKey(key: string): boolean {
  return NOISE_KEYS.has(key) || NOISE_PREFIXES.some((p) => key.startsWith(p));
}

/** True when some tag says what the object is (relations: `type` alone does not count). */
export function hasMeaningfulTags(tags: OsmTags, ignore: readonly string[] = []): boolean {
  for (const key in tags) {
    if (!isNoiseKey(key) && !ignore.includes(key)) return true;
  }
  return false;
}

/** Keys whose closed ways are areas; the set lists values that stay lines, `null` means all values are areas. */
const AREA_KEYS: Record<string, ReadonlySet<string> | null> = {
  building: null,
  'building:part': null,
  'area:highway': null,
  landuse: null,
  amenity: null,
  shop: null,
  office: null,
  craft: null,
  tourism: null,
  historic: null,
  military: null,
  place: null,
  water: null,
  golf: new Set(['hole', 'cartpath', 'path']),
  leisure: new Set(['track', 'slipway']),
  natural: new Set(['coastline', 'cliff', 'ridge', 'arete', 'tree_row', 'earth_bank', 'gully', 'valley']),
  man_made: new Set(['cutline', 'embankment', 'pipeline', 'dyke', 'groyne']),
  aeroway: new Set(['runway', 'taxiway', 'jet_bridge', 'parking_position']),
  power: new Set(['line', 'minor_line', 'cable']),
  public_transport: new Set(['stop_position']),
};

/** Keys that are lines even when closed, unless a value below makes them an area. */
const LINE_KEYS_WITH_AREA_VALUES: Record<string, ReadonlySet<string>> = {
  railway: new Set(['platform', 'station', 'turntable', 'roundhouse']),
  waterway: new Set(['riverbank', 'dock', 'boatyard', 'dam']),
};

/** Whether a closed way (first node = last node) with these tags describes an area. */
export function closedWayIsArea(tags: OsmTags): boolean {
  if (tags.area === 'no') return false;
  if (tags.area === 'yes') return true;
  for (const key in tags) {
    const value = tags[key];
    if (value === 'no') continue;
    if (key in AREA_KEYS) {
      const lineValues = AREA_KEYS[key];
      if (!lineValues || !lineValues.has(value)) return true;
    } else if (key in LINE_KEYS_WITH_AREA_VALUES && LINE_KEYS_WITH_AREA_VALUES[key].has(value)) {
      return true;
    }
  }
  // highway, barrier, waterway, railway and anything unknown: closed lines.
  return false;
}
