import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { bbox, booleanPointInPolygon, point, polygon as turfPolygon } from '@turf/turf';
import Flatbush from 'flatbush';
import { storePaths } from '../../src/config.ts';
import { GeometryResponseSchema } from '../../src/contract/response-schema.ts';
import { createLocalFrame } from '../../src/frame/local-frame.ts';
import { undergroundReason } from '../../src/geometry/buildings/tags/index.ts';
import { nodeTypeOf } from '../../src/geometry/instances/tags/node-type.ts';
import type { RunningService } from '../../src/service.ts';
import { OsmStore } from '../../src/sources/osm/store.ts';
import type { OsmFeature } from '../../src/osm-model/feature.ts';
import { postContext, startTestService } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { mapHeight, onMap, type Entry } from '../support/service/elevation-map.ts';

/** All of Monaco and its forest edges (~6 km²), returned by 500 m tiles and by 230 m tiles. */
const POLYGON = square(43.735, 7.42, 2500);
const LONLAT_RING = POLYGON.map(([lat, lon]) => [lon, lat]);
const frame = createLocalFrame(POLYGON[0][0], POLYGON[0][1]);

interface Node {
  type: string;
  x: number;
  y: number;
  z: number;
  rotation: number;
  scale: number;
  descriptor: Record<string, any>;
}

let big: RunningService, small: RunningService;
let store: OsmStore;
let nodes: Node[], nodesSmall: Node[], buildings: { vertices: number[] }[], ground: { vertices: number[]; descriptor: Record<string, any> }[];

before(async () => {
  [big, small] = await Promise.all([startTestService(), startTestService({ tileSize: 230 })]);
  store = OsmStore.open(storePaths(big.config.dataDir).osm);
  const settings = { geometry: ['buildings', 'surface', 'instances'], upAxis: 'Z' };
  const [a, b] = await Promise.all([
    postContext(big.url, big.demo!.key, { polygon: POLYGON, settings }),
    postContext(small.url, small.demo!.key, { polygon: POLYGON, settings: { ...settings, geometry: ['instances'] } }),
  ]);
  assert.equal(a.status, 200, a.text.slice(0, 300));
  assert.equal(b.status, 200, b.text.slice(0, 300));
  GeometryResponseSchema.parse(a.json);
  GeometryResponseSchema.parse(b.json);
  const group = (r: typeof a, type: string) => r.json.geometry.find((g: { type: string }) => g.type === type);
  assert.equal(group(a, 'instances').geometryType, 'nodes');
  nodes = group(a, 'instances').nodes;
  nodesSmall = group(b, 'instances').nodes;
  buildings = group(a, 'buildings').meshes;
  ground = group(a, 'surface').meshes;
});
after(async () => {
  store?.close();
  await Promise.all([big?.close(), small?.close()]);
});

/** Which of `tris` (flat [ax, ay, bx, by, cx, cy]) holds each point, through a Flatbush of their boxes (brute force blocks the loop for seconds). */
function triangleIndex(tris: number[][]): Flatbush {
  const index = new Flatbush(Math.max(1, tris.length));
  for (const t of tris) index.add(Math.min(t[0], t[2], t[4]), Math.min(t[1], t[3], t[5]), Math.max(t[0], t[2], t[4]), Math.max(t[1], t[3], t[5]));
  if (tris.length === 0) index.add(0, 0, 0, 0);
  index.finish();
  return index;
}

const inPolygon = (lonLat: [number, number]) => booleanPointInPolygon(point(lonLat), turfPolygon([LONLAT_RING]));
const lonLatOf = (n: Node) => frame.toLonLat(n.x, n.y);

function storeFeatures(): OsmFeature[] {
  const lons = LONLAT_RING.map((p) => p[0]),
    lats = LONLAT_RING.map((p) => p[1]);
  return store.query({ minLon: Math.min(...lons), minLat: Math.min(...lats), maxLon: Math.max(...lons), maxLat: Math.max(...lats) }, [
    'poi',
    'highway',
    'barrier',
    'railway',
    'water',
    'landcover',
    'other',
    'building',
    'building_part',
  ]);
}

/** Building polygons standing above ground, for an independent "in a building" test (turf, lon/lat, boxes first: the tests stay fast). */
function buildingTest(features: OsmFeature[]): (ll: [number, number]) => boolean {
  const shapes = features
    .filter((f) => (f.layer === 'building' || f.layer === 'building_part') && f.kind === 'area' && f.polygons && !undergroundReason(f.tags))
    .flatMap((f) =>
      f.polygons!.map((rings) =>
        turfPolygon(
          rings.map((r) => {
            const c: number[][] = [];
            for (let k = 0; k < r.length; k += 2) c.push([r[k], r[k + 1]]);
            c.push([r[0], r[1]]);
            return c;
          }),
        ),
      ),
    )
    .map((shape) => ({ shape, box: bbox(shape) }));
  return (ll) =>
    shapes.some(({ shape, box }) => ll[0] >= box[0] && ll[0] <= box[2] && ll[1] >= box[1] && ll[1] <= box[3] && booleanPointInPolygon(point(ll), shape));
}

test('every tagged point object in the polygon comes back exactly once per type, whatever the tile size', () => {
  const features = storeFeatures();
  const inBuilding = buildingTest(features);
  const expected = new Map<string, string[]>();
  for (const f of features) {
    if (f.kind !== 'point' || !f.point || !inPolygon(f.point)) continue;
    const type = nodeTypeOf(f.tags);
    if (!type) continue;
    // surveyed trees inside a building footprint are left out (README)
    if ((type === 'tree' || type === 'shrubbery') && inBuilding(f.point)) continue;
    expected.set(type, [...(expected.get(type) ?? []), f.id].sort());
  }
  const got = (list: Node[]) => {
    const m = new Map<string, string[]>();
    for (const n of list) if (String(n.descriptor.id ?? '').startsWith('node/')) m.set(n.type, [...(m.get(n.type) ?? []), n.descriptor.id].sort());
    return m;
  };
  const counts = (m: Map<string, string[]>) => Object.fromEntries([...m].map(([t, ids]) => [t, ids.length]).sort());
  assert.deepEqual(counts(got(nodes)), counts(expected));
  assert.deepEqual(got(nodes), expected);
  assert.deepEqual(got(nodesSmall), expected, '230 m tiles');
  // objects mapped as ways (a bench along a wall, a crane's area) too: once each, rows and spans once per tree and span
  const keys = nodes.filter((n) => n.descriptor.id).map((n) => `${n.descriptor.id}:${n.descriptor.row ?? ''}:${n.descriptor.span ?? ''}`);
  assert.equal(new Set(keys).size, keys.length, 'an object returned twice');
  assert.ok(
    keys.some((k) => k.startsWith('way/')),
    'way-mapped objects are returned',
  );
  assert.ok((expected.get('tree')?.length ?? 0) > 300 && (expected.get('bench')?.length ?? 0) > 50 && expected.size >= 6, JSON.stringify(counts(expected)));
});

test('the same nodes with 500 m and 230 m tiles: procedural trees are seeded by position, not by tile', () => {
  const key = (n: Node) => JSON.stringify([n.type, n.x, n.y, n.z, n.rotation, n.scale, n.descriptor]);
  const a = nodes.map(key).sort(),
    b = nodesSmall.map(key).sort();
  assert.deepEqual(b, a);
  assert.ok(nodes.filter((n) => n.descriptor.source === 'procedural').length > 300, 'Monaco has forest fill');
});

test('procedural trees come back the same in another request (other polygon and origin) where both cover them', async () => {
  const other = square(43.7345, 7.4185, 1800);
  const r = await postContext(big.url, big.demo!.key, { polygon: other, origin: [43.73, 7.41], settings: { geometry: ['instances'], upAxis: 'Z' } });
  assert.equal(r.status, 200);
  const f2 = createLocalFrame(43.73, 7.41);
  const otherRing = turfPolygon([other.map(([lat, lon]) => [lon, lat])]);
  // each output is rounded to millimetres in its own frame: match within 5 mm, in the first request's frame
  const key = (x: number, y: number) => `${Math.round(x / 0.5)},${Math.round(y / 0.5)}`;
  const procedural = (list: Node[], f: typeof frame) => list.filter((n) => n.descriptor.source === 'procedural').map((n) => f.toLonLat(n.x, n.y));
  const mine = procedural(nodes, frame)
    .filter((ll) => booleanPointInPolygon(point(ll), otherRing))
    .map(([lon, lat]) => frame.toLocal(lon, lat));
  const theirs = procedural(r.json.geometry[0].nodes, f2)
    .filter((ll) => inPolygon(ll))
    .map(([lon, lat]) => frame.toLocal(lon, lat));
  const cells = new Map<string, [number, number][]>();
  for (const p of theirs) cells.set(key(p[0], p[1]), [...(cells.get(key(p[0], p[1])) ?? []), p]);
  const near = ([x, y]: [number, number]) => {
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++) {
        const list = cells.get(`${Math.round(x / 0.5) + dx},${Math.round(y / 0.5) + dy}`) ?? [];
        if (list.some((p) => Math.hypot(p[0] - x, p[1] - y) < 0.005)) return true;
      }
    return false;
  };
  assert.ok(mine.length > 50, `${mine.length} procedural trees in the overlap`);
  const missing = mine.filter((p) => !near(p));
  assert.equal(missing.length, 0, `${missing.length} of ${mine.length} not reproduced`);
  assert.equal(theirs.length, mine.length);
  // and under the same ids: a plant's id is its place on the fixed grid, not its request's
  const at = (list: Node[], f: typeof frame) =>
    new Map(list.filter((n) => n.descriptor.source === 'procedural').map((n) => [n.descriptor.id as string, f.toLonLat(n.x, n.y)]));
  const [idsMine, idsTheirs] = [at(nodes, frame), at(r.json.geometry[0].nodes, f2)];
  let shared = 0;
  for (const [id, [lon, lat]] of idsTheirs) {
    const p = idsMine.get(id);
    if (!p) continue;
    shared++;
    const [x0, y0] = frame.toLocal(lon, lat),
      [x1, y1] = frame.toLocal(p[0], p[1]);
    assert.ok(Math.hypot(x1 - x0, y1 - y0) < 0.005, `${id} moved`);
  }
  assert.equal(shared, mine.length, 'every plant of the overlap has the same id in both');
});

test('no tree stands inside a building footprint of the same response', () => {
  const floors: number[][] = [];
  for (const m of buildings) {
    const v = m.vertices;
    let zmin = Infinity;
    for (let i = 2; i < v.length; i += 3) zmin = Math.min(zmin, v[i]);
    for (let t = 0; t < v.length; t += 9)
      if ([2, 5, 8].every((k) => Math.abs(v[t + k] - zmin) < 0.01)) floors.push([v[t], v[t + 1], v[t + 3], v[t + 4], v[t + 6], v[t + 7]]);
  }
  assert.ok(floors.length > 1000);
  const inTri = (x: number, y: number, [ax, ay, bx, by, cx, cy]: number[]) => {
    const s = (px: number, py: number, qx: number, qy: number) => (qx - px) * (y - py) - (x - px) * (qy - py);
    const d1 = s(ax, ay, bx, by),
      d2 = s(bx, by, cx, cy),
      d3 = s(cx, cy, ax, ay);
    return (d1 > 0.01 && d2 > 0.01 && d3 > 0.01) || (d1 < -0.01 && d2 < -0.01 && d3 < -0.01);
  };
  const plants = nodes.filter((n) => n.type === 'tree' || n.type === 'shrubbery');
  const index = triangleIndex(floors);
  const inside = plants.filter((n) => index.search(n.x, n.y, n.x, n.y).some((k) => inTri(n.x, n.y, floors[k])));
  assert.equal(
    inside.length,
    0,
    `in buildings: ${inside
      .slice(0, 5)
      .map((n) => JSON.stringify(n.descriptor))
      .join(' ')}`,
  );
});

test('procedural plants never stand on roads, pavements, water or other hard ground of the same response', () => {
  const HARD = new Set(['asphalt', 'roadwayIntersection', 'roadwayArea', 'pavement', 'water', 'pitch', 'helipad', 'buildingConstruction']);
  const tris: number[][] = [];
  for (const m of ground)
    if (HARD.has(m.descriptor.type)) for (let t = 0; t < m.vertices.length; t += 9) tris.push([0, 1, 3, 4, 6, 7].map((k) => m.vertices[t + k]));
  const inTri = (x: number, y: number, [ax, ay, bx, by, cx, cy]: number[]) => {
    const s = (px: number, py: number, qx: number, qy: number) => (qx - px) * (y - py) - (x - px) * (qy - py);
    const d1 = s(ax, ay, bx, by),
      d2 = s(bx, by, cx, cy),
      d3 = s(cx, cy, ax, ay);
    return (d1 > 0 && d2 > 0 && d3 > 0) || (d1 < 0 && d2 < 0 && d3 < 0);
  };
  const procedural = nodes.filter((n) => n.descriptor.source === 'procedural');
  const index = triangleIndex(tris);
  const onHard = procedural.filter((n) => index.search(n.x, n.y, n.x, n.y).some((k) => inTri(n.x, n.y, tris[k])));
  assert.ok(tris.length > 1000);
  assert.equal(onHard.length, 0, `${onHard.length} of ${procedural.length} on hard ground`);
});

test("trees stand in Monaco's parks: every surveyed tree of a park comes back there, with a size", () => {
  const features = storeFeatures();
  const inBuilding = buildingTest(features);
  const parks = features.filter((f) => f.tags.leisure === 'park' && f.kind === 'area' && f.polygons);
  const trees = nodes.filter((n) => n.type === 'tree');
  let parksWithTrees = 0,
    inParks = 0;
  for (const park of parks) {
    const shapes = park.polygons!.map((rings) =>
      turfPolygon(
        rings.map((r) => {
          const c: number[][] = [];
          for (let k = 0; k < r.length; k += 2) c.push([r[k], r[k + 1]]);
          c.push([r[0], r[1]]);
          return c;
        }),
      ),
    );
    const inPark = (ll: [number, number]) => shapes.some((s) => booleanPointInPolygon(point(ll), s));
    const mapped = features.filter((f) => f.kind === 'point' && f.tags.natural === 'tree' && inPark(f.point!) && inPolygon(f.point!) && !inBuilding(f.point!));
    const returned = trees.filter((n) => inPark(lonLatOf(n)));
    const ids = new Set(returned.map((n) => n.descriptor.id));
    for (const m of mapped) assert.ok(ids.has(m.id), `${m.id} in ${park.id}`);
    if (returned.length > 0) parksWithTrees++;
    inParks += returned.length;
  }
  assert.ok(parksWithTrees >= 4 && inParks >= 100, `${inParks} trees in ${parksWithTrees} parks`);
  for (const t of trees)
    assert.ok(t.descriptor.height > 0 && t.descriptor.crownDiameter > 0 && Math.abs(t.scale - t.descriptor.height / 10) < 0.002, JSON.stringify(t));
});

test('with topography every node stands on the returned terrain within 1 cm', async () => {
  const polygon = square(43.7335, 7.419, 900);
  const r = await postContext(big.url, big.demo!.key, { polygon, settings: { geometry: ['instances', 'topography'], upAxis: 'Z' } });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  const map: Entry = r.json.geometry.find((g: { type: string }) => g.type === 'topography').elevationMaps[0];
  const list: Node[] = r.json.geometry.find((g: { type: string }) => g.type === 'instances').nodes;
  assert.ok(list.length > 100);
  let worst = 0;
  for (const n of list) {
    assert.ok(onMap(map, n.x, n.y), `node off the map: ${JSON.stringify(n)}`);
    worst = Math.max(worst, Math.abs(n.z - mapHeight(map, n.x, n.y)));
  }
  assert.ok(worst <= 0.01, `worst ${worst} m`);
  assert.ok(
    list.some((n) => n.z > 20),
    'heights are above sea level',
  );
});

test('infrastructure is named as asked; canopyMaxTrees caps trees (surveyed first) with tree_cap_applied; hybrid without canopy data falls back to standard with canopy_unavailable', async () => {
  const surveyed = nodes.filter((n) => (n.type === 'tree' || n.type === 'shrubbery') && n.descriptor.source === 'osm');
  const procedural = nodes.filter((n) => n.descriptor.source === 'procedural');
  const cap = surveyed.length + Math.floor(procedural.length / 2);
  const r = await postContext(big.url, big.demo!.key, {
    polygon: POLYGON,
    settings: { geometry: ['infrastructure'], upAxis: 'Z', canopyMaxTrees: cap, treeSource: 'hybrid' },
  });
  assert.equal(r.status, 200);
  GeometryResponseSchema.parse(r.json);
  const g = r.json.geometry[0];
  assert.deepEqual([g.type, g.geometryType], ['infrastructure', 'nodes']);
  const list: Node[] = g.nodes;
  const plants = list.filter((n) => n.type === 'tree' || n.type === 'shrubbery');
  assert.equal(plants.length, cap);
  assert.equal(list.length - plants.length, nodes.length - surveyed.length - procedural.length, 'furniture is never capped');
  const ids = new Set(plants.map((n) => `${n.descriptor.id}:${n.descriptor.row ?? ''}`));
  assert.ok(
    surveyed.every((n) => ids.has(`${n.descriptor.id}:${n.descriptor.row ?? ''}`)),
    'surveyed trees kept first',
  );
  const codes = r.json.warnings.map((w: { code: string }) => w.code);
  assert.deepEqual(codes.sort(), ['canopy_unavailable', 'tree_cap_applied']);
  const w = r.json.warnings.find((x: { code: string }) => x.code === 'tree_cap_applied');
  assert.deepEqual(w.details, { canopyMaxTrees: cap, trees: surveyed.length + procedural.length, dropped: surveyed.length + procedural.length - cap });
  // kept procedural trees spread over the area: each half (west/east) keeps a similar share
  const keptP = new Set(plants.filter((n) => n.descriptor.source === 'procedural').map((n) => `${n.x},${n.y}`));
  const midX = procedural.map((n) => n.x).sort((a, b) => a - b)[Math.floor(procedural.length / 2)];
  const share = (side: Node[]) => side.filter((n) => keptP.has(`${n.x},${n.y}`)).length / side.length;
  const west = share(procedural.filter((n) => n.x < midX)),
    east = share(procedural.filter((n) => n.x >= midX));
  assert.ok(Math.abs(west - east) < 0.15, `west keeps ${west.toFixed(2)}, east ${east.toFixed(2)}`);
  const plain = await postContext(big.url, big.demo!.key, { polygon: square(43.735, 7.42, 300), settings: { geometry: ['instances'] } });
  assert.deepEqual(plain.json.warnings, []);
});

test('rotations follow the output grid: in UTM every node turns by the same meridian convergence, positions by the projection', async () => {
  const polygon = square(43.735, 7.42, 600);
  const get = async (crs: string) => {
    const r = await postContext(big.url, big.demo!.key, { polygon, settings: { geometry: ['instances'], upAxis: 'Y', crs } });
    assert.equal(r.status, 200);
    return new Map(
      (r.json.geometry[0].nodes as Node[])
        .filter((n) => n.descriptor.id)
        .map((n) => [`${n.descriptor.id}:${n.descriptor.row ?? ''}:${n.descriptor.span ?? ''}`, n]),
    );
  };
  const [local, utm] = await Promise.all([get('local'), get('UTM')]);
  assert.ok(local.size > 50);
  // Monaco (7.42° E) lies west of zone 32's central meridian (9° E): grid north is turned ≈ −1.1° from true north
  const expected = -1.58 * Math.sin((43.735 * Math.PI) / 180) * (Math.PI / 180);
  for (const [id, n] of local) {
    const u = utm.get(id)!;
    let d = u.rotation - n.rotation;
    d = Math.atan2(Math.sin(d), Math.cos(d));
    assert.ok(Math.abs(d - expected) < 0.003, `${id}: turned ${d} rad, expected ≈ ${expected}`);
    assert.ok(u.x > 100000 && Math.abs(u.y - n.y) < 0.001, 'UTM easting, same height');
  }
});
