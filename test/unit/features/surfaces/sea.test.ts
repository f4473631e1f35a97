/**
 * The sea of a tile far from the coast (src/features/surfaces/sea.ts): the ground family looks for
 * coastline farther out when none lies within 1 km, so the open sea is sea and the land inland is
 * land; with no coastline in the store the ground is land without a warning; where the store's
 * coastline is too large to keep in memory and none lies within the queried reach, the tile reports
 * that it could not tell and the request gets one `sea_undecided` warning. Then the real Monaco
 * extract through the tile tasks: the open sea at 43.720 N 7.440 E (2 km off the coast) is water.
 */
import { square } from '../../../support/polygons.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFrame, type LocalFrame } from '../../../../src/frame/local-frame.ts';
import { collectSeaReports, tileSea } from '../../../../src/features/surfaces/sea.ts';
import { FAR_COAST_REACH } from '../../../../src/features/surfaces/coastlines.ts';
import type { TileContext } from '../../../../src/features/family.ts';
import { tileLonLatBBox } from '../../../../src/tile/build-tile.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';
import type { OsmSource } from '../../../../src/sources/osm/types.ts';
import type { BBox, Footprint } from '../../../../src/geometry/types.ts';
import { totalArea } from '../../../../src/geometry/planar/pieces.ts';
import { TILE_REPORTS, type TileResult } from '../../../../src/plan/tile-result.ts';
import { parseContextRequest } from '../../../../src/contract/parse-request.ts';
import { planTasks } from '../../../../src/features/index.ts';
import { buildTile } from '../../../../src/tile/build-tile.ts';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { memoryOsmSource } from '../../../support/fakes/osm-source.ts';
import { rect } from '../../../support/scenes/shapes.ts';

const frame = createLocalFrame(43.7, 7.4);

/** A straight coast along y = 0 in the frame from x = −30 km to 30 km, drawn west to east: land north (left), sea south; `points` vertices. */
function coast(frame: LocalFrame, points = 61): OsmFeature {
  const line: number[] = [];
  for (let i = 0; i < points; i++) line.push(...frame.toLonLat(-30_000 + (60_000 * i) / (points - 1), 0));
  return { id: 'way/1', layer: 'water', kind: 'line', tags: { natural: 'coastline' }, line };
}

function tileAt(source: OsmSource, x: number, y: number): { tile: TileContext; clip: Footprint } {
  const bbox: BBox = { minX: x - 250, minY: y - 250, maxX: x + 250, maxY: y + 250 };
  const tile = { source, frame, bbox, lonLatBBox: (pad?: number) => tileLonLatBBox(frame, bbox, pad) } as unknown as TileContext;
  return { tile, clip: { outer: rect(bbox.minX, bbox.minY, bbox.maxX, bbox.maxY), holes: [] } };
}

test('the open sea 5 and 50 km off a coast is sea; the land 5 km inland is land', () => {
  const source = memoryOsmSource([coast(frame)]);
  for (const y of [-5_000, -50_000]) {
    const { tile, clip } = tileAt(source, 0, y);
    const sea = tileSea(tile, clip);
    assert.equal(sea.undecided, false);
    assert.ok(Math.abs(totalArea(sea.areas.flatMap((a) => a.footprints)) - 250_000) < 1, `${-y / 1000} km out: all sea`);
  }
  const { tile, clip } = tileAt(source, 0, 5_000);
  assert.deepEqual(tileSea(tile, clip), { areas: [], undecided: false });
});

test('no coastline in the store: land, and no doubt about it', () => {
  const { tile, clip } = tileAt(memoryOsmSource([]), 0, -5_000);
  assert.deepEqual(tileSea(tile, clip), { areas: [], undecided: false });
});

test('a coastline too large to keep in memory: queried as far as FAR_COAST_REACH.queried, beyond that undecided', () => {
  const source = memoryOsmSource([coast(frame, 500_002)]); // over the per-thread cache's limit
  const near = tileAt(source, 0, -(FAR_COAST_REACH.queried - 2_000));
  assert.equal(tileSea(near.tile, near.clip).undecided, false);
  assert.ok(tileSea(near.tile, near.clip).areas.length > 0, 'sea within the queried reach');
  const far = tileAt(source, 0, -(FAR_COAST_REACH.queried + 2_000));
  assert.deepEqual(tileSea(far.tile, far.clip), { areas: [], undecided: true });
});

test('the request gets one sea_undecided warning when any tile reported one, none otherwise', () => {
  const result = (reported: boolean) =>
    ({ groups: reported ? { [TILE_REPORTS.seaUndecided]: { count: 0, json: new Uint8Array() } } : {} }) as unknown as TileResult;
  const quiet = collectSeaReports();
  quiet.take(result(false));
  assert.deepEqual(quiet.finish().warnings, []);
  const told = collectSeaReports();
  for (const r of [true, false, true]) told.take(result(r));
  const { warnings } = told.finish();
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].code, 'sea_undecided');
  assert.deepEqual(warnings[0].details, { tiles: 2 });
});

const dir = mkdtempSync(join(tmpdir(), 'far-sea-'));
const store = join(dir, 'osm.sqlite');
before(() => importOsm('data/monaco/monaco.osm.pbf', store));
after(() => rmSync(dir, { recursive: true, force: true }));

test('Monaco: a 300 m square of open sea 2 km off the coast (43.720 N 7.440 E) is water through the tile tasks', async () => {
  const [lat, lon] = [43.72, 7.44];
  const polygon = square(lat, lon, 300);
  const request = parseContextRequest({ polygon, origin: [lat, lon], settings: { geometry: ['surface'], crs: 'local', upAxis: 'Z', cropScene: true } });
  const kinds = new Set<string>();
  for (const task of planTasks(request, { tileSize: 500, storePath: store, dem: null }).tasks) {
    const r = await buildTile(task);
    assert.equal(r.groups[TILE_REPORTS.seaUndecided], undefined);
    const json = Buffer.from(r.groups.surface?.json ?? new Uint8Array()).toString('utf8');
    for (const m of JSON.parse(`[${json}]`) as { descriptor: Record<string, unknown> }[]) kinds.add(`${m.descriptor.type}${m.descriptor.sea ? ' (sea)' : ''}`);
  }
  assert.deepEqual([...kinds], ['water (sea)']);
});
