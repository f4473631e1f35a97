import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { createLocalFrame } from '../../src/frame/local-frame.ts';
import { GeometryResponseSchema } from '../../src/contract/response-schema.ts';
import { inspectMesh } from '../../src/geometry/mesh-checks.ts';
import { pointInRing } from '../../src/geometry/ring.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext, startTestService, toIndexedMesh } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { gridPoint, mapHeight, onMap, type Entry } from '../support/service/elevation-map.ts';

let svc: RunningService;
let key: string;
before(async () => {
  svc = await startTestService();
  key = svc.demo!.key;
});
after(async () => {
  await svc?.close();
});

const SLOPE = [43.7335, 7.419] as const; // Fontvieille / Monaco-Ville slope

/** Independent reader of the bundled SRTM3 tile: big-endian int16, 1201², pixel-is-point, bilinear. */
const hgt = readFileSync(join(REPO_ROOT, 'data/dem/N43E007.hgt'));
function srtm(lon: number, lat: number): number {
  const fx = (lon - 7) * 1200,
    fy = (44 - lat) * 1200;
  const c = Math.floor(fx),
    r = Math.floor(fy),
    u = fx - c,
    v = fy - r;
  const at = (cc: number, rr: number) => hgt.readInt16BE(2 * (rr * 1201 + cc));
  return at(c, r) * (1 - u) * (1 - v) + at(c + 1, r) * u * (1 - v) + at(c, r + 1) * (1 - u) * v + at(c + 1, r + 1) * u * v;
}

test('topography: one combined elevation map that reproduces the DEM at its grid points', async () => {
  const polygon = square(SLOPE[0], SLOPE[1], 800);
  const r = await postContext(svc.url, key, { polygon, settings: { geometry: ['topography'] } });
  assert.equal(r.status, 200, r.text.slice(0, 200));
  GeometryResponseSchema.parse(r.json);
  const groups = r.json.geometry;
  assert.deepEqual(
    groups.map((g: { type: string; geometryType: string }) => `${g.type}/${g.geometryType}`),
    ['topography/elevationMaps'],
  );
  assert.equal(groups[0].elevationMaps.length, 1);
  const e: Entry = groups[0].elevationMaps[0];
  const n = e.info.segmentsCount;
  assert.equal(e.elevationMap.length, (n + 1) ** 2);
  assert.deepEqual([e.info.width, e.info.height, e.info.segmentsWidth, e.info.segmentsHeight], [e.info.terrainSize, e.info.terrainSize, n, n]);
  const frame = createLocalFrame(polygon[0][0], polygon[0][1]);
  let worst = 0;
  for (let row = 0; row <= n; row++)
    for (let col = 0; col <= n; col++) {
      const [x, y] = gridPoint(e, row, col);
      const [lon, lat] = frame.toLonLat(x, y);
      worst = Math.max(worst, Math.abs(e.elevationMap[row * (n + 1) + col] - srtm(lon, lat)));
    }
  assert.ok(worst <= 0.01, `largest difference from the DEM ${worst} m`);
  assert.ok(
    r.json.attributions.some((a: { id: string; text: string }) => /SRTM/.test(a.text)),
    'SRTM credit',
  );
  assert.ok(!r.json.attributions.some((a: { text: string }) => /OpenStreetMap/.test(a.text)), 'no OSM credit when OSM did not contribute');
});

test('per-tile elevation maps meet without gaps and equal the combined grid where they overlap', async () => {
  const polygon = square(SLOPE[0], SLOPE[1], 900);
  const [combined, tiles] = await Promise.all([
    postContext(svc.url, key, { polygon, settings: { geometry: ['topography'] } }),
    postContext(svc.url, key, { polygon, settings: { geometry: ['topography'], combineElevationMaps: false } }),
  ]);
  const one: Entry = combined.json.geometry[0].elevationMaps[0];
  const many: Entry[] = tiles.json.geometry[0].elevationMaps;
  assert.ok(many.length >= 4, `${many.length} tiles`);
  for (const t of many) {
    const n = t.info.segmentsCount;
    for (let row = 0; row <= n; row++)
      for (let col = 0; col <= n; col++) {
        const [x, y] = gridPoint(t, row, col);
        assert.ok(Math.abs(mapHeight(one, x, y) - t.elevationMap[row * (n + 1) + col]) < 0.0015, `tile sample at ${x},${y}`);
      }
  }
});

/** Edges used by one triangle only, welding vertices at equal coordinates. */
function openEdges(mesh: { positions: Float64Array; indices: Uint32Array }): [number, number][] {
  const key = (v: number) => `${mesh.positions[3 * v]},${mesh.positions[3 * v + 1]},${mesh.positions[3 * v + 2]}`;
  const first = new Map<string, number>();
  const weld = (v: number) => {
    const k = key(v);
    if (!first.has(k)) first.set(k, v);
    return first.get(k)!;
  };
  const count = new Map<string, [number, number, number]>();
  for (let t = 0; t < mesh.indices.length; t += 3)
    for (let e = 0; e < 3; e++) {
      const a = weld(mesh.indices[t + e]),
        b = weld(mesh.indices[t + ((e + 1) % 3)]);
      const k = a < b ? `${a},${b}` : `${b},${a}`;
      const c = count.get(k);
      if (c) c[2]++;
      else count.set(k, [a, b, 1]);
    }
  return [...count.values()].filter((c) => c[2] === 1).map(([a, b]) => [a, b]);
}

function distanceToRing(x: number, y: number, ring: number[]): number {
  let d = Infinity;
  for (let i = 0; i < ring.length; i += 2) {
    const ax = ring[i],
      ay = ring[i + 1],
      bx = ring[(i + 2) % ring.length],
      by = ring[(i + 3) % ring.length];
    const l2 = (bx - ax) ** 2 + (by - ay) ** 2;
    const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / l2)) : 0;
    d = Math.min(d, Math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)));
  }
  return d;
}

test('terrain meshes are crack-free over the site and elevation maps are far smaller', async () => {
  const polygon = square(SLOPE[0], SLOPE[1], 800);
  const r = await postContext(svc.url, key, { polygon, settings: { geometry: ['topography'], topographyReturnType: 'both', upAxis: 'Z' } });
  assert.equal(r.status, 200);
  const kinds = r.json.geometry.map((g: { geometryType: string }) => g.geometryType).sort();
  assert.deepEqual(kinds, ['elevationMaps', 'meshes']);
  const meshes = r.json.geometry.find((g: { geometryType: string }) => g.geometryType === 'meshes').meshes;
  // Stitch all tile meshes: the only open edges left must be the outer border of the terrain square.
  const all = meshes.map(toIndexedMesh);
  const positions = Float64Array.from(all.flatMap((m: { positions: Float64Array }) => [...m.positions]));
  let offset = 0;
  const indices = Uint32Array.from(
    all.flatMap((m: { positions: Float64Array; indices: Uint32Array }) => {
      const out = [...m.indices].map((i) => i + offset);
      offset += m.positions.length / 3;
      return out;
    }),
  );
  const report = inspectMesh({ positions, indices });
  assert.equal(report.degenerate, 0);
  assert.equal(report.repeatedEdges, 0);
  // the meshes cover the site (the polygon plus the buildings crossing it): open edges only on its
  // outline, none inside the polygon (a crack between tiles would be one)
  const frame = createLocalFrame(polygon[0][0], polygon[0][1]);
  const ring = polygon.slice(0, -1).flatMap(([la, lo]) => frame.toLocal(lo, la));
  const shrunk = (x: number, y: number) => pointInRing(x, y, ring) && distanceToRing(x, y, ring) > 0.01;
  const open = openEdges({ positions, indices });
  assert.ok(open.length > 0);
  for (const [a, b] of open) {
    const mx = (positions[3 * a] + positions[3 * b]) / 2,
      my = (positions[3 * a + 1] + positions[3 * b + 1]) / 2;
    assert.ok(!shrunk(mx, my), `an open edge inside the polygon at (${mx}, ${my})`);
  }
  const mapBytes = JSON.stringify(r.json.geometry.find((g: { geometryType: string }) => g.geometryType === 'elevationMaps')).length;
  const meshBytes = JSON.stringify(meshes).length;
  assert.ok(mapBytes < meshBytes / 3, `map ${mapBytes} B vs mesh ${meshBytes} B`);
});

test('with projectToTopography every building stands on the ground: base at the lowest terrain under it, estimated roofs above the highest', async () => {
  const polygon = square(SLOPE[0], SLOPE[1], 700);
  const r = await postContext(svc.url, key, { polygon, settings: { geometry: ['buildings', 'topography'], upAxis: 'Z', combineElevationMaps: true } });
  assert.equal(r.status, 200, r.text.slice(0, 200));
  const e: Entry = r.json.geometry.find((g: { type: string }) => g.type === 'topography').elevationMaps[0];
  const buildings = r.json.geometry.find((g: { type: string }) => g.type === 'buildings').meshes;
  assert.ok(buildings.length > 200);
  // A building is its outline with all its parts: it stands as one on its lowest ground.
  const byBuilding = new Map<string, any[]>();
  for (const b of buildings) {
    if (b.descriptor.buildingMinHeight > 0) continue; // raised parts float on purpose
    const id = b.descriptor.parentId ?? b.descriptor.id;
    byBuilding.set(id, [...(byBuilding.get(id) ?? []), b]);
  }
  const half = e.info.terrainSize / 2,
    m = e.info.moveVector;
  let checked = 0,
    estimated = 0;
  for (const [id, meshes] of byBuilding) {
    const all: number[] = meshes.flatMap((b) => b.vertices);
    if (!all.every((value, i) => i % 3 === 2 || Math.abs(value - (i % 3 === 0 ? m.x : m.y)) <= half)) continue; // the map cannot judge ground beyond its edge
    let base = Infinity;
    for (let i = 2; i < all.length; i += 3) base = Math.min(base, all[i]);
    // Terrain under the footprints: the floor triangles, sampled densely (corners, edges, interior).
    const ground: number[] = [];
    for (const b of meshes) {
      const v: number[] = b.vertices;
      for (let t = 0; t < v.length; t += 9) {
        if (![v[t + 2], v[t + 5], v[t + 8]].every((z) => Math.abs(z - base) < 1e-6)) continue;
        for (let a = 0; a <= 8; a++)
          for (let c = 0; a + c <= 8; c++) {
            const x = v[t] + ((v[t + 3] - v[t]) * a + (v[t + 6] - v[t]) * c) / 8;
            const y = v[t + 1] + ((v[t + 4] - v[t + 1]) * a + (v[t + 7] - v[t + 1]) * c) / 8;
            ground.push(mapHeight(e, x, y));
          }
      }
    }
    const min = Math.min(...ground),
      max = Math.max(...ground);
    assert.ok(base >= min - 0.1 && base <= max + 0.1, `${id}: base ${base} outside ground ${min}..${max}`);
    assert.ok(base <= min + 0.1, `${id} floats: base ${base}, lowest ground under it ${min}`);
    for (const b of meshes) assert.equal(b.descriptor.groundElevation, Math.round(base * 1000) / 1000);
    // Estimated heights count from the highest ground under the building: no roof below the uphill ground.
    if (meshes.every((b) => !String(b.descriptor.heightSource).endsWith('height'))) {
      for (const b of meshes) {
        let top = -Infinity;
        for (let i = 2; i < b.vertices.length; i += 3) top = Math.max(top, b.vertices[i]);
        assert.ok(top > max + 0.1, `${b.descriptor.id}: top ${top} below the uphill ground ${max}`);
      }
      estimated++;
    }
    checked++;
  }
  assert.ok(checked > 200 && estimated > 200, `${checked} buildings, ${estimated} with estimated heights`);
  const plain = await postContext(svc.url, key, { polygon, settings: { geometry: ['buildings'], projectToTopography: true, upAxis: 'Z' } });
  assert.deepEqual(
    plain.json.geometry.map((g: { type: string }) => g.type),
    ['buildings'],
    'projectToTopography returns no terrain',
  );
  const zs = plain.json.geometry[0].meshes.flatMap((m: { vertices: number[] }) => m.vertices.filter((_, i) => i % 3 === 2));
  assert.ok(Math.max(...zs) > 60, 'heights are metres above sea level');
});

test('combined map over a strip: every node of the square, corner tiles included, is the DEM (within 1 cm)', async () => {
  // ~1.4 km × 0.3 km: 3 × 1 polygon tiles in a 3 × 3 square whose six other tiles touch no part of the polygon.
  const [lat, lon] = SLOPE;
  const dLat = 150 / 111320,
    dLon = 700 / (111320 * Math.cos((lat * Math.PI) / 180));
  const polygon = [
    [lat - dLat, lon - dLon],
    [lat - dLat, lon + dLon],
    [lat + dLat, lon + dLon],
    [lat + dLat, lon - dLon],
    [lat - dLat, lon - dLon],
  ];
  const r = await postContext(svc.url, key, { polygon, settings: { geometry: ['topography'] } });
  assert.equal(r.status, 200, r.text.slice(0, 200));
  assert.deepEqual(r.json.warnings, []);
  const e: Entry = r.json.geometry[0].elevationMaps[0];
  const n = e.info.segmentsCount;
  assert.equal(e.info.terrainSize, 1500);
  const frame = createLocalFrame(polygon[0][0], polygon[0][1]);
  let worst = 0,
    where = '';
  for (let row = 0; row <= n; row++)
    for (let col = 0; col <= n; col++) {
      const [x, y] = gridPoint(e, row, col);
      const d = Math.abs(e.elevationMap[row * (n + 1) + col] - srtm(...frame.toLonLat(x, y)));
      if (d > worst) {
        worst = d;
        where = `${row},${col}`;
      }
    }
  assert.ok(worst <= 0.01, `largest difference from the DEM ${worst} m at node ${where}`);
});

test('the returned terrain reaches under every returned building, also those crossing the boundary', async () => {
  const polygon = square(SLOPE[0], SLOPE[1], 700);
  const base = { geometry: ['buildings', 'topography'], upAxis: 'Z' };
  const [combined, perTile, meshes] = await Promise.all([
    postContext(svc.url, key, { polygon, settings: base }),
    postContext(svc.url, key, { polygon, settings: { ...base, combineElevationMaps: false } }),
    postContext(svc.url, key, { polygon, settings: { ...base, topographyReturnType: 'meshes' } }),
  ]);
  const frame = createLocalFrame(polygon[0][0], polygon[0][1]);
  const west = Math.min(...polygon.map(([la, lo]) => frame.toLocal(lo, la)[0]));
  for (const r of [combined, perTile, meshes]) {
    assert.equal(r.status, 200, r.text.slice(0, 200));
    GeometryResponseSchema.parse(r.json);
    assert.deepEqual(r.json.warnings, []);
    const buildings = r.json.geometry.find((g: { type: string }) => g.type === 'buildings').meshes;
    const topo = r.json.geometry.find((g: { type: string }) => g.type === 'topography');
    const boxes =
      topo.geometryType === 'meshes'
        ? topo.meshes.map((m: { vertices: number[] }) => {
            const b = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
            for (let i = 0; i < m.vertices.length; i += 3) {
              b.minX = Math.min(b.minX, m.vertices[i]);
              b.maxX = Math.max(b.maxX, m.vertices[i]);
              b.minY = Math.min(b.minY, m.vertices[i + 1]);
              b.maxY = Math.max(b.maxY, m.vertices[i + 1]);
            }
            return b;
          })
        : topo.elevationMaps.map((e: Entry) => e);
    const covered = (x: number, y: number) =>
      boxes.some((b: any) => ('info' in b ? onMap(b, x, y) : x >= b.minX - 1e-3 && x <= b.maxX + 1e-3 && y >= b.minY - 1e-3 && y <= b.maxY + 1e-3));
    let outside = 0,
      beyondWest = 0;
    for (const b of buildings) {
      for (let i = 0; i < b.vertices.length; i += 3) {
        if (!covered(b.vertices[i], b.vertices[i + 1])) outside++;
        if (b.vertices[i] < west) beyondWest++;
      }
    }
    assert.ok(beyondWest > 0, 'some building crosses the west edge of the polygon (and of its tiles)');
    assert.equal(outside, 0, `${outside} building vertices stand beyond the returned terrain (${topo.geometryType}, ${boxes.length} pieces)`);
  }
});
