/**
 * Honest outside the data: the store records where it has data, a polygon wholly outside gets
 * empty feature groups and `osm_unavailable` (with the extent, and a hint when latitude and
 * longitude look swapped), one inside gets no such warning. Real import of the Monaco sample.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Piscina } from 'piscina';
import { REPO_ROOT } from '../../../src/config.ts';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';
import type { ResponseWarning } from '../../../src/contract/response-schema.ts';
import type { GroupSink } from '../../../src/pipeline/group-sink.ts';
import { osmUnavailableWarning } from '../../../src/pipeline/osm-coverage.ts';
import { runRequest, type PipelineDeps } from '../../../src/pipeline/run-request.ts';
import type { TileTask } from '../../../src/plan/plan-request.ts';
import { importOsm } from '../../../src/sources/osm/import.ts';
import { storeExtent } from '../../../src/sources/osm/store-extent.ts';
import { buildTile } from '../../../src/tile/build-tile.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-osm-coverage-'));
const store = join(dir, 'osm.sqlite');
before(async () => {
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), store, {});
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A square of `side` metres around [lat, lon], as [latitude, longitude] pairs. */
function square(lat: number, lon: number, side = 300): [number, number][] {
  const dLat = side / 2 / 111_320,
    dLon = side / 2 / (111_320 * Math.cos((lat * Math.PI) / 180));
  return [
    [lat - dLat, lon - dLon],
    [lat - dLat, lon + dLon],
    [lat + dLat, lon + dLon],
    [lat + dLat, lon - dLon],
    [lat - dLat, lon - dLon],
  ];
}

const MONACO: [number, number] = [43.7335, 7.419];
const PARIS: [number, number] = [48.8566, 2.3522];

test('the import records where the store has data, and it holds the sample', () => {
  const extent = storeExtent(store)!;
  assert.ok(extent, 'an extent');
  assert.ok(extent.minLon < MONACO[1] && MONACO[1] < extent.maxLon && extent.minLat < MONACO[0] && MONACO[0] < extent.maxLat, JSON.stringify(extent));
  assert.ok(extent.maxLon - extent.minLon < 0.5 && extent.maxLat - extent.minLat < 0.5, 'the box of a city, not the world');
  assert.equal(storeExtent(join(dir, 'no-such-store.sqlite')), null, 'no store there: cannot tell');
});

test('osm_unavailable outside the extent, with the extent; nothing inside it', () => {
  assert.equal(osmUnavailableWarning(parseContextRequest({ polygon: square(...MONACO) }), store), null);
  const paris = osmUnavailableWarning(parseContextRequest({ polygon: square(...PARIS) }), store)!;
  assert.equal(paris.code, 'osm_unavailable');
  const [w, s, e, n] = paris.details.storeExtent as number[];
  assert.ok(w < MONACO[1] && MONACO[1] < e && s < MONACO[0] && MONACO[0] < n);
  assert.equal(paris.details.swappedLatLon, false);
  assert.doesNotMatch(paris.message, /swapped/);
});

test('a polygon given as [longitude, latitude] is told so', () => {
  const swapped = square(...MONACO).map(([lat, lon]) => [lon, lat] as [number, number]);
  const warning = osmUnavailableWarning(parseContextRequest({ polygon: swapped }), store)!;
  assert.equal(warning.code, 'osm_unavailable');
  assert.equal(warning.details.swappedLatLon, true);
  assert.match(warning.message, /latitude and longitude swapped/);
});

/** Runs a request through the pipeline with the tiles built in this thread; what each group got, and the warnings. */
async function run(polygon: [number, number][]): Promise<{ items: Map<string, number>; warnings: ResponseWarning[] }> {
  const deps: PipelineDeps = {
    pool: { run: (task: TileTask) => buildTile(task), options: { maxThreads: 1 } } as unknown as Piscina,
    storePath: store,
    tileSize: 500,
  };
  const items = new Map<string, number>();
  const sink: GroupSink = {
    declare: (key) => void items.set(key, 0),
    chunk: (key, _json, count) => void items.set(key, (items.get(key) ?? 0) + count),
    done() {},
  };
  const summary = await runRequest(parseContextRequest({ polygon }), deps, sink, new AbortController().signal);
  return { items, warnings: summary.warnings };
}

test('outside the data the default groups are all there, empty, and the answer says why', async () => {
  const { items, warnings } = await run(square(...PARIS));
  assert.deepEqual(
    [...items],
    [
      ['buildings', 0],
      ['surface', 0],
      ['barriers', 0],
      ['instances', 0],
    ],
  );
  assert.deepEqual(
    warnings.map((w) => w.code),
    ['osm_unavailable'],
  );
});

test('inside the data nothing changes: the groups fill and no osm warning', async () => {
  const { items, warnings } = await run(square(...MONACO));
  assert.ok(items.get('buildings')! > 10 && items.get('surface')! > 10, JSON.stringify([...items]));
  assert.ok(!warnings.some((w) => w.code === 'osm_unavailable'));
});
