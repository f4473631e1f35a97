/**
 * One family = one registration: a toy family (test/fixtures/railway-family, a group of its own)
 * is registered with one line, and then the request contract, the OpenAPI document, the tiles,
 * the streamed response and every export format know its group, with no other change.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Piscina } from 'piscina';
import { canonicalGroup, exportedOutputs, groupSpecs, requestGroupNames } from '../../../src/contract/groups.ts';
import { buildOpenApiDocument } from '../../../src/contract/openapi.ts';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';
import type { ContextRequest, ExportFormat } from '../../../src/contract/types.ts';
import { buildExportFile, type ExportTask } from '../../../src/export/export-task.ts';
import { EXPORT_WRITERS } from '../../../src/export/formats/index.ts';
import { prepareExport, runExport } from '../../../src/export/run-export.ts';
import { FAMILIES, registerFamily, responseGroups } from '../../../src/features/index.ts';
import { createLocalFrame } from '../../../src/frame/local-frame.ts';
import type { OsmFeature } from '../../../src/osm-model/feature.ts';
import type { GroupSink } from '../../../src/pipeline/group-sink.ts';
import { runRequest, type PipelineDeps } from '../../../src/pipeline/run-request.ts';
import type { TileTask } from '../../../src/plan/plan-request.ts';
import { classifyLayer } from '../../../src/sources/osm/layers.ts';
import type { OsmSource } from '../../../src/sources/osm/types.ts';
import { buildTile } from '../../../src/tile/build-tile.ts';
import { registerOsmSource } from '../../../src/tile/osm-sources.ts';
import { railwaysFamily } from '../../fixtures/railway-family/index.ts';
import { memoryOsmSource } from '../../support/fakes/osm-source.ts';
import { unzip } from '../../support/checks/export-readers.ts';

registerFamily(railwaysFamily);

const ORIGIN: [number, number] = [43.7, 7.3];
const frame = createLocalFrame(...ORIGIN);
const lonLats = (pts: number[]) => pts.flatMap((_, k) => (k % 2 === 0 ? frame.toLonLat(pts[k], pts[k + 1]) : []));

function feature(id: string, kind: 'line' | 'area', tags: Record<string, string>, pts: number[]): OsmFeature {
  const f: OsmFeature = { id, kind, tags, layer: classifyLayer(tags, kind) };
  if (kind === 'line') f.line = lonLats(pts);
  else f.polygons = [[lonLats(pts)]];
  return f;
}

/** Two railway lines across two tiles, a tram line the toy family leaves out, and a road. */
const FEATURES: OsmFeature[] = [
  feature('way/1', 'line', { railway: 'rail' }, [-180, -20, 180, -20]),
  feature('way/2', 'line', { railway: 'rail' }, [-180, 20, -60, 60, 170, 60]),
  feature('way/3', 'line', { railway: 'tram' }, [-180, 100, 180, 100]),
  feature('way/4', 'line', { highway: 'residential' }, [-180, -100, 180, -100]),
];

const source: OsmSource = memoryOsmSource(FEATURES);
const STORE = `fixture-railways#${process.pid}`;
registerOsmSource(STORE, source);

/** The worker pool and the export pool, in this thread. */
const deps: PipelineDeps = {
  pool: { run: (task: TileTask) => buildTile(task), options: { maxThreads: 1 } } as unknown as Piscina,
  exportPool: { run: (task: ExportTask) => buildExportFile(task) } as unknown as Piscina,
  storePath: STORE,
  tileSize: 200,
};

function requestOf(settings: Record<string, unknown>, exp?: Record<string, unknown>): ContextRequest {
  const [x0, y0, x1, y1] = [-200, -200, 200, 200];
  const ring = [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ].map(([x, y]) => {
    const [lon, lat] = frame.toLonLat(x, y);
    return [lat, lon];
  });
  return parseContextRequest({ polygon: ring, origin: ORIGIN, settings, ...(exp ? { export: exp } : {}) });
}

/** A sink that keeps what the pipeline streams. */
function memorySink(): GroupSink & { groups: Map<string, { type: string; geometryType: string; items: unknown[] }> } {
  const groups = new Map<string, { type: string; geometryType: string; items: unknown[] }>();
  return {
    groups,
    declare: (key, type, geometryType) => void groups.set(key, { type, geometryType, items: [] }),
    chunk: (key, json) => void groups.get(key)!.items.push(...JSON.parse(`[${Buffer.from(json).toString('utf8')}]`)),
    done() {},
  };
}

test('the registered family is in the group table, the request contract and the OpenAPI document', () => {
  assert.ok(FAMILIES.includes(railwaysFamily as never));
  assert.ok(groupSpecs().some((g) => g.name === 'railways'));
  assert.ok(requestGroupNames().includes('railways') && requestGroupNames().includes('rail'));
  assert.equal(canonicalGroup('rail'), 'railways');
  assert.deepEqual(
    exportedOutputs()
      .filter((o) => o.key === 'railways')
      .map((o) => o.exportGroup),
    ['railways'],
  );
  const settings = requestOf({ geometry: ['rail', 'buildings'] }).settings;
  assert.deepEqual(settings.geometry, ['railways', 'buildings']);
  assert.deepEqual(
    responseGroups(settings).map((g) => [g.key, g.type, g.geometryType]),
    [
      ['railways', 'rail', 'meshes'],
      ['buildings', 'buildings', 'meshes'],
    ],
  );
  const doc = buildOpenApiDocument() as { components: { schemas: { Settings: { properties: { geometry: { items: { enum: string[] } } } } } } };
  assert.ok(doc.components.schemas.Settings.properties.geometry.items.enum.includes('railways'));
  // not a default group: the default request does not build it
  assert.ok(!requestOf({}).settings.geometry.includes('railways'));
  assert.throws(() => requestOf({ geometry: ['railwayz'] }), /railways/);
});

test('a request for the group streams its meshes: each rail line once across the tiles, closed boxes', async () => {
  const sink = memorySink();
  const summary = await runRequest(requestOf({ geometry: ['railways'], upAxis: 'Z' }), deps, sink, new AbortController().signal);
  assert.ok(summary.tiles >= 4, `${summary.tiles} tiles`);
  const group = sink.groups.get('railways')!;
  assert.equal(group.geometryType, 'meshes');
  const meshes = group.items as { vertices: number[]; descriptor: { id: string; type: string } }[];
  assert.deepEqual(meshes.map((m) => m.descriptor.id).sort(), ['way/1', 'way/2'], 'every rail once, the tram left out');
  for (const m of meshes) assert.ok(m.vertices.length > 0 && m.vertices.length % (12 * 9) === 0, 'twelve triangles per segment box');
  assert.deepEqual(
    summary.attributions.map((a) => a.id),
    ['osm'],
  );
});

test('every export format holds the registered group', async () => {
  const formats = Object.keys(EXPORT_WRITERS) as ExportFormat[];
  assert.ok(formats.length >= 9, formats.join());
  for (const format of formats) {
    const sizes: number[] = [];
    let withRails: Buffer = Buffer.alloc(0);
    for (const geometry of [['barriers'], ['barriers', 'railways']]) {
      const request = requestOf({ geometry }, { format });
      const result = await runExport(request, prepareExport(request), deps, new AbortController().signal);
      const bytes = result.file.bytes;
      const file = Buffer.concat((bytes instanceof Uint8Array ? [bytes] : (bytes as Uint8Array[])).map((b) => Buffer.from(b)));
      sizes.push(file.length);
      if (geometry.length === 2) withRails = unzipped(file);
    }
    assert.ok(sizes[1] > sizes[0] + 200, `${format}: the rails add to the file (${sizes.join(' -> ')} bytes)`);
    // formats that name objects or layers carry the group or the features' ids (3dm: UTF-16 strings)
    if (!['stl', 'ply'].includes(format)) {
      const named = ['railways', 'way/1', 'rail'].some((s) => withRails.includes(s) || withRails.includes(Buffer.from(s, 'utf16le')));
      assert.ok(named, `${format}: the group or its ids are named in the file`);
    }
  }
});

/** A zip's members joined (OBJ comes as OBJ + MTL in a zip); other files as they are. */
function unzipped(file: Buffer): Buffer {
  if (file.subarray(0, 2).toString('latin1') !== 'PK') return file;
  const path = join(mkdtempSync(join(tmpdir(), 'cc-registry-')), 'file.zip');
  writeFileSync(path, file);
  const dir = unzip(path);
  return Buffer.concat(readdirSync(dir).map((name) => readFileSync(join(dir, name))));
}
