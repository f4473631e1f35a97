/**
 * The streaming text writers (IFC, DXF, DAE, OBJ) through the export thread's stream
 * (src/export/export-task.ts), with the groups' chunks interleaved as tiles finish: every feature
 * is in the file, as their independent readers (web-ifc, assimp, Python's zipfile) see it; an OBJ
 * big enough to be deflated in several pieces still unzips with the right CRC.
 */
import { modelMesh } from '../../../src/geometry/instances/models/index.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import * as W from 'web-ifc';
import { buildExportFile, type ExportOutcome } from '../../../src/export/export-task.ts';
import { ExportStreamSink } from '../../../src/export/export-stream.ts';
import { resolveExportCrs } from '../../../src/export/georef.ts';
import { joinBytes } from '../../../src/export/formats/text-sink.ts';
import type { ExportFile } from '../../../src/export/scene.ts';
import { isStaged, stagePathIn } from '../../../src/export/store/staged.ts';
import type { ExportFormat } from '../../../src/contract/types.ts';
import { assimpMeshes, run, unzip, writeTemp } from '../../support/checks/export-readers.ts';

const enc = (items: unknown[]) => new TextEncoder().encode(items.map((i) => JSON.stringify(i)).join(','));
const mesh = (id: string, type: string, x: number) => ({
  vertices: [x, 0, 0, x + 10, 0, 0, x, 10, 0, x + 10, 10, 5],
  indices: [0, 1, 2, 1, 3, 2],
  descriptor: { type, id },
});
const tree = (id: string, x: number) => ({ type: 'tree', x, y: 5, z: 0, rotation: 0.5, scale: 1, descriptor: { type: 'tree', id } });
const line = (id: string, x: number) => ({ vertices: [x, 0, 0, x + 5, 5, 0, x, 5, 0], closed: false, descriptor: { type: 'asphalt', kind: 'centerline', id } });
const frame = { origin: [43.7335, 7.419] as [number, number], crs: resolveExportCrs('local'), placement: 'anchor' as const, units: 'm' as const };

/** The file in one piece (streaming text writers hand it over in pieces; a staged file is read back and removed). */
function whole(f: ExportOutcome): ExportFile {
  if (isStaged(f.bytes)) {
    const bytes = readFileSync(f.bytes.stagedPath);
    rmSync(f.bytes.stagedPath);
    assert.equal(bytes.length, f.bytes.size);
    return { ...f, bytes };
  }
  return { ...f, bytes: f.bytes instanceof Uint8Array ? f.bytes : joinBytes([...f.bytes]) };
}

/** Tiles finishing out of order: ground before buildings, a building after the trees. */
async function streamed(format: ExportFormat, stageDir?: string): Promise<ExportFile> {
  const { port1, port2 } = new MessageChannel();
  const file = buildExportFile({ format, frame, name: 'stream-text', port: port2, stagePath: stageDir && stagePathIn(stageDir) });
  const sink = new ExportStreamSink(port1);
  for (const key of ['buildings', 'surface', 'instances', 'surfaceLines']) sink.declare(key);
  sink.chunk('surface', enc([mesh('way/9', 'asphalt', 0)]), 1);
  sink.chunk('buildings', enc([mesh('way/1', 'building', 20), mesh('way/2', 'building', 40)]), 2);
  sink.chunk('instances', enc([tree('node/5', 70)]), 1);
  sink.chunk('surfaceLines', enc([line('way/9', 0)]), 1);
  sink.chunk('buildings', enc([mesh('way/3', 'building', 60)]), 1);
  sink.end(['© OpenStreetMap contributors']);
  const f = await file;
  port1.close();
  return whole(f);
}

const TRIANGLE_FEATURES = ['node/5', 'way/1', 'way/2', 'way/3', 'way/9'];

test('IFC through the stream: every feature an element, the project carries the attribution', async () => {
  const f = await streamed('ifc');
  const api = new W.IfcAPI();
  await api.Init(undefined, true);
  api.SetLogLevel(W.LogLevel.LOG_LEVEL_OFF);
  const m = api.OpenModel(f.bytes);
  const names = (type: number) => [...api.GetLineIDsWithType(m, type)].map((id) => api.GetLine(m, id).Name.value as string);
  assert.deepEqual(names(W.IFCBUILDING).sort(), ['way/1', 'way/2', 'way/3']);
  assert.deepEqual([...names(W.IFCGEOGRAPHICELEMENT), ...names(W.IFCANNOTATION)].sort(), ['node/5', 'way/9', 'way/9']);
  const project = api.GetLine(m, [...api.GetLineIDsWithType(m, W.IFCPROJECT)][0]);
  assert.match(project.Description.value, /OpenStreetMap/);
  let meshes = 0;
  api.StreamAllMeshes(m, () => {
    meshes++;
  });
  assert.equal(meshes, 5, 'the buildings, the ground piece and the tree have a body');
  api.CloseModel(m);
});

for (const format of ['dxf', 'dae'] as const) {
  test(`${format.toUpperCase()} through the stream: assimp reads every feature's triangles`, async () => {
    const meshes = assimpMeshes(writeTemp(await streamed(format)));
    const triangles = meshes.filter((x) => x.types === 'triangle').reduce((n, x) => n + x.faces, 0);
    assert.equal(triangles, 4 * 2 + modelMesh('tree-broadleaf').indices.length / 3, 'four features of two triangles, a broadleaf tree');
  });
}

test('OBJ through the stream: one object per feature; a text deflated in many pieces unzips whole', async () => {
  const small = await streamed('obj');
  const dir = unzip(writeTemp(small));
  // assimp's objects (its node tree): a street object is named by its type and id
  const objPath = join(dir, 'stream-text.obj'),
    meshes = assimpMeshes(objPath);
  const objects = [...run('assimp', ['info', objPath, '-v']).matchAll(/╴(\S+) \(mesh ([\d, ]+)\)$/gm)]
    .filter((m) => m[2].split(', ').some((i) => meshes[Number(i)].types === 'triangle'))
    .map((m) => m[1]);
  assert.deepEqual(objects.sort(), TRIANGLE_FEATURES.map((id) => (id === 'node/5' ? 'tree-broadleaf:node/5' : id)).sort());

  // ~3 MB of text: three 1 MB pieces, each its own deflate segment; zipfile checks the CRC-32
  const { port1, port2 } = new MessageChannel();
  const file = buildExportFile({ format: 'obj', frame, name: 'big', port: port2 });
  const sink = new ExportStreamSink(port1);
  sink.declare('buildings');
  for (let c = 0; c < 30; c++)
    sink.chunk('buildings', enc(Array.from({ length: 800 }, (_, i) => mesh(`way/${c * 800 + i}`, 'building', c * 1000 + i * 1.25))), 800);
  sink.end(['© OpenStreetMap contributors']);
  const big = whole(await file);
  port1.close();
  const obj = readFileSync(join(unzip(writeTemp(big, 'big')), 'big.obj'), 'utf8');
  assert.ok(obj.length > 2_500_000, `${obj.length} characters`);
  assert.match(obj, /^# City Context export big;/);
  assert.match(obj, /^# © OpenStreetMap contributors$/m);
  assert.equal(obj.match(/^o /gm)?.length, 24000);
  assert.equal(obj.match(/^f /gm)?.length, 48000);
});

test('staged in a directory (text spilled on the way): the same bytes as handed over, the spill gone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-stage-'));
  try {
    for (const format of ['ifc', 'dxf', 'dae', 'obj', 'glb', '3dm'] as const) {
      const staged = await streamed(format, dir);
      assert.deepEqual(readdirSync(dir), [], `${format}: nothing left behind`);
      const handed = (await streamed(format)).bytes;
      // a 3dm carries fresh object ids: the same length and header instead
      if (format === '3dm')
        assert.ok(staged.bytes.length === handed.length && Buffer.from(staged.bytes.subarray(0, 24)).toString() === '3D Geometry File Format ', '3dm');
      else assert.ok(Buffer.from(staged.bytes).equals(Buffer.from(handed)), `${format}: same bytes`);
    }
    // several MB of DXF text: many spilled pieces, read back in order
    const run = async (stageDir?: string) => {
      const { port1, port2 } = new MessageChannel();
      const file = buildExportFile({ format: 'dxf', frame, name: 'big', port: port2, stagePath: stageDir && stagePathIn(stageDir) });
      const sink = new ExportStreamSink(port1);
      sink.declare('buildings');
      for (let c = 0; c < 30; c++)
        sink.chunk('buildings', enc(Array.from({ length: 800 }, (_, i) => mesh(`way/${c * 800 + i}`, 'building', c * 1000 + i * 1.25))), 800);
      sink.end(['© OpenStreetMap contributors']);
      const f = await file;
      port1.close();
      return f;
    };
    const staged = await run(dir);
    assert.ok(isStaged(staged.bytes) && staged.bytes.size > 3_000_000, `staged ${isStaged(staged.bytes) && staged.bytes.size}`);
    const { etagOf } = await import('../../../src/export/store/entry.ts');
    const inMemory = await run();
    assert.equal(staged.bytes.etag, etagOf(inMemory.bytes), "the ETag is the bytes' ETag");
    assert.ok(Buffer.from(whole(staged).bytes).equals(Buffer.from(whole(inMemory).bytes)));
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
