/**
 * What a `highway=*` line is on the ground: its surface kind, the network it joins at junctions,
 * its width and sidewalks — or nothing.
 *
 * - **Carriageways** (the CARRIAGEWAY_CLASSES of widths.ts) are `asphalt` whatever they are paved
 *   with (setts and concrete streets are still roads); an unpaved `surface=*` makes them `sand`
 *   (gravel, compacted, dirt, earth, ground, mud, sand: loose, brown, unsealed — no kind of ours is
 *   closer), `grass` or `rock`. Tracks without `surface` are unpaved unless `tracktype=grade1`
 *   (`grade5`, soft and overgrown, is `grass`).
 * - **Paths** (footway, cycleway, path, bridleway, steps, pedestrian, platform) are `pavement`;
 *   `surface=` earth/sand → `sand`, grass → `grass`, rock → `rock` (gravel stays pavement: a gravel
 *   path in a park is walkable hard ground, as in the area rules).
 * - `highway=construction` is `construction`, as wide as the class named by `construction=*`.
 * - `highway=raceway` is asphalt but joins no junction and yields to roads where they overlap: race
 *   circuits on public streets (Monaco's) are mapped as separate ways on top of the roads, and
 *   their junctions would otherwise be drawn in the middle of a carriageway.
 * - Not drawn: `proposed`, `planned`, `abandoned`, `disused`, `razed`, `dismantled`, `demolished`
 *   (they are not there), `corridor` and `indoor=*` ways (inside buildings), `tunnel=*` (not `no`)
 *   and `covered=yes` (the road is under something; a tunnel's deck is the ground above it, which
 *   other layers draw), `area=yes` and `area:highway` (areas, drawn by the area classifier), and
 *   any value not listed (nodes' values such as `crossing`, `bus_stop`, or unknown ones: never
 *   invent a road).
 * - `bridge=*` (not `no`) ways are drawn at deck height (`bridge: true`).
 */
import type { SurfaceKind } from '../types.ts';
import { parseSurfaceMaterial } from '../classify/surface-material.ts';
import { CARRIAGEWAY_CLASSES, PATH_WIDTHS, carriagewayWidth, pathWidth, type RoadWidth } from './widths.ts';
import { parseSidewalks, type Sidewalks } from './sidewalks.ts';

type Tags = Readonly<Record<string, string>>;

/** Which graph a way joins: junctions are built among carriageways, and among paths, separately. */
export type RoadNetwork = 'road' | 'path';

export interface RoadProfile {
  kind: SurfaceKind;
  /** Null: no junctions with roads or paths, yields to them (construction sites, raceways). */
  network: RoadNetwork | null;
  /** Carriageway (or path) width, metres. */
  width: number;
  widthSource: RoadWidth['source'];
  lanes?: number;
  /** Sidewalk strips beside a carriageway (zeros for paths). */
  sidewalks: Sidewalks;
  bridge: boolean;
  /** Numeric `layer`, when tagged. */
  layer?: number;
}

const NOT_THERE = new Set(['proposed', 'planned', 'abandoned', 'disused', 'razed', 'dismantled', 'demolished', 'no', 'corridor']);

const isOn = (v: string | undefined) => v !== undefined && v !== 'no' && v !== 'false' && v !== '0';

/** Why a highway line is not drawn on the ground, or null when it is (documented above). */
export function notDrawnReason(tags: Tags): string | null {
  const highway = tags.highway;
  if (highway === undefined) return 'no highway tag';
  if (NOT_THERE.has(highway)) return `highway=${highway}`;
  if (isOn(tags.tunnel)) return 'tunnel';
  if (tags.covered === 'yes') return 'covered';
  if (isOn(tags.indoor)) return 'indoor';
  if (tags.area === 'yes' || tags['area:highway'] !== undefined) return 'area';
  return null;
}

function carriagewayKind(tags: Tags): SurfaceKind {
  const material = parseSurfaceMaterial(tags.surface);
  if (material === null) {
    if (tags.highway !== 'track') return 'asphalt';
    const grade = tags.tracktype?.trim();
    return grade === 'grade1' ? 'asphalt' : grade === 'grade5' ? 'grass' : 'sand';
  }
  switch (material) {
    case 'asphalt':
    case 'paved':
      return 'asphalt';
    case 'grass':
      return 'grass';
    case 'rock':
      return 'rock';
    default:
      return 'sand';
  }
}

function pathKind(tags: Tags): SurfaceKind {
  switch (parseSurfaceMaterial(tags.surface)) {
    case 'earth':
    case 'sand':
      return 'sand';
    case 'grass':
      return 'grass';
    case 'rock':
      return 'rock';
    default:
      return 'pavement';
  }
}

function layerOf(tags: Tags): number | undefined {
  const v = tags.layer?.trim();
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
}

/** The ground profile of a highway line, or null when it is not drawn (see notDrawnReason). */
export function roadProfile(tags: Tags): RoadProfile | null {
  if (notDrawnReason(tags) !== null) return null;
  const highway = tags.highway;
  const bridge = isOn(tags.bridge);
  const layer = layerOf(tags);
  const base = { bridge, ...(layer === undefined ? {} : { layer }) };
  if (highway in CARRIAGEWAY_CLASSES) {
    const w = carriagewayWidth(highway, tags);
    return {
      kind: carriagewayKind(tags),
      network: highway === 'raceway' ? null : 'road',
      width: w.width,
      widthSource: w.source,
      ...(w.lanes === undefined ? {} : { lanes: w.lanes }),
      sidewalks: parseSidewalks(tags),
      ...base,
    };
  }
  if (highway in PATH_WIDTHS) {
    const w = pathWidth(highway, tags);
    return { kind: pathKind(tags), network: 'path', width: w.width, widthSource: w.source, sidewalks: { left: 0, right: 0 }, ...base };
  }
  if (highway === 'construction') {
    const building = tags.construction ?? 'residential';
    const w = building in PATH_WIDTHS ? pathWidth(building, tags) : carriagewayWidth(building in CARRIAGEWAY_CLASSES ? building : 'residential', tags);
    return { kind: 'construction', network: null, width: w.width, widthSource: w.source, sidewalks: { left: 0, right: 0 }, ...base };
  }
  return null;
}
