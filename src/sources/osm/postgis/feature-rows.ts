/**
 * Turns a row of the osm2pgsql tables (scripts/postgis/city-context.lua) into the OsmFeature the
 * SQLite store would give for the same object: the style keeps geometry as OSM draws it, and this
 * finishes it with the very functions the SQLite import runs (way-geometry.ts, multipolygon.ts), so
 * both stores hold the same coordinates, in the same ring order and winding.
 */
import type { OsmFeature, OsmLayer, OsmTags } from '../../../osm-model/feature.ts';
import { assembleMultipolygon, cleanRingPoints, orientRing } from '../multipolygon.ts';
import { readWkb, type WkbShape } from './wkb.ts';

export interface FeatureRow {
  layer: OsmLayer;
  /** N, W or R. */
  osm_type: string;
  osm_id: string;
  kind: OsmFeature['kind'];
  tags: OsmTags;
  /** Multipolygons: the way members the relation lists. */
  way_members: number | null;
  wkb: Uint8Array;
}

/** A feature with what the store needs to filter and order it. */
export interface StoredFeature {
  feature: OsmFeature;
  /** [minLon, minLat, maxLon, maxLat] in whole 1e-7 degrees, as the SQLite store indexes it. */
  bbox7: [number, number, number, number];
  /** The SQLite import's order: nodes, then ways, then relations, each by id (a sorted extract's file order). */
  order: number;
}

const TYPE_NAMES: Record<string, string> = { N: 'node', W: 'way', R: 'relation' };
const TYPE_RANK: Record<string, number> = { N: 0, W: 1, R: 2 };

/** Order key of an object: type rank, then id (ids stay below 1e12, so the sum is exact). */
export function orderOf(osmType: string, osmId: string | number): number {
  return TYPE_RANK[osmType] * 1e12 + Number(osmId);
}

export function featureIdOf(osmType: string, osmId: string | number): string {
  return `${TYPE_NAMES[osmType]}/${osmId}`;
}

/** The stored feature of a row; null where the SQLite import drops the object (too few points, a ring that does not close, a member way missing). */
export function featureFromRow(row: FeatureRow): StoredFeature | null {
  const shape = readWkb(row.wkb);
  const feature: OsmFeature = { id: featureIdOf(row.osm_type, row.osm_id), layer: row.layer, kind: row.kind, tags: row.tags };
  if (row.kind === 'point') {
    if (shape.type !== 'point') return null;
    feature.point = [shape.coords[0], shape.coords[1]];
  } else if (row.kind === 'line') {
    if (shape.type !== 'line') return null;
    const line = withoutRepeats(shape.coords);
    if (line.length < 4) return null;
    feature.line = line;
  } else {
    const polygons = row.osm_type === 'R' ? relationPolygons(shape, row.way_members ?? 0) : wayPolygons(shape);
    if (!polygons) return null;
    feature.polygons = polygons;
  }
  return { feature, bbox7: bbox7Of(feature), order: orderOf(row.osm_type, row.osm_id) };
}

function withoutRepeats(coords: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < coords.length; i += 2) {
    const m = out.length;
    if (m >= 2 && out[m - 2] === coords[i] && out[m - 1] === coords[i + 1]) continue;
    out.push(coords[i], coords[i + 1]);
  }
  return out;
}

/** A closed area way, stored as its line in node order: the ring cleaned and wound counter-clockwise (way-geometry.ts). */
function wayPolygons(shape: WkbShape): number[][][] | null {
  if (shape.type !== 'line') return null;
  const ring = cleanRingPoints(shape.coords);
  return ring.length > 0 ? [[orientRing(ring, true)]] : null;
}

/** A multipolygon from its member ways in member order; null when one is missing from the store, as the SQLite import skips it. */
function relationPolygons(shape: WkbShape, wayMembers: number): number[][][] | null {
  if (shape.type !== 'collection') return null;
  const lines = shape.parts.filter((p) => p.type === 'line');
  if (lines.length !== wayMembers) return null;
  const result = assembleMultipolygon(lines.map((l) => ({ role: '', coords: l.coords })));
  return result.ok ? result.polygons : null;
}

function bbox7Of(f: OsmFeature): [number, number, number, number] {
  const coords = f.point ?? f.line ?? f.polygons!.flat(2);
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < coords.length; i += 2) {
    const x = Math.round(coords[i] * 1e7),
      y = Math.round(coords[i + 1] * 1e7);
    if (x < b[0]) b[0] = x;
    if (y < b[1]) b[1] = y;
    if (x > b[2]) b[2] = x;
    if (y > b[3]) b[3] = y;
  }
  return b;
}
