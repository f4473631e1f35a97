/**
 * How wide a road or path is on the ground, in metres: the one width table of the road surfaces.
 *
 * Order of evidence (the first that gives a usable number wins):
 * 1. `width:carriageway`, then `width` (metres by default; `5 m`, `12'`, `12'6"`, `550 cm` are
 *    understood by parseLength). By OSM convention `width` on a road is the carriageway, kerb to
 *    kerb, so sidewalks are added on top of it (sidewalks.ts). Values under 0.3 m or over 60 m are
 *    typos (`width=500` meant cm) and ignored.
 * 2. Lanes: `lanes`, or `lanes:forward` + `lanes:backward` (+ `lanes:both_ways`), × the lane width
 *    of the class, plus the class's paved edge (shoulders, edge strips), plus on-carriageway extras
 *    that `lanes` does not count: painted cycle lanes (`cycleway[:both|:left|:right]=lane`, 1.5 m
 *    each) and parking lanes (`parking:lane:<side>=parallel|diagonal|perpendicular`, or
 *    `parking:<side>=lane` with `parking:<side>:orientation`: 2.0 / 4.5 / 5.0 m).
 * 3. The class default: its default lane count (fewer when the way is one-way) × lane width, plus
 *    edge and extras as above.
 *
 * Why these numbers. Open renderers disagree by a factor of two (one draws a residential street
 * 4 m wide, another 8 m). We start from the design lane widths of real streets instead of a
 * picture: 3.5–3.75 m on motorways and trunk roads (EU/TEN-T and the US 12 ft standard), about
 * 3.25 m on urban arterials (primary, secondary), 3.0 m on collector and residential streets,
 * 2.75 m where cars crawl (service roads, living streets, tracks). A residential street without
 * tags is then 6 m kerb to kerb — the middle of what European and North American streets measure
 * (5.5–7 m without parking lanes) — and a motorway carriageway 2 × 3.5 m + 3 m of hard shoulder and
 * inner strip = 10 m. Lanes are counted the OSM way (`lanes` excludes cycle and parking lanes), so
 * those are added separately when tagged rather than guessed.
 *
 * Paths have no lanes: footway and cycleway 2 m (a comfortable two-way width; sidewalks mapped as
 * footways are typically 1.5–3 m), path 1.5 m (often a trail), steps and bridleways 2 m, a
 * pedestrian street 5 m (a whole street given to people), a platform 2.5 m.
 */
import { parseLength } from '../../../osm-model/tag-values/length.ts';

type Tags = Readonly<Record<string, string>>;

/** One row of the carriageway table. */
export interface CarriagewayClass {
  /** Width of one lane, metres. */
  lane: number;
  /** Lanes when nothing is tagged, on a two-way road. */
  lanesTwoWay: number;
  /** Lanes when nothing is tagged, on a one-way road (or one carriageway of a dual road). */
  lanesOneWay: number;
  /** Paved width beyond the lanes, both sides together: hard shoulders, edge strips. */
  edge: number;
}

const row = (lane: number, lanesTwoWay: number, lanesOneWay: number, edge: number): CarriagewayClass => ({ lane, lanesTwoWay, lanesOneWay, edge });

/**
 * Carriageway classes (`highway=*` values that carry vehicles). Motorways are one-way by OSM
 * default (each carriageway is its own way). Untagged dual-carriageway trunks usually carry two
 * lanes each way; other one-way roads get one lane.
 */
export const CARRIAGEWAY_CLASSES: Readonly<Record<string, CarriagewayClass>> = {
  motorway: row(3.5, 4, 2, 3.0),
  trunk: row(3.5, 2, 2, 1.5),
  motorway_link: row(3.5, 2, 1, 1.0),
  trunk_link: row(3.5, 2, 1, 1.0),
  primary: row(3.25, 2, 1, 1.0),
  secondary: row(3.25, 2, 1, 0.5),
  primary_link: row(3.25, 2, 1, 0.5),
  secondary_link: row(3.25, 2, 1, 0.5),
  tertiary: row(3.0, 2, 1, 0.5),
  tertiary_link: row(3.0, 2, 1, 0.5),
  residential: row(3.0, 2, 1, 0),
  unclassified: row(3.0, 2, 1, 0),
  road: row(3.0, 2, 1, 0),
  busway: row(3.25, 2, 1, 0),
  bus_guideway: row(3.25, 2, 1, 0),
  raceway: row(3.0, 2, 1, 0),
  escape: row(3.5, 1, 1, 0),
  living_street: row(2.75, 2, 1, 0),
  service: row(2.75, 2, 1, 0),
  track: row(2.75, 1, 1, 0.25),
};

/** `service=*` values that are one lane wide whatever the direction. */
const SINGLE_LANE_SERVICE = new Set(['driveway', 'alley', 'drive-through', 'emergency_access']);

/** Path widths (total), metres. */
export const PATH_WIDTHS: Readonly<Record<string, number>> = {
  footway: 2.0,
  cycleway: 2.0,
  path: 1.5,
  bridleway: 2.0,
  steps: 2.0,
  pedestrian: 5.0,
  platform: 2.5,
};

/** Default sidewalk width when `sidewalk*:width` says nothing, metres. */
export const DEFAULT_SIDEWALK_WIDTH = 2.0;

/** Painted cycle lane on the carriageway, metres. */
export const CYCLE_LANE_WIDTH = 1.5;

/** Parking lane widths by orientation, metres. */
export const PARKING_LANE_WIDTHS: Readonly<Record<string, number>> = { parallel: 2.0, diagonal: 4.5, perpendicular: 5.0 };

const MIN_WIDTH = 0.3;
const MAX_WIDTH = 60;
const MAX_LANES = 16;

/** A `width`-like tag in metres, or null when absent or implausible. */
export function parseWidth(value: string | undefined, min = MIN_WIDTH, max = MAX_WIDTH): number | null {
  const w = parseLength(value, 1000);
  return w !== null && w >= min && w <= max ? w : null;
}

/** A lane count: a positive integer (a `2;3` list takes the largest), or null. */
export function parseLanes(value: string | undefined): number | null {
  if (value === undefined) return null;
  let best: number | null = null;
  for (const item of value.split(';')) {
    const t = item.trim();
    if (!/^\d+$/.test(t)) return null;
    const n = Number(t);
    if (n < 1 || n > MAX_LANES) return null;
    best = best === null ? n : Math.max(best, n);
  }
  return best;
}

/** One-way as OSM means it: `oneway=yes|1|true|-1|reversible|alternating`, roundabouts, motorways. */
export function isOneWay(tags: Tags, highway = tags.highway): boolean {
  const v = tags.oneway?.trim().toLowerCase();
  if (v === 'no' || v === '0' || v === 'false') return false;
  if (v === 'yes' || v === '1' || v === 'true' || v === '-1' || v === 'reversible' || v === 'alternating') return true;
  const junction = tags.junction;
  if (junction === 'roundabout' || junction === 'circular') return true;
  return highway === 'motorway';
}

/** Lanes from `lanes`, else `lanes:forward` + `lanes:backward` (+ `lanes:both_ways`), else null. */
export function taggedLanes(tags: Tags): number | null {
  const lanes = parseLanes(tags.lanes);
  if (lanes !== null) return lanes;
  const forward = parseLanes(tags['lanes:forward']);
  const backward = parseLanes(tags['lanes:backward']);
  if (forward === null && backward === null) return null;
  return (forward ?? 0) + (backward ?? 0) + (parseLanes(tags['lanes:both_ways']) ?? 0);
}

const SIDES = ['left', 'right'] as const;

/** Which sides a `key[:both|:left|:right]=value` scheme sets to one of `values`, e.g. cycleway lanes. */
function sidesWith(tags: Tags, key: string, values: ReadonlySet<string>): number {
  let count = 0;
  for (const side of SIDES) {
    const v = tags[`${key}:${side}`] ?? tags[`${key}:both`] ?? tags[key];
    if (v !== undefined && values.has(v)) count++;
  }
  return count;
}

const LANE = new Set(['lane']);

/** Extra carriageway width from tagged cycle and parking lanes, metres. */
export function laneExtras(tags: Tags): number {
  let extra = sidesWith(tags, 'cycleway', LANE) * CYCLE_LANE_WIDTH;
  for (const side of SIDES) {
    const old = tags[`parking:lane:${side}`] ?? tags['parking:lane:both'];
    if (old !== undefined && PARKING_LANE_WIDTHS[old] !== undefined) {
      extra += PARKING_LANE_WIDTHS[old];
      continue;
    }
    const now = tags[`parking:${side}`] ?? tags['parking:both'];
    if (now === 'lane') {
      const orientation = tags[`parking:${side}:orientation`] ?? tags['parking:both:orientation'] ?? 'parallel';
      extra += PARKING_LANE_WIDTHS[orientation] ?? PARKING_LANE_WIDTHS.parallel;
    }
  }
  return extra;
}

export interface RoadWidth {
  /** Total width of the carriageway or path, metres. */
  width: number;
  /** Which evidence gave it. */
  source: 'width' | 'lanes' | 'default';
  /** Lanes used (tagged or default), carriageways only. */
  lanes?: number;
}

/**
 * Width of a carriageway of class `highwayClass` (a key of CARRIAGEWAY_CLASSES; construction sites
 * pass the class being built) with these tags.
 */
export function carriagewayWidth(highwayClass: string, tags: Tags): RoadWidth {
  const tagged = parseWidth(tags['width:carriageway']) ?? parseWidth(tags.width);
  const cls = CARRIAGEWAY_CLASSES[highwayClass] ?? CARRIAGEWAY_CLASSES.residential;
  const lanes = taggedLanes(tags);
  if (tagged !== null) return lanes === null ? { width: tagged, source: 'width' } : { width: tagged, source: 'width', lanes };
  const extras = laneExtras(tags);
  if (lanes !== null) return { width: lanes * cls.lane + cls.edge + extras, source: 'lanes', lanes };
  const singleLane = highwayClass === 'service' && SINGLE_LANE_SERVICE.has(tags.service ?? '');
  const n = singleLane ? 1 : isOneWay(tags, highwayClass) ? cls.lanesOneWay : cls.lanesTwoWay;
  const edge = singleLane ? 0.25 : cls.edge;
  return { width: n * cls.lane + edge + extras, source: 'default', lanes: n };
}

/** Width of a path (`highway` a key of PATH_WIDTHS): `width` when tagged, else the table. */
export function pathWidth(highway: string, tags: Tags): RoadWidth {
  const tagged = parseWidth(tags.width, 0.2);
  if (tagged !== null) return { width: tagged, source: 'width' };
  return { width: PATH_WIDTHS[highway] ?? PATH_WIDTHS.path, source: 'default' };
}
