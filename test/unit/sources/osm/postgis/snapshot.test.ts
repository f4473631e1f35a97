/**
 * The in-memory snapshot a tile reads from PostGIS answers as the SQLite store does: the same
 * features for any box inside what it fetched (exact 1e-7 degree box test, import order), the same
 * building groups; a read outside is fetched on demand with a box that covers it, and without a
 * way to fetch it fails loudly rather than answer short. Regions are made from the SQLite store
 * of the Monaco sample itself.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { REPO_ROOT } from '../../../../../src/repo-root.ts';
import type { LonLatBBox, OsmFeature } from '../../../../../src/osm-model/feature.ts';
import { importOsm } from '../../../../../src/sources/osm/import.ts';
import { OSM_LAYERS } from '../../../../../src/sources/osm/layers.ts';
import { orderOf, type StoredFeature } from '../../../../../src/sources/osm/postgis/feature-rows.ts';
import type { Region, RegionRequest } from '../../../../../src/sources/osm/postgis/postgis-store.ts';
import { OsmSnapshot } from '../../../../../src/sources/osm/postgis/snapshot.ts';
import { OsmStore } from '../../../../../src/sources/osm/store.ts';

let dir: string;
let store: OsmStore;
const WORLD: LonLatBBox = { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cc-snapshot-'));
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), join(dir, 'osm.sqlite'));
  store = OsmStore.open(join(dir, 'osm.sqlite'));
});
after(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** As the PostGIS store keeps it: the exact box, and the import order (nodes, ways, relations, by id: Monaco's file order). */
function stored(f: OsmFeature): StoredFeature {
  const c = f.point ?? f.line ?? f.polygons!.flat(2);
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < c.length; i += 2) {
    b[0] = Math.min(b[0], Math.round(c[i] * 1e7));
    b[1] = Math.min(b[1], Math.round(c[i + 1] * 1e7));
    b[2] = Math.max(b[2], Math.round(c[i] * 1e7));
    b[3] = Math.max(b[3], Math.round(c[i + 1] * 1e7));
  }
  const [type, id] = f.id.split('/');
  return { feature: f, bbox7: b, order: orderOf(type[0].toUpperCase(), id) };
}

/** What the PostGIS store would return for the box: a superset (every feature, as float index boxes may give more) of the requested layers. */
function regionFromSqlite(box: LonLatBBox, request: RegionRequest): Region {
  const features = store.query(WORLD, [...request.layers]).map(stored);
  let groups: Region['groups'] = null;
  if (request.groups) {
    const refs = store.buildingGroups(box);
    const members = store.buildingGroupMembers(refs.map((g) => g.gid));
    const bboxOf = (gid: number) => {
      const boxes = (members.get(gid) ?? []).map((f) => stored({ ...f, polygons: f.polygons?.map((p) => [p[0]]) }).bbox7);
      return [
        Math.min(...boxes.map((b) => b[0])),
        Math.min(...boxes.map((b) => b[1])),
        Math.max(...boxes.map((b) => b[2])),
        Math.max(...boxes.map((b) => b[3])),
      ] as [number, number, number, number];
    };
    groups = { list: refs.map((g) => ({ gid: g.gid, rep: g.rep, bbox7: bboxOf(g.gid) })), members: [...members].map(([gid, list]) => [gid, list.map(stored)]) };
  }
  return { box, layers: [...request.layers], features, groups };
}

const TILE: LonLatBBox = { minLon: 7.416, minLat: 43.731, maxLon: 7.424, maxLat: 43.737 };

const boxInside = (outer: LonLatBBox) =>
  fc
    .tuple(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
    )
    .map(([a, b, c, d]) => {
      const lon = (t: number) => outer.minLon + t * (outer.maxLon - outer.minLon),
        lat = (t: number) => outer.minLat + t * (outer.maxLat - outer.minLat);
      return { minLon: lon(Math.min(a, b)), maxLon: lon(Math.max(a, b)), minLat: lat(Math.min(c, d)), maxLat: lat(Math.max(c, d)) };
    });

test('inside the fetched box the snapshot answers every query as the SQLite store does', () => {
  const snapshot = new OsmSnapshot();
  snapshot.add(regionFromSqlite(TILE, { layers: OSM_LAYERS, groups: true }));
  fc.assert(
    fc.property(boxInside(TILE), fc.subarray([...OSM_LAYERS], { minLength: 1 }), (box, layers) => {
      assert.deepEqual(snapshot.query(box, layers), store.query(box, layers));
      const groups = store.buildingGroups(box);
      assert.deepEqual(snapshot.buildingGroups(box), groups);
      const gids = groups.map((g) => g.gid);
      assert.deepEqual([...snapshot.buildingGroupMembers(gids)], [...store.buildingGroupMembers(gids)]);
    }),
    { numRuns: 40 },
  );
});

test('a read outside is fetched once, with a box that covers it, for the layers missing; with nothing to fetch it with, it throws', () => {
  const asked: [LonLatBBox, RegionRequest][] = [];
  const snapshot = new OsmSnapshot((box, request) => {
    asked.push([box, request]);
    return regionFromSqlite(box, request);
  });
  snapshot.add(regionFromSqlite(TILE, { layers: ['building', 'highway'], groups: false }));
  const far: LonLatBBox = { minLon: 7.43, minLat: 43.74, maxLon: 7.432, maxLat: 43.742 };
  assert.deepEqual(snapshot.query(far, ['water', 'highway']), store.query(far, ['water', 'highway']));
  assert.equal(asked.length, 1);
  const [box, request] = asked[0];
  assert.ok(box.minLon <= far.minLon && box.maxLon >= far.maxLon && box.minLat <= far.minLat && box.maxLat >= far.maxLat);
  assert.deepEqual(request, { layers: ['water', 'highway'], groups: false });
  snapshot.query(far, ['highway']);
  assert.equal(asked.length, 1, 'the second read is answered from memory');
  assert.deepEqual(snapshot.buildingGroups(far), store.buildingGroups(far));
  assert.equal(asked.length, 2);
  assert.throws(() => new OsmSnapshot().query(TILE, ['building']), /outside the fetched box/);
});
