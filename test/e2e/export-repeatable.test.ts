/**
 * Repeatable files: the same export request gives the same bytes in every format — asked twice of
 * one service whose tiles (120 m, four workers) finish in whatever order, and once more of a
 * service with one worker, where they finish one after the other. The export takes the tiles in
 * their planned order (src/pipeline/group-sink.ts `ordered`), names every object from its source
 * id (procedural trees from their grid cell), and writes no clock time.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { postContext } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { startExportApp, type ExportApp } from '../support/service/export-app.ts';
import { MemoryExportStore } from '../support/stores/memory-export-store.ts';

const FORMATS = ['glb', 'gltf', 'obj', 'stl', 'ply', 'dae', 'dxf', '3dm', 'ifc'];
/** Old town of Monaco and the Jardin Exotique's slope: buildings, ground, walls, surveyed and procedural trees, terrain. */
const REQUEST = {
  polygon: square(43.7318, 7.4195, 420),
  origin: [43.7318, 7.4195],
  settings: { geometry: ['buildings', 'surface', 'barriers', 'instances', 'topography'], projectToTopography: true },
};

const store = new MemoryExportStore();
let parallel: ExportApp;
let serial: ExportApp;

before(async () => {
  [parallel, serial] = await Promise.all([
    startExportApp({ store }, () => {}, { tileSize: 120, workers: 4 }),
    startExportApp({ store }, () => {}, { tileSize: 120, workers: 1 }),
  ]);
});
after(async () => {
  await Promise.all([parallel?.close(), serial?.close()]);
});

async function key(app: ExportApp): Promise<string> {
  const account = await app.svc.accounts.createAccount({ name: `repeat${Math.random()}`, balanceKm2: 100, active: true });
  return (await app.svc.accounts.createKey(account.id, 'development')).key;
}

async function exportOnce(app: ExportApp, k: string, format: string): Promise<Uint8Array> {
  const a = await postContext(app.url, k, { ...REQUEST, export: { format, crs: 'EPSG:32632', placement: 'anchor' } });
  assert.equal(a.status, 200, a.text);
  return store.bytesOf(a.json.downloadUrl)!;
}

const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

test('the same export request gives byte-identical files in every format, whatever order its tiles finish in', { timeout: 600_000 }, async () => {
  const [kp, ks] = [await key(parallel), await key(serial)];
  for (const format of FORMATS) {
    const first = await exportOnce(parallel, kp, format);
    const [again, oneWorker] = await Promise.all([exportOnce(parallel, kp, format), exportOnce(serial, ks, format)]);
    assert.ok(first.length > 100_000, `${format}: ${first.length} bytes`);
    assert.equal(digest(again), digest(first), `${format}: a repeated export differs`);
    assert.equal(digest(oneWorker), digest(first), `${format}: the export with one worker differs`);
  }
});
