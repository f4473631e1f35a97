/**
 * surfaceAreasFromFeatures: OSM features of the ground layers become valid footprints in the local
 * frame with a descriptor (made-up features, then all of the Monaco extract, counted per kind).
 * How tags map to kinds is tested in test/unit/geometry/surfaces/classify/rules.test.ts.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../../../src/config.ts';
import { importOsm } from '../../../../../src/sources/osm/import.ts';
import { OsmStore } from '../../../../../src/sources/osm/store.ts';
import type { OsmFeature } from '../../../../../src/osm-model/feature.ts';
import { createLocalFrame } from '../../../../../src/frame/local-frame.ts';
import { isCounterClockwise, ringArea } from '../../../../../src/geometry/ring.ts';
import { isSimpleFootprint } from '../../../../../src/geometry/planar/footprint-repair.ts';
import type { SurfaceArea, SurfaceKind } from '../../../../../src/geometry/surfaces/types.ts';
import { SURFACE_PRIORITY, URBAN_LANDUSE_PRIORITY } from '../../../../../src/geometry/surfaces/priority.ts';
import { MIN_FOOTPRINT_AREA, SURFACE_AREA_LAYERS, surfaceAreasFromFeatures } from '../../../../../src/geometry/surfaces/classify/index.ts';

type Tags = Record<string, string>;

// ---------------------------------------------------------------- features → areas

const FRAME = createLocalFrame(43.735, 7.419);
/** A lon/lat square ring of `side` metres (roughly) with its south-west corner `dx`, `dy` metres from the frame origin. */
function square(dx: number, dy: number, side: number): number[] {
  const [lon0, lat0] = FRAME.toLonLat(dx, dy);
  const [lon1, lat1] = FRAME.toLonLat(dx + side, dy + side);
  return [lon0, lat0, lon1, lat0, lon1, lat1, lon0, lat1];
}
function reversed(ring: number[]): number[] {
  const out: number[] = [];
  for (let i = ring.length - 2; i >= 0; i -= 2) out.push(ring[i], ring[i + 1]);
  return out;
}
function area(id: string, layer: OsmFeature['layer'], tags: Tags, polygons: number[][][]): OsmFeature {
  return { id, layer, tags, kind: 'area', polygons };
}

test('features: areas of the ground layers become valid footprints in the frame with a descriptor', () => {
  const bowTie = (() => {
    const [a, b] = FRAME.toLonLat(0, 0),
      [c, d] = FRAME.toLonLat(20, 20),
      [e, f] = FRAME.toLonLat(20, 0),
      [g, h] = FRAME.toLonLat(0, 20);
    return [a, b, e, f, g, h, c, d]; // crosses itself in the middle
  })();
  const features: OsmFeature[] = [
    area('way/1', 'landcover', { leisure: 'park', name: 'Parc', layer: '1' }, [[square(0, 0, 50), reversed(square(10, 10, 10))]]),
    area('relation/2', 'water', { natural: 'water' }, [[square(100, 0, 30)], [square(200, 0, 30)]]),
    area('way/3', 'landcover', { landuse: 'grass' }, [[bowTie]]),
    area('way/4', 'building', { building: 'yes' }, [[square(300, 0, 10)]]),
    area('way/5', 'building', { building: 'construction' }, [[square(320, 0, 10)]]),
    area('way/6', 'poi', { leisure: 'park' }, [[square(340, 0, 10)]]), // not a ground layer
    area('way/7', 'landcover', { amenity: 'school' }, [[square(360, 0, 10)]]),
    area('way/8', 'landcover', { landuse: 'railway', layer: '-2' }, [[square(380, 0, 10)]]),
    area('way/9', 'landcover', { landuse: 'grass' }, [[square(400, 0, 0.001)]]), // collapses
    { id: 'way/10', layer: 'highway', tags: { highway: 'pedestrian' }, kind: 'line', line: square(0, 0, 5) },
    { id: 'node/11', layer: 'landcover', tags: { leisure: 'park' }, kind: 'point', point: [7.419, 43.735] },
    area('way/12', 'highway', { highway: 'pedestrian', area: 'yes', surface: 'sett' }, [[square(420, 0, 10)]]),
  ];
  const areas = surfaceAreasFromFeatures(features, FRAME);
  assert.deepEqual(
    areas.map((a) => a.descriptor.id),
    ['way/1', 'relation/2', 'way/3', 'way/5', 'way/12'],
  );
  const [park, water, grass, site, plaza] = areas;
  assert.deepEqual(park.descriptor, { type: 'manicuredGrass', id: 'way/1', leisure: 'park', layer: 1, name: 'Parc' });
  assert.equal(park.priority, SURFACE_PRIORITY.manicuredGrass);
  assert.equal(park.footprints.length, 1);
  assert.equal(park.footprints[0].holes.length, 1);
  assert.ok(Math.abs(footprintArea(park.footprints[0]) - (2500 - 100)) < 1, `park area ${footprintArea(park.footprints[0])}`);
  assert.ok(Math.abs(park.footprints[0].outer[0]) < 0.01 || Math.abs(park.footprints[0].outer[0] - 50) < 0.01, 'in local metres');
  assert.equal(water.footprints.length, 2, 'a multipolygon keeps all its outers');
  assert.equal(grass.footprints.length, 2, 'a bow-tie is repaired into its two triangles');
  assert.ok(Math.abs(grass.footprints.reduce((s, f) => s + footprintArea(f), 0) - 200) < 0.5);
  assert.deepEqual(site.descriptor, { type: 'buildingConstruction', id: 'way/5', building: 'construction' });
  assert.deepEqual(plaza.descriptor, { type: 'pavement', id: 'way/12', highway: 'pedestrian' });
  for (const a of areas) assertValidArea(a);
});

function footprintArea(fp: SurfaceArea['footprints'][number]): number {
  return ringArea(fp.outer) - fp.holes.reduce((s, h) => s + ringArea(h), 0);
}

function assertValidArea(a: SurfaceArea): void {
  const id = String(a.descriptor.id);
  assert.equal(a.descriptor.type, a.kind, id);
  assert.ok(a.priority === SURFACE_PRIORITY[a.kind] || a.priority === URBAN_LANDUSE_PRIORITY, id);
  assert.ok(a.footprints.length > 0, id);
  for (const fp of a.footprints) {
    assert.ok(fp.outer.length >= 6 && fp.outer.every(Number.isFinite), `${id}: outer ring`);
    assert.ok(isCounterClockwise(fp.outer), `${id}: outer ring counter-clockwise`);
    for (const h of fp.holes) assert.ok(h.length >= 6 && !isCounterClockwise(h), `${id}: holes clockwise`);
    assert.ok(isSimpleFootprint(fp), `${id}: rings simple and disjoint`);
    assert.ok(footprintArea(fp) >= MIN_FOOTPRINT_AREA, `${id}: non-zero area`);
    const n = fp.outer.length;
    assert.ok(fp.outer[0] !== fp.outer[n - 2] || fp.outer[1] !== fp.outer[n - 1], `${id}: no closing duplicate`);
  }
}

// ---------------------------------------------------------------- real data: all of Monaco

let monaco: OsmStore;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-surfaces-classify-'));
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), join(dir, 'monaco.sqlite'));
  monaco = OsmStore.open(join(dir, 'monaco.sqlite'));
});

test('Monaco: the ground areas of the whole extract, counted per kind, all valid', () => {
  const features = monaco.query({ minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 }, SURFACE_AREA_LAYERS);
  const started = performance.now();
  const areas = surfaceAreasFromFeatures(features, FRAME);
  const ms = performance.now() - started;
  const count: Partial<Record<SurfaceKind, number>> = {};
  const m2: Partial<Record<SurfaceKind, number>> = {};
  for (const a of areas) {
    count[a.kind] = (count[a.kind] ?? 0) + 1;
    m2[a.kind] = (m2[a.kind] ?? 0) + a.footprints.reduce((s, f) => s + footprintArea(f), 0);
  }
  const rows = Object.keys(count)
    .sort((a, b) => count[b as SurfaceKind]! - count[a as SurfaceKind]!)
    .map(
      (k) =>
        `  ${k.padEnd(22)} ${String(count[k as SurfaceKind]).padStart(4)} areas ${Math.round(m2[k as SurfaceKind]!)
          .toString()
          .padStart(9)} m²`,
    );
  console.log(
    `Monaco: ${areas.length} ground areas from ${features.length} features of ${SURFACE_AREA_LAYERS.join(', ')} in ${ms.toFixed(0)} ms\n${rows.join('\n')}`,
  );

  for (const kind of [
    'water',
    'pavement',
    'pitch',
    'helipad',
    'roadwayArea',
    'garden',
    'forest',
    'sand',
    'rock',
    'construction',
    'buildingConstruction',
  ] as const) {
    assert.ok((count[kind] ?? 0) > 0, `Monaco has ${kind}`);
  }
  assert.ok((count.grass ?? 0) + (count.manicuredGrass ?? 0) > 0, 'Monaco has grass');
  for (const a of areas) assertValidArea(a);

  const byId = new Map(areas.map((a) => [String(a.descriptor.id), a]));
  assert.equal(byId.get('way/177049634')?.kind, 'helipad', 'Héliport de Monaco pad');
  assert.equal(byId.get('relation/2254506')?.kind, 'sand', 'Plage Larvotto');
  assert.deepEqual(byId.get('way/585654719')?.descriptor, {
    type: 'pavement',
    id: 'way/585654719',
    natural: 'beach',
    surface: 'asphalt',
    name: 'Plage du Solarium',
  });
  assert.equal(byId.get('relation/2220209')?.kind, 'rock', 'the pebble cove');
  assert.equal(byId.get('way/572935479')?.kind, 'water', 'Fontaine du Casino (filed under barrier)');
  for (const id of ['way/946562617', 'way/946562618', 'way/946562648']) assert.equal(byId.get(id), undefined, `${id}: the underground station is not ground`);
  assert.equal(byId.get('way/437651792'), undefined, 'a rooftop pool is not ground');
  assert.equal(byId.get('way/946562616'), undefined, 'a bridge outline is not ground');
  const buildings = areas.filter((a) => features.find((f) => f.id === a.descriptor.id)?.layer === 'building');
  assert.ok(
    buildings.every((a) => a.kind === 'buildingConstruction'),
    'from the building layer only building sites',
  );
});
