/**
 * The map's vector tiles from the Monaco sample's real store: decoded with the Mapbox vector-tile
 * reader (the one MapLibre uses), they hold the four layers where the data has them, no buildings
 * below their zoom, nothing outside the data, and refuse zooms outside the served range.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { REPO_ROOT } from '../../../../src/config.ts';
import { BUILDINGS_FROM, MapTiles, MAX_ZOOM, MIN_ZOOM } from '../../../../src/server/map/map-tiles.ts';
import { tileBox } from '../../../../src/server/map/tile-features.ts';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { OsmStore } from '../../../../src/sources/osm/store.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-map-tiles-'));
const storePath = join(dir, 'osm.sqlite');
let tiles: MapTiles;
before(async () => {
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), storePath, {});
  tiles = new MapTiles({ storePath, cacheBytes: 4 * 1024 * 1024 });
});
after(() => {
  tiles?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The tile holding [lon, lat] at zoom z. */
function tileAt(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  return [z, Math.floor(((lon + 180) / 360) * n), Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n)];
}

function decode(bytes: Buffer): VectorTile {
  return new VectorTile(new Pbf(bytes) as never);
}

test('a tile in central Monaco holds buildings, roads, water and green from the store, in tile coordinates', () => {
  const [z, x, y] = tileAt(7.4205, 43.7335, 16);
  const vt = decode(tiles.tile(z, x, y));
  for (const layer of ['buildings', 'roads']) assert.ok(vt.layers[layer]?.length > 0, `${layer} in ${z}/${x}/${y}`);
  const buildings = vt.layers.buildings;
  // as many building outlines as the store has buildings meeting the tile (an outline may be cut in pieces by the tile edge, never more than a few)
  const store = OsmStore.open(storePath);
  const inStore = store.query(tileBox(z, x, y), ['building']).length;
  store.close();
  assert.ok(buildings.length >= inStore * 0.9 && buildings.length <= inStore * 1.5, `${buildings.length} tile features for ${inStore} store buildings`);
  for (let i = 0; i < buildings.length; i++) {
    const f = buildings.feature(i);
    assert.equal(f.type, 3, 'buildings are polygons');
    for (const ring of f.loadGeometry()) for (const p of ring) assert.ok(p.x >= -128 && p.x <= 4096 + 128 && p.y >= -128 && p.y <= 4096 + 128);
  }
  const larger = decode(tiles.tile(...tileAt(7.4205, 43.7335, 14)));
  assert.ok(larger.layers.water?.length > 0 || larger.layers.green?.length > 0, 'water or green areas at zoom 14');
});

/** The `kind`s of a decoded layer. */
function kinds(vt: VectorTile, layer: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < (vt.layers[layer]?.length ?? 0); i++) out.add(String(vt.layers[layer].feature(i).properties.kind));
  return out;
}

test(`no buildings, footways or service roads below zoom ${BUILDINGS_FROM}; an empty tile outside the data; the same bytes from the cache`, () => {
  const low = decode(tiles.tile(...tileAt(7.4205, 43.7335, BUILDINGS_FROM - 1)));
  assert.equal(low.layers.buildings?.length ?? 0, 0);
  assert.ok(low.layers.roads.length > 0);
  const lowKinds = kinds(low, 'roads');
  const highKinds = kinds(decode(tiles.tile(...tileAt(7.4205, 43.7335, BUILDINGS_FROM))), 'roads');
  for (const minor of ['footway', 'service', 'steps']) {
    assert.ok(highKinds.has(minor), `${minor} at zoom ${BUILDINGS_FROM}`);
    assert.ok(!lowKinds.has(minor), `no ${minor} at zoom ${BUILDINGS_FROM - 1}`);
  }
  assert.equal(tiles.tile(...tileAt(2.35, 48.85, 15)).length, 0, 'Paris is not in the Monaco store');
  const a = tiles.tile(...tileAt(7.4205, 43.7335, 15));
  assert.equal(tiles.tile(...tileAt(7.4205, 43.7335, 15)), a);
});

test(`zooms outside ${MIN_ZOOM}–${MAX_ZOOM} and tiles outside the grid are 404 not_found`, () => {
  const answer = (path: string) => {
    const match = /^\/v1\/map\/(\d+)\/(\d+)\/(\d+)\.pbf$/.exec(path)!;
    const req = { method: 'GET', headers: {} } as never;
    try {
      tiles.serve(req, { writeHead() {}, end() {} } as never, match);
      return 'served';
    } catch (err) {
      return (err as { code: string }).code;
    }
  };
  assert.equal(answer(`/v1/map/${MIN_ZOOM - 1}/0/0.pbf`), 'not_found');
  assert.equal(answer(`/v1/map/${MAX_ZOOM + 1}/0/0.pbf`), 'not_found');
  assert.equal(answer(`/v1/map/${MIN_ZOOM}/${2 ** MIN_ZOOM}/0.pbf`), 'not_found');
  assert.equal(answer(`/v1/map/${MIN_ZOOM}/0/0.pbf`), 'served');
});
