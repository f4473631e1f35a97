/**
 * Ground and terrain never lie on each other in an exported file, in every registered format
 * (docs/terrain.md "Ground and terrain in one file never lie on each other"): a Monaco slope with
 * buildings, the ground draped on the terrain and the terrain as meshes is exported through the
 * real app and worker pool, each file is read back by an independent reader into one Z-up triangle
 * soup (test/support/checks/triangle-soups.ts), and no upward-facing terrain triangle and other
 * upward triangle overlap in plan within 2 cm of height (test/support/checks/z-fighting.ts); the
 * terrain's triangles are those of the JSON answer to the same request, found in the soup to 1 mm,
 * all of them in every file. The glb shows the check has something to find: thousands of upward
 * triangles, terrain nodes among them, and the whole terrain grid laid under its ground z-fights
 * nearly everywhere. Nor do any two upward triangles at all (ground on ground, a bridge deck on the
 * grass where it lands: docs/ground.md), in every format.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeIO } from '@gltf-transform/core';
import rhino3dm from 'rhino3dm';
import * as W from 'web-ifc';
import { EXPORT_WRITERS } from '../../src/export/formats/index.ts';
import { METRES_PER_UNIT, type ExportUnits } from '../../src/export/scene.ts';
import type { ExportFormat } from '../../src/contract/types.ts';
import { writeTemp } from '../support/checks/export-readers.ts';
import { daeSoup, dxfSoup, gltfSoup, ifcSoup, objSoup, plySoup, rhinoSoup, stlSoup, type SoupReaders } from '../support/checks/triangle-soups.ts';
import { findZFighting, trianglesOf, type ZFightingReport, type ZFightingSpot } from '../support/checks/z-fighting.ts';
import { postContext } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { startExportApp, type ExportApp } from '../support/service/export-app.ts';
import { MemoryExportStore } from '../support/stores/memory-export-store.ts';

/** A slope of Monaco (about 60 m of relief over 250 m) with buildings on it. */
const POLYGON = square(43.7335, 7.419, 250);
const SETTINGS = { geometry: ['buildings', 'surface', 'topography'], projectToTopography: true };

type Reader = (bytes: Uint8Array, path: string, metresPerUnit: number, readers: SoupReaders) => number[] | Promise<number[]>;

/** One independent reader per registered format; a format added without one fails below. */
const READERS: Record<string, Reader> = {
  glb: (_, path) => gltfSoup(path),
  gltf: (_, path) => gltfSoup(path),
  obj: (_, path, k) => objSoup(path, k),
  stl: (bytes, _, k) => stlSoup(bytes, k),
  ply: (bytes, _, k) => plySoup(bytes, k),
  dae: (bytes) => daeSoup(new TextDecoder().decode(bytes)),
  dxf: (_, path) => dxfSoup(path),
  '3dm': (bytes, _, __, r) => rhinoSoup(bytes, r.rhino),
  ifc: (bytes, _, __, r) => ifcSoup(bytes, r.ifc),
};

let app: ExportApp;
let key: string;
let readers: SoupReaders;
const store = new MemoryExportStore();
/** The terrain's triangles as the JSON answer gives them for the same request (local frame, Z up, metres). */
let terrain: number[];

before(async () => {
  app = await startExportApp({ store });
  const account = await app.svc.accounts.createAccount({ name: `zfight${Math.random()}`, balanceKm2: 100, active: true });
  key = (await app.svc.accounts.createKey(account.id, 'development')).key;
  const ifc = new W.IfcAPI();
  await ifc.Init(undefined, true);
  ifc.SetLogLevel(W.LogLevel.LOG_LEVEL_OFF);
  readers = { rhino: await rhino3dm(), ifc };
  const json = await postContext(app.url, key, {
    polygon: POLYGON,
    settings: { ...SETTINGS, surfaceTypes: ['meshes'], topographyReturnType: 'meshes', upAxis: 'Z', crs: 'local' },
  });
  assert.equal(json.status, 200, json.text);
  terrain = json.json.geometry
    .filter((g: any) => g.type === 'topography')
    .flatMap((g: any) => g.meshes)
    .flatMap(triangleList);
});
after(async () => {
  await app?.close();
  if (process.env.EXPORT_TEST_LOG) console.error(`terrain of the answer: ${terrain.length / 9} triangles`);
  if (process.env.EXPORT_TEST_LOG)
    for (const [format, { report: r, onTerrain }] of results)
      console.error(`${format}: ${r.triangles} triangles, ${r.upward} upward, ${r.spots.length} z-fighting spots, ${onTerrain.length} of them on the terrain`);
});

/** A JSON mesh as a triangle soup. */
function triangleList(m: { vertices: number[]; indices?: number[] }): number[] {
  return m.indices ? m.indices.flatMap((i) => m.vertices.slice(3 * i, 3 * i + 3)) : m.vertices;
}

/** Exports the slope as `format`; the file's bytes, a temp copy and its metres per unit. */
async function exportSlope(format: ExportFormat): Promise<{ bytes: Uint8Array; path: string; metresPerUnit: number }> {
  const a = await postContext(app.url, key, { polygon: POLYGON, settings: SETTINGS, export: { format, units: 'm', crs: 'local', placement: 'anchor' } });
  assert.equal(a.status, 200, `${format}: ${a.text}`);
  const bytes = store.bytesOf(a.json.downloadUrl)!;
  const extension = decodeURIComponent(a.json.downloadUrl).split('/').pop()!.split('.').slice(1).join('.');
  return { bytes, path: writeTemp({ bytes, extension, contentType: '' }), metresPerUnit: METRES_PER_UNIT[a.json.spatialReference.units as ExportUnits] };
}

/** Where the spots are, for the failure message. */
function describe(r: ZFightingReport, spots = r.spots): string {
  const at = spots.slice(0, 5).map((s) => `(${s.at.map((c) => c.toFixed(2)).join(', ')}) dz ${(s.dz * 100).toFixed(1)} cm`);
  return `${spots.length} z-fighting spots among ${r.upward} upward triangles, e.g. ${at.join('; ')}`;
}

/** Each format's report and the spots where a terrain triangle is one of the two. */
const results = new Map<ExportFormat, { report: ZFightingReport; onTerrain: ZFightingSpot[] }>();

for (const format of Object.keys(EXPORT_WRITERS) as ExportFormat[]) {
  test(`${format}: the ground and the terrain of the exported slope never lie on each other`, async () => {
    const read = READERS[format];
    assert.ok(read, `${format} is registered but this test has no reader for it`);
    const file = await exportSlope(format);
    const soup = await read(file.bytes, file.path, file.metresPerUnit, readers);
    const report = findZFighting(soup);
    const terrainHere = trianglesOf(soup, terrain);
    const onTerrain = report.spots.filter((s) => terrainHere.has(s.sampled) || terrainHere.has(s.other));
    results.set(format, { report, onTerrain });
    assert.ok(report.upward > 1000, `${format}: only ${report.upward} upward triangles read`);
    assert.equal(trianglesOf(terrain, soup).size, terrain.length / 9, `${format}: every terrain triangle of the answer is in the file`);
    assert.equal(onTerrain.length, 0, `${format}: ${describe(report, onTerrain)}`);
  });
}

test('no two upward triangles lie on each other anywhere in the exported slope (ground on ground included), in every format', async () => {
  assert.equal(results.size, Object.keys(EXPORT_WRITERS).length, 'every format was read');
  for (const [format, { report }] of results) assert.equal(report.spots.length, 0, `${format}: ${describe(report)}`);
});

test('the check is not vacuous: the glb holds thousands of upward triangles and terrain nodes, and the whole terrain grid under its ground z-fights', async () => {
  const file = await exportSlope('glb');
  const soup = await gltfSoup(file.path);
  const report = findZFighting(soup);
  assert.ok(report.upward >= 2000, `${report.upward} upward triangles`);
  const groups = new Map(
    (await new NodeIO().read(file.path))
      .getRoot()
      .listNodes()
      .filter((n) => ['surface', 'topography'].includes(n.getName()))
      .map((n) => [n.getName(), n.listChildren().filter((c) => c.getMesh()).length]),
  );
  assert.ok((groups.get('topography') ?? 0) > 0, 'terrain nodes with meshes');
  assert.ok((groups.get('surface') ?? 0) > 0, 'ground nodes with meshes');
  // Without the ground in the request the terrain mesh is the whole grid: laid under this file's
  // ground, it is what the guarantee rules out, and the detector must see it nearly everywhere.
  const json = await postContext(app.url, key, {
    polygon: POLYGON,
    settings: { geometry: ['topography'], topographyReturnType: 'meshes', upAxis: 'Z', crs: 'local' },
  });
  assert.equal(json.status, 200, json.text);
  const whole = json.json.geometry.flatMap((g: any) => g.meshes ?? []).flatMap((m: { vertices: number[]; indices?: number[] }) => triangleList(m));
  const withWhole = findZFighting([...soup, ...whole]);
  const onWhole = withWhole.spots.filter((s) => s.sampled >= soup.length / 9 || s.other >= soup.length / 9);
  if (process.env.EXPORT_TEST_LOG) console.error(`glb with the whole terrain grid: ${whole.length / 9} terrain triangles, ${onWhole.length} spots on them`);
  assert.ok(onWhole.length > 1000, `only ${onWhole.length} spots with the whole terrain under the ground`);
});
