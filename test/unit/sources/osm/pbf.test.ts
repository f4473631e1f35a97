/**
 * The PBF reader and importer on a small hand-written file that exercises what the Monaco extracts
 * do not: raw (uncompressed) blobs, plain (non-dense) nodes, a non-default granularity with offsets,
 * unsorted node ids, ways and relations before the nodes, missing nodes, and bad files.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Pbf from 'pbf';
import { readPbfBlocks } from '../../../../src/sources/osm/pbf-blobs.ts';
import { decodeHeaderBlock } from '../../../../src/sources/osm/pbf-header.ts';
import { decodePrimitiveBlock } from '../../../../src/sources/osm/pbf-primitives.ts';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { OsmStore } from '../../../../src/sources/osm/store.ts';
import { OSM_LAYERS } from '../../../../src/sources/osm/layers.ts';
import { delta, fileBlock, message, StringTable } from '../../../support/generators/pbf-writer.ts';

// ---- a minimal PBF writer (fileformat.proto / osmformat.proto field numbers) ----

const headerBlock = message((pbf) => {
  pbf.writeStringField(4, 'OsmSchema-V0.6');
  pbf.writeStringField(4, 'DenseNodes');
  pbf.writeStringField(16, 'osm-pbf.test');
});

interface Block {
  granularity?: number;
  latOffset?: number;
  lonOffset?: number;
  groups: ((pbf: Pbf, st: StringTable) => void)[];
}

function primitiveBlock(block: Block): Uint8Array {
  const st = new StringTable();
  const groups = block.groups.map((g) => message((pbf) => g(pbf, st)));
  return message((pbf) => {
    pbf.writeMessage(1, (strings: string[], p: Pbf) => strings.forEach((s) => p.writeStringField(1, s)), st.strings);
    for (const g of groups) pbf.writeBytesField(2, g);
    if (block.granularity) pbf.writeVarintField(17, block.granularity);
    if (block.latOffset) pbf.writeVarintField(19, block.latOffset);
    if (block.lonOffset) pbf.writeVarintField(20, block.lonOffset);
  });
}

function way(id: number, tags: Record<string, string>, refs: number[]) {
  return (pbf: Pbf, st: StringTable) =>
    pbf.writeMessage(
      3,
      (_: null, p: Pbf) => {
        p.writeVarintField(1, id);
        p.writePackedVarint(
          2,
          Object.keys(tags).map((k) => st.id(k)),
        );
        p.writePackedVarint(
          3,
          Object.values(tags).map((v) => st.id(v)),
        );
        p.writePackedSVarint(8, delta(refs));
      },
      null,
    );
}

// Node positions in degrees; block 2 stores them with granularity 1000 and offsets.
const NODES: Record<number, [number, number]> = {
  1: [7.4, 43.7],
  2: [7.401, 43.7],
  3: [7.401, 43.701],
  4: [7.4, 43.701], // building square
  5: [7.41, 43.7],
  6: [7.42, 43.7],
  7: [7.42, 43.71],
  8: [7.41, 43.71], // multipolygon outer
  9: [7.412, 43.702],
  10: [7.414, 43.702],
  11: [7.413, 43.704], // multipolygon inner
  12: [7.405, 43.705], // natural=tree
  13: [7.406, 43.705], // only source=survey
};
const DENSE_ORDER = [3, 1, 2, 4, 8, 7, 6, 5, 9, 11, 10, 12, 13]; // not sorted by id
const GRANULARITY = 1000,
  LAT_OFFSET = 500_000_000,
  LON_OFFSET = 100_000_000;
const raw = (degrees: number, offset: number) => Math.round((Math.round(degrees * 1e9) - offset) / GRANULARITY);

function syntheticPbf(dataCompression: 'zlib' | 'zstd' = 'zlib'): Buffer {
  const waysAndRelations = primitiveBlock({
    groups: [
      (pbf, st) => {
        way(100, { building: 'yes' }, [1, 2, 3, 4, 1])(pbf, st);
        way(101, {}, [5, 6, 7])(pbf, st);
        way(102, { source: 'survey' }, [7, 8, 5])(pbf, st);
        way(103, {}, [9, 10, 11, 9])(pbf, st);
        way(104, { highway: 'footway' }, [1, 999])(pbf, st); // node 999 is not in the file
      },
      (pbf, st) =>
        pbf.writeMessage(
          4,
          (_: null, p: Pbf) => {
            p.writeVarintField(1, 200);
            p.writePackedVarint(2, [st.id('type'), st.id('landuse')]);
            p.writePackedVarint(3, [st.id('multipolygon'), st.id('grass')]);
            p.writePackedVarint(8, [st.id('inner'), st.id('outer'), st.id('outer')]);
            p.writePackedSVarint(9, delta([103, 102, 101]));
            p.writePackedVarint(10, [1, 1, 1]);
          },
          null,
        ),
    ],
  });
  const denseNodes = primitiveBlock({
    granularity: GRANULARITY,
    latOffset: LAT_OFFSET,
    lonOffset: LON_OFFSET,
    groups: [
      (pbf, st) =>
        pbf.writeMessage(
          2,
          (_: null, p: Pbf) => {
            p.writePackedSVarint(1, delta(DENSE_ORDER));
            p.writePackedSVarint(8, delta(DENSE_ORDER.map((id) => raw(NODES[id][1], LAT_OFFSET))));
            p.writePackedSVarint(9, delta(DENSE_ORDER.map((id) => raw(NODES[id][0], LON_OFFSET))));
            const kv: number[] = [];
            for (const id of DENSE_ORDER) {
              if (id === 12) kv.push(st.id('natural'), st.id('tree'));
              if (id === 13) kv.push(st.id('source'), st.id('survey'));
              kv.push(0);
            }
            p.writePackedVarint(10, kv);
          },
          null,
        ),
    ],
  });
  const plainNode = primitiveBlock({
    groups: [
      (pbf, st) =>
        pbf.writeMessage(
          1,
          (_: null, p: Pbf) => {
            p.writeSVarintField(1, 14);
            p.writePackedVarint(2, [st.id('amenity')]);
            p.writePackedVarint(3, [st.id('bench')]);
            p.writeSVarintField(8, 437051234); // default granularity 100 nanodegrees
            p.writeSVarintField(9, 74071234);
          },
          null,
        ),
    ],
  });
  return Buffer.concat([
    fileBlock('OSMHeader', headerBlock, 'raw'),
    fileBlock('OSMData', waysAndRelations, 'raw'),
    fileBlock('OSMData', denseNodes, dataCompression),
    fileBlock('OSMData', plainNode, 'raw'),
  ]);
}

const dir = mkdtempSync(join(tmpdir(), 'osm-pbf-test-'));
const pbfPath = join(dir, 'synthetic.osm.pbf');
writeFileSync(pbfPath, syntheticPbf());
after(() => rmSync(dir, { recursive: true, force: true }));

test('pbf reader: raw and zlib blobs, granularity and offsets, dense and plain nodes', async () => {
  const blocks = [];
  for await (const block of readPbfBlocks(pbfPath)) blocks.push(block);
  assert.deepEqual(
    blocks.map((b) => b.type),
    ['OSMHeader', 'OSMData', 'OSMData', 'OSMData'],
  );
  assert.equal(blocks.at(-1)!.bytesRead, readFileSync(pbfPath).length);
  assert.equal(decodeHeaderBlock(blocks[0].data).writingProgram, 'osm-pbf.test');

  const first = decodePrimitiveBlock(blocks[1].data);
  assert.deepEqual(
    first.ways.map((w) => [w.id, w.refs]),
    [
      [100, [1, 2, 3, 4, 1]],
      [101, [5, 6, 7]],
      [102, [7, 8, 5]],
      [103, [9, 10, 11, 9]],
      [104, [1, 999]],
    ],
  );
  assert.deepEqual(first.relations[0], {
    id: 200,
    tags: { type: 'multipolygon', landuse: 'grass' },
    members: [
      { type: 'way', ref: 103, role: 'inner' },
      { type: 'way', ref: 102, role: 'outer' },
      { type: 'way', ref: 101, role: 'outer' },
    ],
  });
  assert.equal(decodePrimitiveBlock(blocks[1].data, { ways: false }).ways.length, 0);

  const dense = decodePrimitiveBlock(blocks[2].data).nodes;
  assert.deepEqual(dense.ids, DENSE_ORDER);
  assert.deepEqual(
    dense.lat7,
    DENSE_ORDER.map((id) => Math.round(NODES[id][1] * 1e7)),
  );
  assert.deepEqual(
    dense.lon7,
    DENSE_ORDER.map((id) => Math.round(NODES[id][0] * 1e7)),
  );
  assert.deepEqual(dense.tags[DENSE_ORDER.indexOf(12)], { natural: 'tree' });
  assert.equal(dense.tags[0], undefined);

  const plain = decodePrimitiveBlock(blocks[3].data).nodes;
  assert.deepEqual([plain.ids, plain.lat7, plain.lon7, plain.tags], [[14], [437051234], [74071234], [{ amenity: 'bench' }]]);
});

test('import: entity order and unsorted ids do not matter; missing nodes and bookkeeping-only tags are skipped', async () => {
  const dbPath = join(dir, 'synthetic.sqlite');
  const stats = await importOsm(pbfPath, dbPath);
  assert.deepEqual([stats.nodes, stats.ways, stats.relations], [14, 5, 1]);
  assert.equal(stats.skipped.unresolvedWays, 1);
  const store = OsmStore.open(dbPath);
  const all = store.query({ minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 }, OSM_LAYERS);
  store.close();
  const byId = new Map(all.map((f) => [f.id, f]));
  assert.deepEqual([...byId.keys()].sort(), ['node/12', 'node/14', 'relation/200', 'way/100']);
  assert.deepEqual(byId.get('node/12'), { id: 'node/12', layer: 'poi', kind: 'point', tags: { natural: 'tree' }, point: [7.405, 43.705] });
  assert.deepEqual(byId.get('node/14')!.point, [7.4071234, 43.7051234]);
  assert.deepEqual(byId.get('way/100')!.polygons, [[[7.4, 43.7, 7.401, 43.7, 7.401, 43.701, 7.4, 43.701]]]);
  const mp = byId.get('relation/200')!;
  assert.equal(mp.layer, 'landcover');
  assert.equal(mp.polygons!.length, 1);
  assert.equal(mp.polygons![0].length, 2, 'outer ring plus one hole');
  assert.equal(mp.polygons![0][1].length, 6, 'the triangle hole');
});

test('import: a failed import leaves the previous store in place and no temp files', async () => {
  const dbPath = join(dir, 'kept.sqlite');
  await importOsm(pbfPath, dbPath);
  const truncated = join(dir, 'truncated.osm.pbf');
  writeFileSync(truncated, readFileSync(pbfPath).subarray(0, readFileSync(pbfPath).length - 10));
  await assert.rejects(importOsm(truncated, dbPath), /truncated/);
  const notPbf = join(dir, 'not.osm.pbf');
  writeFileSync(notPbf, 'this is not a protocol buffer, just text that is long enough');
  await assert.rejects(importOsm(notPbf, dbPath), /not an OSM PBF file|truncated/);
  const zstd = join(dir, 'zstd.osm.pbf');
  writeFileSync(zstd, syntheticPbf('zstd'));
  await assert.rejects(importOsm(zstd, dbPath), /zstd/);
  const store = OsmStore.open(dbPath);
  assert.equal(store.query({ minLon: 7, minLat: 43, maxLon: 8, maxLat: 44 }, OSM_LAYERS).length, 4);
  store.close();
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes('importing')),
    [],
  );
});
