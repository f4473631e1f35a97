import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { storePaths } from '../../src/config.ts';
import { createLocalFrame, projectFlat } from '../../src/frame/local-frame.ts';
import { GeometryResponseSchema } from '../../src/contract/response-schema.ts';
import { inspectMesh } from '../../src/geometry/mesh-checks.ts';
import { pointInRing } from '../../src/geometry/ring.ts';
import { segmentsIntersect } from '../../src/geometry/segments.ts';
import { OsmStore } from '../../src/sources/osm/store.ts';
import type { OsmFeature } from '../../src/osm-model/feature.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext, startTestService, toIndexedMesh } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { mapHeight, type Entry } from '../support/service/elevation-map.ts';

/**
 * Barriers over real Monaco (issue 9): every barrier way that meets the polygon comes back exactly
 * once whatever the tiling (500 m tiles, and 150 m tiles on a second service), each a closed,
 * outward mesh; with topography the base lies on the returned terrain.
 */
let coarse: RunningService, fine: RunningService;
before(async () => {
  [coarse, fine] = await Promise.all([startTestService(), startTestService({ tileSize: 150 })]);
});
after(async () => {
  await Promise.all([coarse?.close(), fine?.close()]);
});

const CENTRE = [43.7335, 7.419] as const; // La Condamine to Monaco-Ville: retaining walls on the slope
const GATES = /^(gate|lift_gate|swing_gate|sliding_gate|wicket_gate|hampshire_gate)$/;
const BUILT = /^(wall|fence|hedge|retaining_wall|city_wall|guard_rail|handrail|jersey_barrier|kerb|bollard|gate|lift_gate)$/;

/** The expected ids, read straight from the store with an independent "meets the polygon" test. */
function expectedIds(svc: RunningService, polygon: [number, number][]): Set<string> {
  const frame = createLocalFrame(polygon[0][0], polygon[0][1]);
  const ring = polygon.slice(0, -1).flatMap(([lat, lon]) => frame.toLocal(lon, lat));
  const lats = polygon.map((p) => p[0]),
    lons = polygon.map((p) => p[1]);
  const store = OsmStore.open(storePaths(svc.config.dataDir).osm);
  const box = { minLon: Math.min(...lons), minLat: Math.min(...lats), maxLon: Math.max(...lons), maxLat: Math.max(...lats) };
  const features = store.query(box, ['barrier', 'other']);
  // gate nodes count where they are a vertex of a road, path or barrier way
  const vertices = new Set<string>();
  for (const w of store.query({ minLon: box.minLon - 0.01, minLat: box.minLat - 0.01, maxLon: box.maxLon + 0.01, maxLat: box.maxLat + 0.01 }, [
    'highway',
    'barrier',
  ])) {
    for (const l of lines(w)) for (let k = 0; k < l.length; k += 2) vertices.add(`${l[k]},${l[k + 1]}`);
  }
  store.close();
  const ids = new Set<string>();
  for (const f of features) {
    if (f.kind === 'point' && GATES.test(f.tags.barrier ?? '') && vertices.has(`${f.point![0]},${f.point![1]}`)) {
      const [x, y] = frame.toLocal(f.point![0], f.point![1]);
      if (pointInRing(x, y, ring)) ids.add(f.id);
      continue;
    }
    if (f.tags.natural === 'cliff') continue;
    const kerbFlush = f.tags.barrier === 'kerb' && (f.tags.kerb === 'flush' || f.tags.kerb === 'no');
    const isBarrier = (BUILT.test(f.tags.barrier ?? '') && !kerbFlush) || f.tags.man_made === 'dyke';
    if (f.kind === 'point' || !isBarrier) continue;
    if (lines(f).some((l) => meets(projectFlat(frame, l), ring))) ids.add(f.id);
  }
  return ids;
}

function lines(f: OsmFeature): number[][] {
  if (f.line) return [f.line];
  return (f.polygons ?? []).flatMap((p) => p.map((r) => [...r, r[0], r[1]]));
}

function meets(line: number[], ring: number[]): boolean {
  for (let k = 0; k < line.length; k += 2) if (pointInRing(line[k], line[k + 1], ring)) return true;
  const n = ring.length / 2;
  for (let k = 0; k + 3 < line.length; k += 2) {
    for (let e = 0; e < n; e++) {
      const f = (e + 1) % n;
      if (segmentsIntersect(line[k], line[k + 1], line[k + 2], line[k + 3], ring[2 * e], ring[2 * e + 1], ring[2 * f], ring[2 * f + 1])) return true;
    }
  }
  return false;
}

function barrierMeshes(json: any): any[] {
  const groups = json.geometry.filter((g: { type: string }) => g.type === 'barriers');
  assert.equal(groups.length, 1, 'one barriers group');
  assert.equal(groups[0].geometryType, 'meshes');
  return groups[0].meshes;
}

test('Monaco: every barrier way meeting the polygon appears exactly once across tiles, closed and outward', async () => {
  const polygon = square(CENTRE[0], CENTRE[1], 600);
  const body = { polygon, settings: { geometry: ['barriers'], upAxis: 'Z' } };
  const [a, b] = await Promise.all([postContext(coarse.url, coarse.demo!.key, body), postContext(fine.url, fine.demo!.key, body)]);
  for (const r of [a, b]) {
    assert.equal(r.status, 200, r.text.slice(0, 200));
    GeometryResponseSchema.parse(r.json);
  }
  const expected = expectedIds(coarse, polygon);
  assert.ok(expected.size >= 20, `${expected.size} barrier ways in the polygon`);
  for (const [name, r] of [
    ['500 m tiles', a],
    ['150 m tiles', b],
  ] as const) {
    const meshes = barrierMeshes(r.json);
    const ids = meshes.map((m) => m.descriptor.id as string);
    const repeated = ids.filter((id, k) => ids.indexOf(id) !== k);
    assert.deepEqual(repeated, [], `${name}: built more than once`);
    assert.deepEqual(
      [...expected].filter((id) => !ids.includes(id)),
      [],
      `${name}: missing`,
    );
    assert.deepEqual(
      ids.filter((id) => !expected.has(id)),
      [],
      `${name}: not expected`,
    );
    for (const m of meshes) {
      const rep = inspectMesh(toIndexedMesh(m));
      assert.ok(rep.closed && rep.volume > 0 && rep.degenerate === 0 && rep.nonFinite === 0, `${name} ${m.descriptor.id}: ${JSON.stringify(rep)}`);
      assert.match(m.descriptor.type, BUILT);
      assert.ok(m.descriptor.height > 0 && m.descriptor.width > 0, JSON.stringify(m.descriptor));
      // no terrain: the base is z = 0 (up = z) and nothing is below it
      const zs = m.vertices.filter((_: number, i: number) => i % 3 === 2);
      assert.equal(Math.min(...zs), 0, m.descriptor.id);
    }
  }
  // gate nodes: a leaf across (or along) the way they stand on
  const gates = barrierMeshes(a.json).filter((m) => m.descriptor.id.startsWith('node/'));
  assert.ok(gates.length >= 3, `${gates.length} gate nodes`);
  for (const g of gates)
    assert.ok(/^(gate|lift_gate)$/.test(g.descriptor.type) && g.descriptor.span > 0 && /^way\//.test(g.descriptor.on), JSON.stringify(g.descriptor));
  // the fence way/687553566 carries material and colour
  const fence = barrierMeshes(a.json).find((m) => m.descriptor.id === 'way/687553566');
  if (fence) assert.deepEqual([fence.descriptor.type, fence.descriptor.material, fence.descriptor.colour], ['fence', 'metal', '#000000']);
});

test('Monaco with topography: barrier bases lie on the returned terrain within 1 cm, nothing floats', async () => {
  const polygon = square(CENTRE[0], CENTRE[1], 600);
  const r = await postContext(coarse.url, coarse.demo!.key, { polygon, settings: { geometry: ['barriers', 'topography'], upAxis: 'Z' } });
  assert.equal(r.status, 200, r.text.slice(0, 200));
  const map: Entry = r.json.geometry.find((g: { type: string }) => g.type === 'topography').elevationMaps[0];
  const meshes = barrierMeshes(r.json);
  assert.ok(meshes.length >= 20);
  let bases = 0,
    worst = 0,
    worstMid = 0;
  for (const m of meshes) {
    const rep = inspectMesh(toIndexedMesh(m));
    assert.ok(rep.closed && rep.volume > 0 && rep.degenerate === 0, `${m.descriptor.id}: ${JSON.stringify(rep)}`);
    const v: number[] = m.vertices;
    for (let k = 0; k < v.length; k += 3) assert.ok(v[k + 2] >= mapHeight(map, v[k], v[k + 1]) - 0.01, `${m.descriptor.id} dips under the ground`);
    // downward faces are the base: their corners on the ground, their middles no higher than 5 cm above it
    for (let t = 0; t < v.length; t += 9) {
      const ux = v[t + 3] - v[t],
        uy = v[t + 4] - v[t + 1],
        uz = v[t + 5] - v[t + 2];
      const wx = v[t + 6] - v[t],
        wy = v[t + 7] - v[t + 1],
        wz = v[t + 8] - v[t + 2];
      const nx = uy * wz - uz * wy,
        ny = uz * wx - ux * wz,
        nz = ux * wy - uy * wx;
      if (nz >= -0.3 * Math.hypot(nx, ny, nz)) continue;
      bases++;
      for (let c = 0; c < 9; c += 3) worst = Math.max(worst, Math.abs(v[t + c + 2] - mapHeight(map, v[t + c], v[t + c + 1])));
      for (const [p, q] of [
        [0, 3],
        [3, 6],
        [6, 0],
      ]) {
        const x = (v[t + p] + v[t + q]) / 2,
          y = (v[t + p + 1] + v[t + q + 1]) / 2,
          z = (v[t + p + 2] + v[t + q + 2]) / 2;
        worstMid = Math.max(worstMid, z - mapHeight(map, x, y));
      }
    }
  }
  assert.ok(bases > 0);
  assert.ok(worst <= 0.01, `base corner off the terrain by ${worst} m`);
  assert.ok(worstMid <= 0.05, `base edge floats ${worstMid} m over the terrain`);
});

test('Monaco: a gate node standing in a wall leaves an opening in it and fills it with its leaf', async () => {
  const gate = [7.4204668, 43.7302279] as const; // node/6445217046, last vertex of retaining wall way/688512118
  const polygon = square(gate[1], gate[0], 120);
  const r = await postContext(coarse.url, coarse.demo!.key, { polygon, settings: { geometry: ['barriers'], upAxis: 'Z' } });
  assert.equal(r.status, 200, r.text.slice(0, 200));
  const meshes = barrierMeshes(r.json);
  const leaf = meshes.find((m) => m.descriptor.id === 'node/6445217046');
  const wall = meshes.find((m) => m.descriptor.id === 'way/688512118');
  assert.ok(leaf && wall, meshes.map((m) => m.descriptor.id).join(' '));
  assert.deepEqual([leaf.descriptor.type, leaf.descriptor.on, leaf.descriptor.span], ['gate', 'way/688512118', 2.5]);
  const [gx, gy] = createLocalFrame(polygon[0][0], polygon[0][1]).toLocal(gate[0], gate[1]);
  const near = (m: { vertices: number[] }) => {
    let d = Infinity;
    for (let k = 0; k < m.vertices.length; k += 3) d = Math.min(d, Math.hypot(m.vertices[k] - gx, m.vertices[k + 1] - gy));
    return d;
  };
  assert.ok(near(wall) > 0.5, `the wall reaches ${near(wall)} m from the gate`);
  assert.ok(near(leaf) < 1.3, 'the leaf is at the gate');
  for (const m of [leaf, wall]) {
    const rep = inspectMesh(toIndexedMesh(m));
    assert.ok(rep.closed && rep.volume > 0 && rep.degenerate === 0);
  }
});
