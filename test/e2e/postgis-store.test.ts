/**
 * The OSM store on PostGIS, against real servers: a throw-away PostgreSQL 15 + PostGIS 3 cluster,
 * osm2pgsql loading the Monaco sample with the shipped style, then the post-import step. Two
 * services — one on the SQLite store imported from the same file, one with CITY_OSM_STORE on the
 * database — answer the same requests with the same model: identical feature ids in every group,
 * every coordinate within 1 mm. Then a replication-style update (osm2pgsql --append of a small
 * change file) shows in the very next request, and a new building after the refresh step.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../../src/repo-root.ts';
import type { RunningService } from '../../src/service.ts';
import { importPostgis, runOsm2pgsql } from '../../src/sources/osm/postgis/import-postgis.ts';
import { postImport } from '../../src/sources/osm/postgis/post-import.ts';
import { PostgisStore } from '../../src/sources/osm/postgis/postgis-store.ts';
import { OsmSnapshot } from '../../src/sources/osm/postgis/snapshot.ts';
import { importOsm } from '../../src/sources/osm/import.ts';
import { OSM_LAYERS } from '../../src/sources/osm/layers.ts';
import { OsmStore } from '../../src/sources/osm/store.ts';
import type { OsmFeature } from '../../src/osm-model/feature.ts';
import { DENSE_CITY_DEFAULTS, writeDenseCity } from '../support/generators/dense-city.ts';
import { startPostgisCluster, type PostgisCluster } from '../support/postgis-cluster.ts';
import { MONACO_CENTRE, square } from '../support/polygons.ts';
import { postContext, startTestService } from '../support/service/http.ts';

const MONACO = join(REPO_ROOT, 'data/monaco/monaco.osm.pbf');

let cluster: PostgisCluster;
let sqlite: RunningService;
let postgis: RunningService;
let scratch: string;

before(async () => {
  cluster = await startPostgisCluster();
  scratch = mkdtempSync(join(tmpdir(), 'cc-postgis-test-'));
  await importPostgis(MONACO, cluster.url);
  sqlite = await startTestService();
  postgis = await startTestService({ osmStore: cluster.url });
});

after(async () => {
  await sqlite?.close();
  await postgis?.close();
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The first place two answers differ (numbers: by more than 1 mm), or null when they are the same model. */
function difference(a: unknown, b: unknown, path = '$'): string | null {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-3 ? null : `${path}: ${a} ≠ ${b}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: ${a.length} items ≠ ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = difference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${path}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`;
}

interface Group {
  type: string;
  [items: string]: unknown;
}

/** The item lists of a group (meshes, instances, …): every array of objects it holds. */
function itemLists(g: Group): [string, Record<string, unknown>[]][] {
  return Object.entries(g).filter((e): e is [string, Record<string, unknown>[]] => Array.isArray(e[1]) && e[1].every((x) => x && typeof x === 'object'));
}

/** Sum of an item's numbers: with its descriptor, a key that orders items the same in both answers. */
function numberSum(v: unknown): number {
  if (typeof v === 'number') return v;
  if (Array.isArray(v)) return v.reduce((s: number, x) => s + numberSum(x), 0);
  if (v && typeof v === 'object') return Object.values(v).reduce((s: number, x) => s + numberSum(x), 0);
  return 0;
}

/**
 * The answer's groups with their items in one canonical order: tiles reach the answer as they
 * finish, so two runs list the same items in different orders. Ordered by descriptor (feature id
 * first), then by the sum of their numbers.
 */
function canonical(json: { geometry: Group[] }): Group[] {
  const key = (item: Record<string, unknown>) => JSON.stringify(item.descriptor ?? item.id ?? '');
  return json.geometry.map((g) => {
    const out: Group = { ...g };
    for (const [name, items] of itemLists(g)) {
      out[name] = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : numberSum(a) - numberSum(b)));
    }
    return out;
  });
}

/** Feature ids per group and item list, sorted. */
function idsByGroup(json: { geometry: Group[] }): Record<string, string[]> {
  return Object.fromEntries(
    json.geometry.flatMap((g) =>
      itemLists(g).map(([name, items]) => [
        `${g.type}.${name}`,
        items.map((m) => String((m.descriptor as { id?: string } | undefined)?.id ?? m.id ?? '')).sort(),
      ]),
    ),
  );
}

const REQUESTS: [string, Record<string, unknown>][] = [
  ['the default groups over central Monaco', { polygon: square(MONACO_CENTRE[0], MONACO_CENTRE[1], 600) }],
  [
    'every feature group by the harbour, the scene cropped',
    { polygon: square(43.7365, 7.4245, 500), settings: { geometry: ['buildings', 'surface', 'barriers', 'instances'], cropScene: true } },
  ],
  ['the default groups at the sea front of Larvotto (coastline and sea read far out)', { polygon: square(43.7445, 7.4335, 400) }],
  [
    'a triangle over Fontvieille with terrain',
    {
      polygon: [
        [43.7275, 7.4135],
        [43.7305, 7.4185],
        [43.7255, 7.4195],
        [43.7275, 7.4135],
      ],
      settings: { geometry: ['buildings', 'surface', 'topography'] },
    },
  ],
];

for (const [name, body] of REQUESTS) {
  test(`PostGIS and SQLite stores give the same model: ${name}`, async () => {
    const [a, b] = await Promise.all([postContext(sqlite.url, sqlite.demo!.key, body), postContext(postgis.url, postgis.demo!.key, body)]);
    assert.equal(a.status, 200, a.text.slice(0, 300));
    assert.equal(b.status, 200, b.text.slice(0, 300));
    const ids = idsByGroup(a.json);
    assert.ok(
      Object.values(ids).some((list) => list.length > 10),
      'the request has features to compare',
    );
    assert.deepEqual(idsByGroup(b.json), ids);
    assert.equal(difference(canonical(b.json), canonical(a.json)), null);
    assert.deepEqual(b.json.warnings ?? [], a.json.warnings ?? []);
  });
}

/** Tags in one key order: jsonb keeps its own, and no builder depends on the order. */
const sortedTags = (f: OsmFeature) => ({ ...f, tags: Object.fromEntries(Object.entries(f.tags).sort()) });

test('on a synthetic dense city (building relations, parts, courtyard multipolygons) the stores hold the same features, groups and members', async () => {
  const pbf = join(scratch, 'dense.osm.pbf');
  const city = writeDenseCity(pbf, { ...DENSE_CITY_DEFAULTS, sideMetres: 700 });
  assert.ok(city.buildingRelations > 0 && city.parts > 0 && city.courtyards > 0, JSON.stringify(city));
  await importOsm(pbf, join(scratch, 'dense.sqlite'));
  const url = await cluster.createDatabase('dense');
  await importPostgis(pbf, url);
  const sqliteStore = OsmStore.open(join(scratch, 'dense.sqlite'));
  const pgStore = PostgisStore.open(url, 2);
  try {
    const [lat, lon] = DENSE_CITY_DEFAULTS.centre;
    let withRelations = 0;
    for (const [dLon, dLat, side] of [
      [0, 0, 0.004],
      [-0.003, 0.002, 0.002],
      [0.002, -0.003, 0.0015],
    ]) {
      const box = { minLon: lon + dLon - side, minLat: lat + dLat - side, maxLon: lon + dLon + side, maxLat: lat + dLat + side };
      const snapshot = new OsmSnapshot();
      snapshot.add(await pgStore.fetchRegion(box, { layers: OSM_LAYERS, groups: true }));
      const expected = sqliteStore.query(box, OSM_LAYERS);
      withRelations += expected.filter((f) => f.buildingRelation).length;
      assert.deepEqual(snapshot.query(box, OSM_LAYERS).map(sortedTags), expected.map(sortedTags));
      const groups = sqliteStore.buildingGroups(box);
      assert.deepEqual(snapshot.buildingGroups(box), groups);
      const gids = groups.map((g) => g.gid);
      const members = (m: Map<number, OsmFeature[]>) => [...m].map(([gid, list]) => [gid, list.map(sortedTags)]);
      assert.deepEqual(members(snapshot.buildingGroupMembers(gids)), members(sqliteStore.buildingGroupMembers(gids)));
    }
    assert.ok(withRelations > 0, 'the boxes hold members of building relations');
  } finally {
    sqliteStore.close();
    await pgStore.close();
  }
});

/** The height of the tallest vertex of the building with this id in an answer (y up), or null when it is not there. */
function buildingTop(json: { geometry: { type: string; meshes: { descriptor: { id: string }; vertices: number[] }[] }[] }, id: string): number | null {
  const mesh = json.geometry.find((g) => g.type === 'buildings')?.meshes.find((m) => m.descriptor.id === id);
  return mesh ? Math.max(...mesh.vertices.filter((_, i) => i % 3 === 1)) : null;
}

test('an updated way shows in the next request; a new building after the refresh step; the store version moves with both', async () => {
  const store = PostgisStore.open(cluster.url, 1);
  try {
    // a plain building near the centre, and the nodes it is drawn with
    const [row] = JSON.parse(
      cluster.psql(`SELECT json_agg(x) FROM (SELECT b.osm_id, w.nodes FROM cc_osm_building b JOIN planet_osm_ways w ON w.id = b.osm_id
        WHERE b.osm_type = 'W' AND b.tags ? 'building' AND NOT b.tags ? 'height' AND NOT b.tags ? 'building:levels'
        ORDER BY ST_Distance(b.geom, ST_SetSRID(ST_MakePoint(${MONACO_CENTRE[1]}, ${MONACO_CENTRE[0]}), 4326)) LIMIT 1) x`),
    ) as { osm_id: number; nodes: number[] }[];
    const id = `way/${row.osm_id}`;
    const body = { polygon: square(MONACO_CENTRE[0], MONACO_CENTRE[1], 600), settings: { geometry: ['buildings'] } };
    const before = await postContext(postgis.url, postgis.demo!.key, body);
    const topBefore = buildingTop(before.json, id);
    assert.ok(topBefore !== null && topBefore < 60, `${id} stands ${topBefore} m high`);
    const version0 = await store.storeVersion();

    // the way gets height=123; a new square building (new nodes, a new way) goes up 20 m east of the centre
    const [lat, lon] = MONACO_CENTRE;
    const d = 0.00008;
    const corners = [
      [lat, lon + 0.0003],
      [lat, lon + 0.0003 + d],
      [lat + d, lon + 0.0003 + d],
      [lat + d, lon + 0.0003],
    ];
    const osc = `<?xml version="1.0" encoding="UTF-8"?>
<osmChange version="0.6" generator="test">
<create>
${corners.map(([y, x], k) => `<node id="${9_000_000_000 + k}" version="1" timestamp="2030-01-01T00:00:00Z" lat="${y}" lon="${x}"/>`).join('\n')}
</create>
<modify>
<way id="${row.osm_id}" version="99" timestamp="2030-01-01T00:00:00Z">
${row.nodes.map((n) => `<nd ref="${n}"/>`).join('\n')}
<tag k="building" v="yes"/><tag k="height" v="123"/>
</way>
</modify>
<create>
<way id="9000000000" version="1" timestamp="2030-01-01T00:00:00Z">
${[0, 1, 2, 3, 0].map((k) => `<nd ref="${9_000_000_000 + k}"/>`).join('\n')}
<tag k="building" v="yes"/><tag k="height" v="77"/>
</way>
</create>
</osmChange>`;
    const oscPath = join(scratch, 'change.osc');
    writeFileSync(oscPath, osc);
    await runOsm2pgsql(['--append', '--slim', '-d', cluster.url, oscPath]);
    const version1 = await store.storeVersion();
    assert.notEqual(version1, version0, 'osm2pgsql --append moved the store version');

    const next = await postContext(postgis.url, postgis.demo!.key, body);
    assert.equal(next.status, 200);
    assert.ok(Math.abs(buildingTop(next.json, id)! - 123) < 0.01, `${id} now stands ${buildingTop(next.json, id)} m high`);
    assert.equal(buildingTop(next.json, 'way/9000000000'), null, 'a new building waits for the refresh step');

    await postImport(cluster.url);
    assert.notEqual(await store.storeVersion(), version1, 'the refresh moved the store version');
    const refreshed = await postContext(postgis.url, postgis.demo!.key, body);
    assert.ok(Math.abs(buildingTop(refreshed.json, 'way/9000000000')! - 77) < 0.01, 'the new building stands after the refresh');
    assert.ok(Math.abs(buildingTop(refreshed.json, id)! - 123) < 0.01);
  } finally {
    await store.close();
  }
});
