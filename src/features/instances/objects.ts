import { scaleFor } from '../../geometry/instances/catalogue.ts';
import { NearestLines } from '../../geometry/instances/facing.ts';
import { directionRotation, normaliseAngle } from '../../geometry/instances/tags/direction.ts';
import { objectHeight } from '../../geometry/instances/tags/height.ts';
import { nodeTypeOf } from '../../geometry/instances/tags/node-type.ts';
import type { NodeType } from '../../geometry/instances/types.ts';
import { hashString, unit, fineUnit } from '../../geometry/trees/hash.ts';
import { surveyedRank } from '../../geometry/trees/tree-cap.ts';
import { pointAt } from '../../geometry/trees/tree-row.ts';
import { projectFlat } from '../../frame/local-frame.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';
import type { InstanceTile, Placed } from './context.ts';
import { isVegetation, vegetation } from './tree-nodes.ts';
import { supportKey } from './wires.ts';

/** Types that face the nearest road when `direction` is not tagged (a lamp's arm reaches over the carriageway). */
const FACE_ROAD = new Set<NodeType>(['bench', 'busStop', 'streetLamp']);

/** Supports of power lines: turned so their cross-arms (the model's y) lie across the line. */
const LINE_SUPPORTS = new Set<NodeType>(['transmissionTower', 'utilityPole']);

/** Highway classes bus stops and lamps face (carriageways); benches face any highway, paths included. */
const NOT_CARRIAGEWAY = new Set([
  'footway',
  'path',
  'steps',
  'cycleway',
  'bridleway',
  'pedestrian',
  'platform',
  'corridor',
  'elevator',
  'bus_stop',
  'street_lamp',
]);

/**
 * Street furniture and surveyed plants: every tagged OSM object that nodeTypeOf recognises, as one
 * node at the object (a point where it is mapped as a node, the middle of a way along its length,
 * the centroid of an area's outer ring), returned by the tile that owns that point when it lies in
 * the polygon. Surveyed trees inside a building footprint are left out (roof gardens).
 */
export function tileObjects(t: InstanceTile): Placed[] {
  const out: Placed[] = [];
  let roads: NearestLines | null = null,
    carriageways: NearestLines | null = null,
    lineBearings: Map<string, number> | null = null;
  for (const f of t.features) {
    const type = nodeTypeOf(f.tags);
    if (!type || !onlyAsPoint(type, f)) continue;
    const at = placeOf(f);
    if (!at) continue;
    const [lon, lat] = at.lonLat;
    const [x, y] = t.tile.frame.toLocal(lon, lat);
    if (!t.takes(x, y)) continue;
    const h = hashString(f.id);
    let rotation = directionRotation(f.tags);
    if (rotation === null && FACE_ROAD.has(type)) {
      if (type !== 'bench') rotation = (carriageways ??= roadLines(t, true)).facing(x, y);
      else rotation = (roads ??= roadLines(t, false)).facing(x, y);
    }
    if (rotation === null && LINE_SUPPORTS.has(type)) rotation = (lineBearings ??= powerLineBearings(t)).get(supportKey(lon, lat)) ?? null;
    if (rotation === null && at.along !== undefined) rotation = at.along;
    rotation ??= unit(h) * 2 * Math.PI;
    const descriptor: Record<string, unknown> = { type, id: f.id, source: 'osm' };
    if (f.tags.name) descriptor.name = f.tags.name;
    let scale: number;
    if (isVegetation(type)) {
      if (t.inBuilding(lon, lat)) continue;
      const v = vegetation(type, f.tags);
      scale = v.scale;
      Object.assign(descriptor, v.fields);
    } else {
      const height = objectHeight(f.tags);
      scale = scaleFor(type, height);
      if (height !== null) descriptor.height = height;
      Object.assign(descriptor, extraFields(type, f.tags));
    }
    const node = { type, x, y, z: t.groundAt(x, y), rotation, scale, descriptor };
    out.push(isVegetation(type) ? { node, rank: surveyedRank(fineUnit(h, hashString(f.id, 7))) } : { node });
  }
  return out;
}

/** Hedges mapped as ways are barriers, platforms mapped as ways stand beside their bus stop node: points only. */
function onlyAsPoint(type: NodeType, f: OsmFeature): boolean {
  if (f.kind === 'point') return true;
  if (type === 'shrubbery' && f.tags.barrier === 'hedge') return false;
  return !(type === 'busStop' && f.tags.highway !== 'bus_stop');
}

/** Where a feature's node stands, [lon, lat], and for ways the heading of the way there. */
function placeOf(f: OsmFeature): { lonLat: [number, number]; along?: number } | null {
  if (f.kind === 'point' && f.point) return { lonLat: f.point };
  if (f.kind === 'line' && f.line && f.line.length >= 4) {
    // the middle by length, measured in degrees scaled to metres at the way (orientation only)
    const k = Math.cos((f.line[1] * Math.PI) / 180);
    const scaled = f.line.map((v, i) => (i % 2 === 0 ? v * k : v));
    const cum = [0];
    for (let i = 2; i < scaled.length; i += 2) cum.push(cum[cum.length - 1] + Math.hypot(scaled[i] - scaled[i - 2], scaled[i + 1] - scaled[i - 1]));
    const [mx, my] = pointAt(scaled, cum, cum[cum.length - 1] / 2);
    const n = f.line.length;
    return { lonLat: [mx / k, my], along: Math.atan2(f.line[n - 1] - f.line[1], (f.line[n - 2] - f.line[0]) * k) };
  }
  if (f.kind === 'area' && f.polygons?.[0]?.[0]) {
    const ring = f.polygons[0][0];
    let sx = 0,
      sy = 0;
    for (let i = 0; i < ring.length; i += 2) {
      sx += ring[i];
      sy += ring[i + 1];
    }
    return { lonLat: [sx / (ring.length / 2), sy / (ring.length / 2)] };
  }
  return null;
}

/**
 * The heading of the power line at each of its vertices (by supportKey), in the tile's frame: the
 * mean of the directions of the segments meeting there (the bisector at an angle tower), so a
 * tower or pole standing at the vertex faces along the line. Directions are averaged as doubled
 * angles, so a line's orientation counts, not its drawing direction.
 */
function powerLineBearings(t: InstanceTile): Map<string, number> {
  const out = new Map<string, number>();
  const sum = new Map<string, [number, number]>();
  for (const f of t.features) {
    if (f.kind !== 'line' || !f.line || (f.tags.power !== 'line' && f.tags.power !== 'minor_line')) continue;
    const xy = projectFlat(t.tile.frame, f.line);
    for (let k = 0; k + 3 < xy.length; k += 2) {
      const a = 2 * Math.atan2(xy[k + 3] - xy[k + 1], xy[k + 2] - xy[k]);
      for (const v of [k, k + 2]) {
        const key = supportKey(f.line[v], f.line[v + 1]);
        const acc = sum.get(key) ?? [0, 0];
        sum.set(key, [acc[0] + Math.cos(a), acc[1] + Math.sin(a)]);
      }
    }
  }
  for (const [key, [c, s]] of sum) if (Math.hypot(c, s) > 1e-9) out.set(key, normaliseAngle(Math.atan2(s, c) / 2));
  return out;
}

function roadLines(t: InstanceTile, carriagewaysOnly: boolean): NearestLines {
  const lines: number[][] = [];
  for (const f of t.features) {
    if (f.layer !== 'highway' || f.kind !== 'line' || !f.line) continue;
    if (carriagewaysOnly && NOT_CARRIAGEWAY.has(f.tags.highway ?? '')) continue;
    lines.push(projectFlat(t.tile.frame, f.line));
  }
  return new NearestLines(lines);
}

/** A few facts per type worth passing on (all optional). */
function extraFields(type: NodeType, tags: Readonly<Record<string, string>>): Record<string, unknown> {
  const pick = (...keys: string[]) => Object.fromEntries(keys.filter((k) => tags[k] !== undefined).map((k) => [k, tags[k]]));
  switch (type) {
    case 'bench':
      return pick('backrest', 'material', 'colour', 'seats');
    case 'busStop':
      return pick('shelter', 'bench', 'route_ref', 'operator');
    case 'transmissionTower':
    case 'utilityPole':
      return pick('operator', 'design', 'material', 'line_attachment');
    case 'towerCrane':
    case 'trackedCrane':
      return pick('crane:type', 'operator');
    case 'windTurbine':
      return pick('generator:output:electricity', 'rotor:diameter', 'manufacturer', 'model');
    case 'memorial':
      return pick('memorial', 'material', 'inscription');
    case 'statueSmall':
    case 'statueBig':
    case 'sculpture':
      return pick('artwork_type', 'material', 'artist_name');
    case 'hydrant':
      return pick('fire_hydrant:type', 'colour');
    case 'streetLamp':
      return pick('lamp_mount', 'light:count', 'support');
    case 'bicycleParking':
      return pick('bicycle_parking', 'capacity', 'covered');
    default:
      return {};
  }
}
