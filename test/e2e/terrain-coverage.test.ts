/**
 * Honest terrain at the edges of the elevation data, over real HTTP, on a synthetic world: a small
 * OSM extract (written with the project's PBF writer) and one synthetic SRTM tile N10E010 with a
 * void in its middle, configured as the only DEM.
 *
 *   (12.0 N, 12.0 E)  two buildings where no DEM has data
 *   (10.5 N, 10.0 E)  the DEM's western edge: one building on each side of it
 *   (10.5 N, 10.5 E)  inside the DEM, on a void of the file
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GeometryResponseSchema } from '../../src/contract/response-schema.ts';
import { createLocalFrame } from '../../src/frame/local-frame.ts';
import { writeOsmPbf, type NodeInput, type WayInput } from '../support/generators/pbf-writer.ts';
import type { RunningService } from '../../src/service.ts';
import { gridPoint, hgtReader, mapHeight, type Entry } from '../support/service/elevation-map.ts';
import { postContext, startTestService } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';

const SIZE = 1201;
const VOID = { row: 600, col: 600, half: 3 }; // 7 × 7 void pixels around (10.5 N, 10.5 E)

function syntheticHgt(): Buffer {
  const b = Buffer.alloc(SIZE * SIZE * 2);
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      const inVoid = Math.abs(r - VOID.row) <= VOID.half && Math.abs(c - VOID.col) <= VOID.half;
      b.writeInt16BE(inVoid ? -32768 : Math.round(300 + 200 * Math.sin(c / 40) + 150 * Math.cos(r / 55)), 2 * (r * SIZE + c));
    }
  }
  return b;
}

const OUTSIDE = [12.0, 12.0] as const;
const EDGE = [10.5, 10.0] as const;
const INSIDE = [10.5, 10.5] as const;

/** 20 m square buildings at local offsets (metres east, north) of a centre. */
function extract(): Buffer {
  const nodes: NodeInput[] = [];
  const ways: WayInput[] = [];
  const place = (centre: readonly [number, number], offsets: [number, number][], height: string) => {
    const frame = createLocalFrame(centre[0], centre[1]);
    for (const [ox, oy] of offsets) {
      const refs: number[] = [];
      for (const [dx, dy] of [
        [-10, -10],
        [10, -10],
        [10, 10],
        [-10, 10],
      ]) {
        const [lon, lat] = frame.toLonLat(ox + dx, oy + dy);
        nodes.push({ id: nodes.length + 1, lon, lat });
        refs.push(nodes.length);
      }
      ways.push({ id: 1000 + ways.length, tags: { building: 'yes', height }, refs: [...refs, refs[0]] });
    }
  };
  place(
    OUTSIDE,
    [
      [-60, 0],
      [60, 30],
    ],
    '12',
  );
  place(
    EDGE,
    [
      [-300, 0],
      [300, 0],
    ],
    '10',
  );
  place(INSIDE, [[100, 100]], '8');
  return writeOsmPbf({ nodes, ways, relations: [] });
}

let svc: RunningService;
let key: string;
const hgt = syntheticHgt();
const dem = hgtReader(hgt, 10, 10);

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-coverage-'));
  writeFileSync(join(dir, 'N10E010.hgt'), hgt);
  writeFileSync(join(dir, 'synthetic.osm.pbf'), extract());
  svc = await startTestService({ osmExtract: join(dir, 'synthetic.osm.pbf'), dem: [{ kind: 'hgt', path: join(dir, 'N10E010.hgt') }] });
  key = svc.demo!.key;
});
after(async () => {
  await svc?.close();
});

const group = (r: { json: any }, type: string, geometryType: string) =>
  r.json.geometry.find((g: { type: string; geometryType: string }) => g.type === type && g.geometryType === geometryType);

describe('no elevation data for the area', () => {
  test('the topography group is present and empty, buildings stand on z = 0 as without terrain, and a warning says so', async () => {
    const polygon = square(OUTSIDE[0], OUTSIDE[1], 400);
    const settings = { upAxis: 'Z', indexedMeshes: true };
    const r = await postContext(svc.url, key, { polygon, settings: { ...settings, geometry: ['buildings', 'topography'], topographyReturnType: 'both' } });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    GeometryResponseSchema.parse(r.json);
    assert.deepEqual(group(r, 'topography', 'elevationMaps').elevationMaps, []);
    assert.deepEqual(group(r, 'topography', 'meshes').meshes, []);
    assert.deepEqual(
      r.json.warnings.map((w: { code: string }) => w.code),
      ['elevation_unavailable'],
    );
    assert.equal(r.json.warnings[0].details.coveredShare, 0);
    assert.ok(typeof r.json.warnings[0].message === 'string' && r.json.warnings[0].message.length > 20);
    assert.deepEqual(Object.keys(r.json), ['origin', 'spatialReference', 'geometry', 'warnings', 'attributions', 'dataAccess']);
    assert.ok(!r.json.attributions.some((a: { id: string }) => a.id === 'srtm'), 'no DEM credit when no DEM contributed');

    const buildings = group(r, 'buildings', 'meshes').meshes;
    assert.equal(buildings.length, 2);
    for (const b of buildings) {
      assert.equal(b.descriptor.groundElevation, undefined);
      const zs = b.vertices.filter((_: number, i: number) => i % 3 === 2);
      assert.equal(Math.min(...zs), 0);
    }
    const flat = await postContext(svc.url, key, { polygon, settings: { ...settings, geometry: ['buildings'] } });
    assert.deepEqual(flat.json.warnings, []);
    const byId = (ms: { descriptor: { id: string } }[]) => [...ms].sort((a, b) => a.descriptor.id.localeCompare(b.descriptor.id));
    assert.deepEqual(byId(buildings), byId(group(flat, 'buildings', 'meshes').meshes), 'exactly the buildings of a request without terrain');

    const projected = await postContext(svc.url, key, { polygon, settings: { ...settings, geometry: ['buildings'], projectToTopography: true } });
    assert.deepEqual(
      projected.json.warnings.map((w: { code: string }) => w.code),
      ['elevation_unavailable'],
    );
    assert.deepEqual(byId(group(projected, 'buildings', 'meshes').meshes), byId(buildings));
  });
});

describe('elevation data for part of the area', () => {
  test('covered nodes are the DEM, the rest is filled from them, buildings stand on the filled ground, and the share is reported', async () => {
    const polygon = square(EDGE[0], EDGE[1], 1200);
    const r = await postContext(svc.url, key, { polygon, settings: { geometry: ['buildings', 'topography'], upAxis: 'Z' } });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    GeometryResponseSchema.parse(r.json);
    assert.deepEqual(
      r.json.warnings.map((w: { code: string }) => w.code),
      ['elevation_partial'],
    );
    const share = r.json.warnings[0].details.coveredShare;
    assert.ok(share > 0.2 && share < 0.8, `covered share ${share}`);

    const [e]: Entry[] = group(r, 'topography', 'elevationMaps').elevationMaps;
    const n = e.info.segmentsCount;
    const frame = createLocalFrame(polygon[0][0], polygon[0][1]);
    const covered: number[] = [];
    let filled = 0;
    for (let row = 0; row <= n; row++)
      for (let col = 0; col <= n; col++) {
        const [lon, lat] = frame.toLonLat(...gridPoint(e, row, col));
        const h = e.elevationMap[row * (n + 1) + col];
        if (lon >= 10 + 1 / 1200) {
          assert.ok(Math.abs(h - dem(lon, lat)) <= 0.01, `covered node ${row},${col}: map ${h}, DEM ${dem(lon, lat)}`);
          covered.push(h);
        } else if (lon < 10) filled++;
      }
    assert.ok(filled > 0 && covered.length > 0);
    const lo = Math.min(...covered),
      hi = Math.max(...covered);
    assert.ok(
      e.elevationMap.every((h) => h >= lo - 60 && h <= hi + 60),
      'filled nodes stay near the covered ground',
    );

    const buildings = group(r, 'buildings', 'meshes').meshes;
    assert.equal(buildings.length, 2);
    for (const b of buildings) {
      const xs = b.vertices.filter((_: number, i: number) => i % 3 === 0),
        ys = b.vertices.filter((_: number, i: number) => i % 3 === 1);
      const base = Math.min(...b.vertices.filter((_: number, i: number) => i % 3 === 2));
      let ground = Infinity;
      for (let a = 0; a <= 8; a++)
        for (let c = 0; c <= 8; c++) {
          const x = Math.min(...xs) + ((Math.max(...xs) - Math.min(...xs)) * a) / 8,
            y = Math.min(...ys) + ((Math.max(...ys) - Math.min(...ys)) * c) / 8;
          ground = Math.min(ground, mapHeight(e, x, y));
        }
      assert.ok(Math.abs(base - ground) < 0.5, `${b.descriptor.id}: base ${base}, lowest map ground ${ground}`);
      assert.equal(b.descriptor.groundElevation, Math.round(base * 1000) / 1000);
    }
  });
});

describe('a void inside the data', () => {
  test('is filled by the source and counts as covered: no warning', async () => {
    const polygon = square(INSIDE[0], INSIDE[1], 600);
    const r = await postContext(svc.url, key, { polygon, settings: { geometry: ['topography'] } });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.deepEqual(r.json.warnings, []);
    const [e]: Entry[] = group(r, 'topography', 'elevationMaps').elevationMaps;
    assert.ok(
      e.elevationMap.every((h) => h > 0 && h < 700),
      'no void value and no spike in the map',
    );
  });
});
