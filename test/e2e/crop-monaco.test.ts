/**
 * cropScene on real data (issue 11): the service as started, over the bundled Monaco sample, with
 * the concave polygon of the acceptance probe. Every group of the JSON answer and a GLB export of
 * it are judged against the polygon: every cut building and barrier closed and outward, nothing
 * outside by more than 1 mm, buildings across the boundary marked `cropped`, the cropped ground
 * covering exactly the polygon's part of the uncropped ground, nodes inside, the elevation map's
 * mask true to the polygon.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Clipper, FillRule, type Paths64 } from 'clipper2-ts';
import { NodeIO } from '@gltf-transform/core';
import fc from 'fast-check';
import { createLocalFrame } from '../../src/frame/local-frame.ts';
import { inspectMesh } from '../../src/geometry/mesh-checks.ts';
import { pointInRing } from '../../src/geometry/ring.ts';
import { cropPolygon, distanceOutside, type CropPolygon } from '../../src/geometry/crop/index.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext, toIndexedMesh } from '../support/service/http.ts';
import { startExportApp, type ExportApp } from '../support/service/export-app.ts';
import { MemoryExportStore } from '../support/stores/memory-export-store.ts';
import { problems, validateGltf } from '../support/checks/gltf-validate.ts';
import { cropPolygonArbitrary } from '../support/arbitraries/crop.ts';

const c: [number, number] = [43.7335, 7.419],
  d = 0.0018;
/** The h1 probe's polygon: a 400 m square over central Monaco with a notch reaching its centre. */
const polygon = [
  [c[0] - d, c[1] - d],
  [c[0] - d, c[1] + d],
  [c[0], c[1] + 0.3 * d],
  [c[0] + d, c[1] + d],
  [c[0] + d, c[1] - d],
  [c[0] - d, c[1] - d],
];
const frame = createLocalFrame(c[0], c[1]);
const ring = polygon.slice(0, -1).flatMap(([lat, lon]) => frame.toLocal(lon, lat));
const poly: CropPolygon = cropPolygon(ring);
const settings = {
  geometry: ['buildings', 'surface', 'barriers', 'instances', 'topography'],
  upAxis: 'Z',
  topographyReturnType: 'both',
  surfaceTypes: ['meshes', 'centerlines', 'outlines'],
};

let app: ExportApp;
let svc: RunningService;
let key: string;
const store = new MemoryExportStore();
let plain: any, cropped: any;

before(async () => {
  app = await startExportApp({ store });
  svc = app.svc;
  const account = await svc.accounts.createAccount({ name: 'crop', balanceKm2: 100, active: true });
  key = (await svc.accounts.createKey(account.id, 'development')).key;
  const a = await postContext(app.url, key, { polygon, origin: c, settings });
  const b = await postContext(app.url, key, { polygon, origin: c, settings: { ...settings, cropScene: true } });
  assert.equal(a.status, 200, a.text.slice(0, 300));
  assert.equal(b.status, 200, b.text.slice(0, 300));
  plain = a.json;
  cropped = b.json;
});
after(async () => {
  await app?.close();
});

const group = (r: any, type: string, kind?: string) => r.geometry.find((g: any) => g.type === type && (!kind || g.geometryType === kind));

test('every cut building and barrier is closed and outward, marked cropped, and none is lost', async () => {
  for (const type of ['buildings', 'barriers']) {
    const meshes = group(cropped, type).meshes;
    let cut = 0;
    for (const m of meshes) {
      const r = inspectMesh(toIndexedMesh(m));
      assert.ok(
        r.closed && r.volume > 0 && r.nonFinite === 0,
        `${type} ${m.descriptor.id}: open ${r.openEdges}, repeated ${r.repeatedEdges}, volume ${r.volume}`,
      );
      if (m.descriptor.cropped) cut++;
      assert.ok(!m.descriptor.dataNotes?.some((n: string) => n.startsWith('cropScene')), `${m.descriptor.id}: ${m.descriptor.dataNotes}`);
    }
    assert.equal(meshes.length, group(plain, type).meshes.length, `${type}: every feature that meets the polygon keeps a piece`);
    assert.ok(cut > 0, `${type}: some cut`);
  }
  const buildings = group(cropped, 'buildings').meshes;
  for (const m of buildings) if (m.descriptor.cropped) assert.equal(m.descriptor.intersectsBoundary, true);
  assert.ok(buildings.filter((m: any) => m.descriptor.cropped).length >= 20);
});

test('nothing of the model lies outside the polygon by more than 1 mm (the uncropped model does)', async () => {
  const worst = (r: any) => {
    let w = 0;
    for (const g of r.geometry) {
      for (const m of g.meshes ?? []) for (let i = 0; i < m.vertices.length; i += 3) w = Math.max(w, distanceOutside(poly, m.vertices[i], m.vertices[i + 1]));
      for (const l of g.polylines ?? [])
        for (let i = 0; i < l.vertices.length; i += 3) w = Math.max(w, distanceOutside(poly, l.vertices[i], l.vertices[i + 1]));
      for (const n of g.nodes ?? []) w = Math.max(w, distanceOutside(poly, n.x, n.y));
    }
    return w;
  };
  assert.ok(worst(plain) > 10, 'the plain answer reaches past the polygon');
  const w = worst(cropped);
  assert.ok(w <= 0.001, `${(w * 1000).toFixed(2)} mm outside`);
  for (const type of ['surface', 'surfaceLines', 'instances'])
    assert.ok((group(cropped, type).meshes ?? group(cropped, type).polylines ?? group(cropped, type).nodes).length > 0, type);
  assert.ok(group(cropped, 'topography', 'meshes').meshes.length > 0);
});

/** Plan area of a group's triangles (upward ground pieces: all counter-clockwise), and their paths for Clipper. */
function triangles(meshes: any[]): { area: number; paths: Paths64 } {
  let area = 0;
  const paths: Paths64 = [];
  for (const m of meshes) {
    const v = m.vertices;
    for (let i = 0; i < v.length; i += 9) {
      area += ((v[i + 3] - v[i]) * (v[i + 7] - v[i + 1]) - (v[i + 4] - v[i + 1]) * (v[i + 6] - v[i])) / 2;
      paths.push([0, 3, 6].map((k) => ({ x: Math.round(v[i + k] * 1000), y: Math.round(v[i + k + 1] * 1000) })));
    }
  }
  return { area, paths };
}

test('the cropped ground covers exactly the polygon where the uncropped ground covered it', async () => {
  const cut = triangles(group(cropped, 'surface').meshes);
  const whole = triangles(group(plain, 'surface').meshes);
  const P = [Array.from({ length: ring.length / 2 }, (_, k) => ({ x: Math.round(ring[2 * k] * 1000), y: Math.round(ring[2 * k + 1] * 1000) }))];
  const expected = Clipper.intersect(whole.paths, P, FillRule.NonZero).reduce((a, p) => a + Clipper.area(p), 0) / 1e6;
  assert.ok(Math.abs(cut.area - expected) <= 1e-3 * expected, `cropped ground ${cut.area.toFixed(1)} m², polygon ∩ ground ${expected.toFixed(1)} m²`);
  assert.ok(
    expected >
      0.5 * Math.abs(ring.reduce((a, _, i) => (i % 2 ? a : a + ring[i] * ring[(i + 3) % ring.length] - ring[(i + 2) % ring.length] * ring[i + 1]), 0) / 2),
    'the ground (buildings cut out) covers most of the polygon',
  );
});

test('the elevation map stays a full square grid with a 0/1 mask of the nodes inside the polygon', async () => {
  const entry = group(cropped, 'topography', 'elevationMaps').elevationMaps[0];
  const { segmentsCount: n, terrainSize: size, moveVector } = entry.info;
  assert.equal(entry.elevationMap.length, (n + 1) ** 2);
  assert.equal(entry.mask.length, entry.elevationMap.length);
  assert.ok(entry.elevationMap.every((h: number) => Number.isFinite(h)));
  let inside = 0;
  for (let r = 0; r <= n; r++)
    for (let col = 0; col <= n; col++) {
      const x = moveVector.x - size / 2 + (col * size) / n,
        y = moveVector.y + size / 2 - (r * size) / n;
      const want = pointInRing(x, y, poly.ring) ? 1 : 0;
      if (distanceOutside(poly, x, y) > 0.01 || want) assert.equal(entry.mask[r * (n + 1) + col], want, `node ${r}, ${col}`);
      inside += entry.mask[r * (n + 1) + col];
    }
  assert.ok(inside > 0 && inside < entry.mask.length);
  assert.equal(group(plain, 'topography', 'elevationMaps').elevationMaps[0].mask, undefined, 'no mask without cropScene');
});

test('a GLB export of a cropped request is cut too, and valid', async () => {
  const a = await postContext(app.url, key, {
    polygon,
    origin: c,
    settings: { geometry: ['buildings', 'surface', 'barriers'], cropScene: true },
    export: { format: 'glb' },
  });
  assert.equal(a.status, 200, a.text);
  const bytes = store.bytesOf(a.json.downloadUrl)!;
  const report = await validateGltf(bytes);
  assert.equal(report.issues.numErrors, 0, problems(report));
  const doc = await new NodeIO().readBinary(bytes);
  let worst = 0,
    points = 0;
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const mtx = node.getWorldMatrix();
    for (const prim of mesh.listPrimitives()) {
      const pos = prim.getAttribute('POSITION')!.getArray()!;
      for (let i = 0; i < pos.length; i += 3) {
        // glTF is Y up: x east, z south
        const x = mtx[0] * pos[i] + mtx[4] * pos[i + 1] + mtx[8] * pos[i + 2] + mtx[12];
        const z = mtx[2] * pos[i] + mtx[6] * pos[i + 1] + mtx[10] * pos[i + 2] + mtx[14];
        worst = Math.max(worst, distanceOutside(poly, x, -z));
        points++;
      }
    }
  }
  assert.ok(points > 1000, `${points} points`);
  assert.ok(worst <= 0.0012, `${(worst * 1000).toFixed(2)} mm outside in the GLB (float32 positions)`);
});

test('generated concave, near-collinear polygons over Monaco: every building and barrier cut closed, nothing outside', async () => {
  const rings = fc.sample(cropPolygonArbitrary, { numRuns: 4, seed: 11 });
  for (const small of rings) {
    const local = small.map((v) => v * 4); // radii 100–320 m around the origin
    const lonLat = [];
    for (let i = 0; i < local.length; i += 2) {
      const [lon, lat] = frame.toLonLat(local[i], local[i + 1]);
      lonLat.push([lat, lon]);
    }
    const body = { polygon: [...lonLat, lonLat[0]], origin: c, settings: { geometry: ['buildings', 'barriers'], upAxis: 'Z', cropScene: true } };
    const r = await postContext(app.url, key, body);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    const p = cropPolygon(local);
    let cut = 0;
    for (const g of r.json.geometry) {
      for (const m of g.meshes) {
        const rep = inspectMesh(toIndexedMesh(m));
        assert.ok(rep.closed && rep.volume > 0, `${m.descriptor.id}: open ${rep.openEdges}`);
        for (let i = 0; i < m.vertices.length; i += 3) assert.ok(distanceOutside(p, m.vertices[i], m.vertices[i + 1]) <= 0.001, m.descriptor.id);
        if (m.descriptor.cropped) cut++;
      }
    }
    assert.ok(cut > 0, 'some buildings cut');
  }
});
