/**
 * The synthetic dense city of the benchmark (test/support/generators/dense-city.ts): deterministic from its seed,
 * shaped as the issue asks (outline and part counts, stacked towers, roof shapes, 300 m
 * type=building relations), and imported whole by importOsm.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DENSE_CITY_DEFAULTS, denseCityExtract, denseCityPbf, denseCitySummary, type DenseCityOptions } from '../../../support/generators/dense-city.ts';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { importOsm, type ImportStats } from '../../../../src/sources/osm/import.ts';
import { OsmStore } from '../../../../src/sources/osm/store.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';
import type { OsmPbfData } from '../../../support/generators/pbf-writer.ts';

const SMALL: DenseCityOptions = { ...DENSE_CITY_DEFAULTS, seed: 7, sideMetres: 600 };
const WORLD = { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 };
const dir = mkdtempSync(join(tmpdir(), 'dense-city-'));
const dbPath = join(dir, 'osm.sqlite');
let stats: ImportStats;
let features: OsmFeature[];

before(async () => {
  writeFileSync(join(dir, 'small.osm.pbf'), denseCityPbf(SMALL));
  stats = await importOsm(join(dir, 'small.osm.pbf'), dbPath);
  const store = OsmStore.open(dbPath);
  try {
    features = store.query(WORLD, ['building', 'building_part']);
  } finally {
    store.close();
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Largest side, in metres, of the box around each type=building relation's way members. */
function relationSpans(data: OsmPbfData): number[] {
  const frame = createLocalFrame(DENSE_CITY_DEFAULTS.centre[0], DENSE_CITY_DEFAULTS.centre[1]);
  const nodes = new Map(data.nodes.map((n) => [n.id, frame.toLocal(n.lon, n.lat)]));
  const ways = new Map(data.ways.map((w) => [w.id, w]));
  return data.relations
    .filter((r) => r.tags.type === 'building')
    .map((r) => {
      const pts = r.members.filter((m) => m.type === 'way').flatMap((m) => ways.get(m.ref)!.refs.map((id) => nodes.get(id)!));
      const xs = pts.map((p) => p[0]),
        ys = pts.map((p) => p[1]);
      return Math.hypot(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    });
}

test('same seed, same bytes; another seed, another city', () => {
  const a = denseCityPbf(SMALL),
    b = denseCityPbf({ ...SMALL });
  assert.ok(a.equals(b), 'same options give byte-identical PBFs');
  assert.ok(!a.equals(denseCityPbf({ ...SMALL, seed: SMALL.seed + 1 })), 'another seed gives another file');
  assert.ok(denseCityPbf().equals(denseCityPbf()), 'the full-size default city too');
});

test('the default ~10 km² city has the shape the benchmark needs', () => {
  const data = denseCityExtract(DENSE_CITY_DEFAULTS);
  const s = denseCitySummary(data);
  assert.ok(s.outlines >= 8000, `${s.outlines} outlines`);
  assert.ok(s.parts >= 5000, `${s.parts} parts`);
  assert.ok(s.courtyards > 0, 'courtyard multipolygons');
  const share = s.partsWithRoofShape / s.parts;
  assert.ok(share > 0.3 && share < 0.5, `roof:shape on ${(100 * share).toFixed(0)}% of parts`);
  const shapes = new Set(data.ways.filter((w) => w.tags['building:part']).map((w) => w.tags['roof:shape']));
  for (const shape of ['flat', 'gabled', 'hipped', 'pyramidal', 'dome', 'skillion']) assert.ok(shapes.has(shape), shape);
  const spans = relationSpans(data);
  assert.ok(spans.filter((m) => m > 280).length >= 5, `type=building relations spanning ~300 m: ${spans.filter((m) => m > 280).length}`);
  // towers: stacked parts, each standing exactly on the one below
  const heights = new Set(data.ways.filter((w) => w.tags['building:part']).map((w) => w.tags.height));
  const stacked = data.ways.filter((w) => w.tags['building:part'] && w.tags.min_height);
  assert.ok(stacked.length > 1000, `${stacked.length} stacked parts`);
  assert.ok(
    stacked.every((w) => heights.has(w.tags.min_height)),
    'every min_height is the height of another part',
  );
});

test('a 600 m city imports whole: outlines, parts and relations, parts ≥ half the outlines', () => {
  const s = denseCitySummary(denseCityExtract(SMALL));
  const outlines = features.filter((f) => f.layer === 'building'),
    parts = features.filter((f) => f.layer === 'building_part');
  assert.equal(outlines.length, s.outlines);
  assert.equal(parts.length, s.parts);
  assert.ok(parts.length >= 0.5 * outlines.length, `${parts.length} parts for ${outlines.length} outlines`);
  const courtyards = outlines.filter((f) => f.id.startsWith('relation/'));
  assert.equal(courtyards.length, s.courtyards);
  assert.ok(courtyards.length > 0 && courtyards.every((f) => f.polygons?.length === 1 && f.polygons[0].length === 2), 'courtyards are areas with one hole');
  assert.equal(stats.buildingRelations, s.buildingRelations);
  assert.ok(stats.buildingRelations > 0, 'type=building relations recorded');
  assert.ok(stats.byLayer.highway > 0, 'streets');
  assert.ok(
    Object.values(stats.skipped).every((n) => n === 0),
    `nothing skipped: ${JSON.stringify(stats.skipped)}`,
  );
});
