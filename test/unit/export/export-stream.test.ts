/**
 * The export thread's stream (src/export/export-task.ts, export-stream.ts), driven here over a
 * real MessageChannel: groups declared, chunks in any tile order, then `end` — the file holds
 * every feature, a streaming 3dm lays out its group layers in the writers' order whatever chunk
 * came first; a bad chunk or a stream closed before its end rejects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import rhino3dm from 'rhino3dm';
import { buildExportFile } from '../../../src/export/export-task.ts';
import { ExportStreamSink } from '../../../src/export/export-stream.ts';
import { resolveExportCrs } from '../../../src/export/georef.ts';
import { free } from '../../support/checks/rhino3dm-free.ts';
import { joinBytes } from '../../../src/export/formats/text-sink.ts';
import type { ExportFormat } from '../../../src/contract/types.ts';
import { problems, validateGltf } from '../../support/checks/gltf-validate.ts';

const enc = (items: unknown[]) => new TextEncoder().encode(items.map((i) => JSON.stringify(i)).join(','));
const mesh = (id: string, type: string, x: number) => ({
  vertices: [x, 0, 0, x + 10, 0, 0, x, 10, 0],
  indices: [0, 1, 2],
  descriptor: { type, id },
});
const frame = { origin: [43.7335, 7.419] as [number, number], crs: resolveExportCrs('local'), placement: 'anchor' as const, units: 'm' as const };

/** Starts the task on one end of a channel; returns the sink feeding it and the task's promise. */
function start(format: ExportFormat) {
  const { port1, port2 } = new MessageChannel();
  const file = buildExportFile({ format, frame, name: 'stream-test', port: port2 });
  return { sink: new ExportStreamSink(port1), port: port1, file };
}

test("3dm through the stream: every feature, group layers in the writers' order whatever came first", async () => {
  const { sink, port, file } = start('3dm');
  for (const key of ['surface', 'buildings', 'barriers']) sink.declare(key);
  sink.chunk('surface', enc([mesh('way/9', 'asphalt', 0)]), 1); // the ground's tile finished first
  sink.chunk('buildings', enc([mesh('way/1', 'building', 20), mesh('way/2', 'building', 40)]), 2);
  sink.chunk('buildings', enc([mesh('way/3', 'building', 60)]), 1);
  sink.end(['© OpenStreetMap contributors']);
  const { bytes: pieces, extension } = await file;
  assert.ok(Array.isArray(pieces), '3dm comes in pieces, never joined');
  const bytes = joinBytes(pieces);
  port.close();
  assert.equal(extension, '3dm');
  const rh = await rhino3dm();
  const doc = rh.File3dm.fromByteArray(bytes);
  const layers = doc.layers(),
    objects = doc.objects();
  const parents: string[] = [];
  for (let i = 0; i < layers.count; i++) {
    const l = layers.get(i);
    if (!l.fullPath.includes('::')) parents.push(l.fullPath);
    free(l);
  }
  assert.deepEqual(parents, ['buildings', 'surface', 'barriers']);
  const names: string[] = [];
  for (let i = 0; i < objects.count; i++) {
    const o = objects.get(i);
    const a = o.attributes();
    names.push(a.name);
    free(a, o);
  }
  assert.deepEqual(names.sort(), ['way/1', 'way/2', 'way/3', 'way/9']);
  free(layers, objects, doc);
});

test('glb through the stream: every feature, a valid file', async () => {
  const { sink, port, file } = start('glb');
  sink.declare('buildings');
  sink.chunk('buildings', enc([mesh('way/1', 'building', 0)]), 1);
  sink.chunk('buildings', enc([mesh('way/2', 'building', 20)]).subarray(0), 1);
  sink.end([]);
  const f = await file;
  port.close();
  const report = await validateGltf(f.bytes instanceof Uint8Array ? f.bytes : Buffer.concat(f.bytes as Uint8Array[]), 'm.glb');
  assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, problems(report));
  assert.equal(report.info?.totalTriangleCount, 2);
});

test('a chunk that is not JSON rejects the export, and so does a stream closed before its end', async () => {
  for (const format of ['3dm', 'glb'] as const) {
    const bad = start(format);
    bad.sink.declare('buildings');
    bad.sink.chunk('buildings', new TextEncoder().encode('{"vertices": [0, 0'), 1);
    bad.sink.end([]);
    await assert.rejects(bad.file, SyntaxError, format);
    bad.port.close();
    const cut = start(format);
    cut.sink.declare('buildings');
    cut.sink.chunk('buildings', enc([mesh('way/1', 'building', 0)]), 1);
    cut.port.close();
    await assert.rejects(cut.file, /closed before its end/, format);
  }
});
