import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { REPO_ROOT } from '../src/config.ts';
import { importOsm } from '../src/sources/osm/import.ts';
import { OsmStore } from '../src/sources/osm/store.ts';
import type { OsmFeature } from '../src/sources/osm/types.ts';
import { createLocalFrame } from '../src/frame/local-frame.ts';
import { isCounterClockwise, ringArea } from '../src/geometry/ring.ts';
import { isSimpleFootprint } from '../src/geometry/footprint-repair.ts';
import { SURFACE_KINDS, type SurfaceArea, type SurfaceKind } from '../src/geometry/surfaces/types.ts';
import { SURFACE_PRIORITY, URBAN_LANDUSE_PRIORITY } from '../src/geometry/surfaces/priority.ts';
import {
  AREA_RULES, AREA_RULE_KEYS, MIN_FOOTPRINT_AREA, SURFACE_AREA_LAYERS, classifySurfaceArea, notGroundReason,
  parseSurfaceMaterial, surfaceAreaTableMarkdown, surfaceAreasFromFeatures,
} from '../src/geometry/surfaces/classify/index.ts';

type Tags = Record<string, string>;

// ---------------------------------------------------------------- the table, case by case

/** [tags, expected kind or null, expected decidedBy (when a kind), expected priority (default: the kind's)] */
const CASES: [Tags, SurfaceKind | null, Tags?, number?][] = [
  // water, in all its taggings
  [{ natural: 'water' }, 'water', { natural: 'water' }],
  [{ natural: 'water', water: 'pond' }, 'water', { natural: 'water', water: 'pond' }],
  [{ water: 'lake' }, 'water', { water: 'lake' }],
  [{ waterway: 'riverbank' }, 'water', { waterway: 'riverbank' }],
  [{ landuse: 'reservoir' }, 'water', { landuse: 'reservoir' }],
  [{ landuse: 'basin', water: 'basin' }, 'water', { landuse: 'basin', water: 'basin' }],
  [{ leisure: 'swimming_pool' }, 'water', { leisure: 'swimming_pool' }],
  [{ amenity: 'fountain', barrier: 'kerb', natural: 'water' }, 'water', { natural: 'water' }],
  [{ amenity: 'fountain' }, 'water', { amenity: 'fountain' }],
  [{ natural: 'water', layer: '-1' }, 'water', { natural: 'water' }], // drawing order under a bridge
  [{ natural: 'coastline', place: 'islet' }, null], // an island, not water
  [{ leisure: 'marina' }, null],
  // green
  [{ landuse: 'grass' }, 'grass', { landuse: 'grass' }],
  [{ landuse: 'meadow' }, 'grass', { landuse: 'meadow' }],
  [{ landuse: 'village_green' }, 'manicuredGrass', { landuse: 'village_green' }],
  [{ landuse: 'recreation_ground' }, 'manicuredGrass', { landuse: 'recreation_ground' }],
  [{ natural: 'grassland' }, 'grass', { natural: 'grassland' }],
  [{ leisure: 'park' }, 'manicuredGrass', { leisure: 'park' }],
  [{ leisure: 'park', surface: 'grass' }, 'manicuredGrass', { leisure: 'park' }], // grass on grass keeps the finer kind
  [{ leisure: 'park', surface: 'paving_stones' }, 'pavement', { leisure: 'park', surface: 'paving_stones' }],
  [{ leisure: 'golf_course' }, 'manicuredGrass', { leisure: 'golf_course' }],
  [{ golf: 'bunker' }, 'sand', { golf: 'bunker' }],
  [{ golf: 'green' }, 'manicuredGrass', { golf: 'green' }],
  [{ leisure: 'garden' }, 'garden', { leisure: 'garden' }],
  [{ landuse: 'allotments' }, 'garden', { landuse: 'allotments' }],
  [{ landuse: 'cemetery' }, 'manicuredGrass', { landuse: 'cemetery' }],
  [{ landuse: 'forest' }, 'forest', { landuse: 'forest' }],
  [{ natural: 'wood' }, 'forest', { natural: 'wood' }],
  [{ natural: 'wood', leisure: 'park' }, 'forest', { natural: 'wood' }], // what the ground is beats what it is for
  [{ natural: 'scrub' }, 'shrubbery', { natural: 'scrub' }],
  [{ natural: 'heath' }, 'shrubbery', { natural: 'heath' }],
  [{ barrier: 'hedge', area: 'yes' }, 'shrubbery', { barrier: 'hedge' }],
  [{ natural: 'wetland' }, 'grass', { natural: 'wetland' }],
  [{ natural: 'wetland', wetland: 'swamp' }, 'forest', { natural: 'wetland', wetland: 'swamp' }],
  [{ natural: 'wetland', wetland: 'tidalflat' }, 'sand', { natural: 'wetland', wetland: 'tidalflat' }],
  [{ landcover: 'trees' }, 'forest', { landcover: 'trees' }],
  // farmland
  [{ landuse: 'farmland' }, 'farmland', { landuse: 'farmland' }],
  [{ landuse: 'orchard' }, 'farmland', { landuse: 'orchard' }],
  [{ landuse: 'vineyard' }, 'farmland', { landuse: 'vineyard' }],
  [{ landuse: 'farmyard' }, 'farmland', { landuse: 'farmyard' }],
  // sand and rock
  [{ natural: 'beach' }, 'sand', { natural: 'beach' }],
  [{ natural: 'beach', surface: 'sand' }, 'sand', { natural: 'beach' }],
  [{ natural: 'beach', surface: 'pebblestone' }, 'rock', { natural: 'beach', surface: 'pebblestone' }],
  [{ natural: 'beach', surface: 'asphalt' }, 'pavement', { natural: 'beach', surface: 'asphalt' }],
  [{ natural: 'sand' }, 'sand', { natural: 'sand' }],
  [{ natural: 'bare_rock' }, 'rock', { natural: 'bare_rock' }],
  [{ natural: 'scree' }, 'rock', { natural: 'scree' }],
  [{ natural: 'shingle' }, 'rock', { natural: 'shingle' }],
  [{ landuse: 'quarry' }, 'rock', { landuse: 'quarry' }],
  [{ natural: 'glacier' }, null],
  // construction
  [{ landuse: 'construction' }, 'construction', { landuse: 'construction' }],
  [{ landuse: 'construction', construction: 'residential' }, 'construction', { landuse: 'construction', construction: 'residential' }],
  [{ landuse: 'brownfield' }, 'construction', { landuse: 'brownfield' }],
  [{ landuse: 'greenfield' }, 'grass', { landuse: 'greenfield' }],
  [{ building: 'construction' }, 'buildingConstruction', { building: 'construction' }],
  [{ building: 'construction', construction: 'apartments' }, 'buildingConstruction', { building: 'construction', construction: 'apartments' }],
  [{ building: 'yes' }, null],
  [{ building: 'yes', landuse: 'grass' }, null],
  [{ building: 'no', landuse: 'grass' }, 'grass', { landuse: 'grass' }],
  // urban land use
  [{ landuse: 'residential' }, 'pavement', { landuse: 'residential' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'commercial' }, 'pavement', { landuse: 'commercial' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'retail' }, 'pavement', { landuse: 'retail' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'industrial' }, 'pavement', { landuse: 'industrial' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'railway' }, 'pavement', { landuse: 'railway' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'residential', barrier: 'fence' }, 'pavement', { landuse: 'residential' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'residential', surface: 'grass' }, 'grass', { landuse: 'residential', surface: 'grass' }, URBAN_LANDUSE_PRIORITY],
  [{ leisure: 'stadium' }, 'pavement', { leisure: 'stadium' }, URBAN_LANDUSE_PRIORITY],
  [{ aeroway: 'heliport' }, 'pavement', { aeroway: 'heliport' }, URBAN_LANDUSE_PRIORITY],
  [{ place: 'square', landuse: 'retail' }, 'pavement', { place: 'square' }],
  // grounds of institutions are land use without a kind
  [{ amenity: 'school' }, null],
  [{ amenity: 'hospital' }, null],
  [{ amenity: 'university' }, null],
  [{ landuse: 'military' }, null],
  // sports
  [{ leisure: 'pitch' }, 'pitch', { leisure: 'pitch' }],
  [{ leisure: 'pitch', sport: 'tennis', surface: 'clay' }, 'pitch', { leisure: 'pitch', sport: 'tennis' }],
  [{ leisure: 'pitch', surface: 'grass' }, 'pitch', { leisure: 'pitch' }],
  [{ leisure: 'pitch', landuse: 'grass' }, 'pitch', { leisure: 'pitch' }],
  [{ leisure: 'track', area: 'yes' }, 'pitch', { leisure: 'track' }],
  [{ leisure: 'playground' }, 'sand', { leisure: 'playground' }],
  [{ leisure: 'playground', surface: 'rubber' }, 'pavement', { leisure: 'playground', surface: 'rubber' }],
  [{ leisure: 'playground', surface: 'grass' }, 'grass', { leisure: 'playground', surface: 'grass' }],
  [{ leisure: 'sports_centre' }, 'pavement', { leisure: 'sports_centre' }, URBAN_LANDUSE_PRIORITY],
  // parking and traffic areas
  [{ amenity: 'parking' }, 'roadwayArea', { amenity: 'parking' }],
  [{ amenity: 'parking', parking: 'surface', surface: 'asphalt' }, 'roadwayArea', { amenity: 'parking', parking: 'surface' }],
  [{ amenity: 'parking', surface: 'grass' }, 'grass', { amenity: 'parking', surface: 'grass' }],
  [{ amenity: 'parking', parking: 'underground' }, null],
  [{ amenity: 'parking', parking: 'rooftop' }, null],
  [{ amenity: 'parking', parking: 'multi-storey' }, 'roadwayArea', { amenity: 'parking', parking: 'multi-storey' }],
  [{ amenity: 'motorcycle_parking' }, 'roadwayArea', { amenity: 'motorcycle_parking' }],
  [{ amenity: 'bicycle_parking' }, 'pavement', { amenity: 'bicycle_parking' }],
  [{ 'area:highway': 'primary' }, 'roadwayArea', { 'area:highway': 'primary' }],
  [{ 'area:highway': 'residential', surface: 'asphalt' }, 'roadwayArea', { 'area:highway': 'residential' }],
  [{ 'area:highway': 'footway' }, 'pavement', { 'area:highway': 'footway' }],
  [{ 'area:highway': 'pedestrian' }, 'pavement', { 'area:highway': 'pedestrian' }],
  [{ 'area:highway': 'traffic_island', surface: 'grass' }, 'grass', { 'area:highway': 'traffic_island', surface: 'grass' }],
  [{ 'area:highway': 'footway', highway: 'service' }, 'pavement', { 'area:highway': 'footway' }],
  [{ highway: 'pedestrian', area: 'yes' }, 'pavement', { highway: 'pedestrian' }],
  [{ highway: 'pedestrian', area: 'yes', surface: 'sett' }, 'pavement', { highway: 'pedestrian' }],
  [{ highway: 'pedestrian', place: 'square' }, 'pavement', { highway: 'pedestrian' }],
  [{ highway: 'footway', area: 'yes' }, 'pavement', { highway: 'footway' }],
  [{ highway: 'service', area: 'yes' }, 'roadwayArea', { highway: 'service' }],
  [{ highway: 'residential', area: 'yes' }, 'roadwayArea', { highway: 'residential' }],
  [{ highway: 'platform', area: 'yes' }, 'pavement', { highway: 'platform' }],
  [{ highway: 'rest_area' }, 'pavement', { highway: 'rest_area' }, URBAN_LANDUSE_PRIORITY],
  [{ highway: 'street_lamp' }, null],
  [{ railway: 'platform' }, 'pavement', { railway: 'platform' }],
  [{ public_transport: 'platform', surface: 'paved', covered: 'yes' }, 'pavement', { public_transport: 'platform' }],
  [{ place: 'square' }, 'pavement', { place: 'square' }],
  [{ place: 'square', surface: 'grass' }, 'grass', { place: 'square', surface: 'grass' }],
  [{ man_made: 'pier', area: 'yes', floating: 'yes' }, 'pavement', { man_made: 'pier' }],
  [{ man_made: 'breakwater' }, 'pavement', { man_made: 'breakwater' }],
  [{ man_made: 'breakwater', surface: 'rock' }, 'rock', { man_made: 'breakwater', surface: 'rock' }],
  [{ amenity: 'marketplace' }, 'pavement', { amenity: 'marketplace' }],
  // aviation
  [{ aeroway: 'helipad' }, 'helipad', { aeroway: 'helipad' }],
  [{ aeroway: 'helipad', surface: 'grass' }, 'helipad', { aeroway: 'helipad' }],
  [{ aeroway: 'apron' }, 'asphalt', { aeroway: 'apron' }],
  [{ aeroway: 'runway', area: 'yes' }, 'asphalt', { aeroway: 'runway' }],
  [{ aeroway: 'aerodrome' }, null],
  // a bare surface
  [{ surface: 'asphalt' }, 'asphalt', { surface: 'asphalt' }],
  [{ area: 'yes', surface: 'paving_stones' }, 'pavement', { surface: 'paving_stones' }],
  [{ surface: 'concrete' }, 'pavement', { surface: 'concrete' }],
  [{ surface: 'gravel' }, 'pavement', { surface: 'gravel' }],
  [{ surface: 'grass' }, 'grass', { surface: 'grass' }],
  [{ surface: 'sand' }, 'sand', { surface: 'sand' }],
  [{ surface: 'dirt' }, null],
  [{ amenity: 'school', surface: 'asphalt' }, 'asphalt', { surface: 'asphalt' }],
  // tolerant reading: lists, capitals, spaces
  [{ landuse: 'grass;meadow' }, 'grass', { landuse: 'grass;meadow' }],
  [{ landuse: 'Forest ' }, 'forest', { landuse: 'Forest ' }],
  [{ landuse: 'no', natural: 'wood' }, 'forest', { natural: 'wood' }],
  [{ water: 'no' }, null],
  [{}, null],
  [{ name: 'Somewhere' }, null],
  // off the ground
  [{ landuse: 'railway', layer: '-2' }, null], // Monaco's underground station
  [{ highway: 'pedestrian', area: 'yes', layer: '-1' }, null],
  [{ highway: 'pedestrian', area: 'yes', layer: '1' }, 'pavement', { highway: 'pedestrian' }],
  [{ highway: 'pedestrian', area: 'yes', tunnel: 'yes' }, null],
  [{ highway: 'pedestrian', area: 'yes', tunnel: 'no' }, 'pavement', { highway: 'pedestrian' }],
  [{ highway: 'footway', area: 'yes', bridge: 'yes' }, null],
  [{ man_made: 'bridge' }, null],
  [{ leisure: 'swimming_pool', location: 'roof' }, null],
  [{ leisure: 'swimming_pool', location: 'outdoor' }, 'water', { leisure: 'swimming_pool' }],
  [{ leisure: 'playground', level: '1' }, 'sand', { leisure: 'playground' }],
  [{ highway: 'footway', area: 'yes', level: '-1' }, null],
  [{ highway: 'footway', area: 'yes', indoor: 'yes' }, null],
  [{ amenity: 'parking', location: 'underground;indoor' }, null],
  [{ waterway: 'riverbank', tunnel: 'culvert' }, null],
  [{ leisure: 'swimming_pool', layer: '-1' }, null],
];

test('the table: tag combinations → kind, priority and the tags that decided it', () => {
  for (const [tags, kind, decidedBy, priority] of CASES) {
    const got = classifySurfaceArea(tags);
    const label = JSON.stringify(tags);
    if (kind === null) {
      assert.equal(got, null, `${label} should have no kind, got ${JSON.stringify(got)}`);
      continue;
    }
    assert.ok(got, `${label} should be ${kind}`);
    assert.equal(got.kind, kind, label);
    assert.deepEqual(got.decidedBy, decidedBy, label);
    assert.equal(got.priority, priority ?? SURFACE_PRIORITY[kind], label);
  }
});

test('every kind but the junction and carriageway kinds (centerline work) can come from some area tag', () => {
  const reachable = new Set(AREA_RULES.flatMap((r) => [r.kind, ...Object.values(r.refine?.kinds ?? {})]).filter((k) => k !== null));
  const missing = SURFACE_KINDS.filter((k) => !reachable.has(k));
  assert.deepEqual(missing, ['roadwayIntersection']);
});

test('not-ground reasons name the deciding tag', () => {
  assert.equal(notGroundReason({ landuse: 'railway', layer: '-2' }), 'layer=-2');
  assert.equal(notGroundReason({ amenity: 'parking', parking: 'underground' }), 'parking=underground');
  assert.equal(notGroundReason({ leisure: 'swimming_pool', location: 'roof' }), 'location=roof');
  assert.equal(notGroundReason({ highway: 'footway', area: 'yes', tunnel: 'building_passage' }), 'tunnel=building_passage');
  assert.equal(notGroundReason({ natural: 'water', layer: '-1' }), null);
  assert.equal(notGroundReason({ landuse: 'grass', layer: '1' }), null);
  assert.equal(notGroundReason({ landuse: 'grass', layer: 'x' }), null, 'a non-numeric layer says nothing');
});

test('surface=* values reduce to materials; unknown and absent values to null', () => {
  assert.equal(parseSurfaceMaterial('asphalt'), 'asphalt');
  assert.equal(parseSurfaceMaterial('paving_stones'), 'paved');
  assert.equal(parseSurfaceMaterial(' Sett '), 'paved');
  assert.equal(parseSurfaceMaterial('fine_gravel'), 'gravel');
  assert.equal(parseSurfaceMaterial('pebblestone'), 'rock');
  assert.equal(parseSurfaceMaterial('artificial_turf'), 'grass');
  assert.equal(parseSurfaceMaterial('woodchips'), 'earth');
  assert.equal(parseSurfaceMaterial('unknown_stuff;grass'), 'grass');
  assert.equal(parseSurfaceMaterial('lava'), null);
  assert.equal(parseSurfaceMaterial(undefined), null);
});

test('the doc comment in rules.ts carries the current table', () => {
  const source = readFileSync(join(REPO_ROOT, 'src/geometry/surfaces/classify/rules.ts'), 'utf8');
  const block = /<!-- surface-area-table:start -->\n([\s\S]*?)\n \* <!-- surface-area-table:end -->/.exec(source);
  assert.ok(block, 'table markers in rules.ts');
  const documented = block[1].split('\n').map((l) => l.replace(/^ \* /, '')).join('\n');
  assert.equal(documented, surfaceAreaTableMarkdown(), 'regenerate the doc table with surfaceAreaTableMarkdown()');
});

// ---------------------------------------------------------------- properties

const PLACEMENT_KEYS = ['layer', 'tunnel', 'bridge', 'location', 'parking', 'level', 'indoor', 'covered', 'area', 'man_made', 'name'];
const KEYS = [...new Set([...AREA_RULE_KEYS, ...PLACEMENT_KEYS])];
const RULE_VALUES = [...new Set(AREA_RULES.flatMap((r) => (r.values === '*' ? [] : [...r.values])))];
const VALUE = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...RULE_VALUES) },
  { weight: 2, arbitrary: fc.constantFrom('yes', 'no', '-1', '-2', '1', '0', 'underground', 'roof', 'surface', 'underground;indoor', '-1;0', 'coastline', 'construction') },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...RULE_VALUES), fc.constantFrom(...RULE_VALUES)).map(([a, b]) => `${a};${b}`) },
  { weight: 1, arbitrary: fc.constantFrom(...RULE_VALUES).map((v) => ` ${v.toUpperCase()} `) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const KEY = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });
const TAGS = fc.dictionary(KEY, VALUE, { maxKeys: 6 });

test('property: any tags give no kind, or a valid kind with a priority from the table', () => {
  fc.assert(fc.property(TAGS, (tags) => {
    const got = classifySurfaceArea(tags);
    if (got === null) return;
    assert.ok((SURFACE_KINDS as readonly string[]).includes(got.kind), got.kind);
    assert.ok(got.priority === SURFACE_PRIORITY[got.kind] || got.priority === URBAN_LANDUSE_PRIORITY, `${got.kind} at ${got.priority}`);
  }), { numRuns: 5000 });
});

test('property: every decidedBy entry is a tag of the area, as tagged; there is always at least one', () => {
  fc.assert(fc.property(TAGS, (tags) => {
    const got = classifySurfaceArea(tags);
    if (got === null) return;
    const entries = Object.entries(got.decidedBy);
    assert.ok(entries.length > 0);
    for (const [k, v] of entries) {
      assert.ok(Object.prototype.hasOwnProperty.call(tags, k), `${k} is not a tag of ${JSON.stringify(tags)}`);
      assert.equal(tags[k], v);
    }
  }), { numRuns: 5000 });
});

test('property: the answer does not depend on tag order; tunnels and negative layers are never ground', () => {
  fc.assert(fc.property(TAGS, (tags) => {
    const reversed = Object.fromEntries(Object.entries(tags).reverse());
    assert.deepEqual(classifySurfaceArea(reversed), classifySurfaceArea(tags));
    assert.equal(classifySurfaceArea({ ...tags, tunnel: 'yes' }), null);
    assert.equal(classifySurfaceArea({ ...tags, location: 'underground' }), null);
    const buried = { ...tags, layer: '-1' };
    if (notGroundReason(buried) !== null) assert.equal(classifySurfaceArea(buried), null);
  }), { numRuns: 2000 });
});

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
    const [a, b] = FRAME.toLonLat(0, 0), [c, d] = FRAME.toLonLat(20, 20), [e, f] = FRAME.toLonLat(20, 0), [g, h] = FRAME.toLonLat(0, 20);
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
  assert.deepEqual(areas.map((a) => a.descriptor.id), ['way/1', 'relation/2', 'way/3', 'way/5', 'way/12']);
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
  const rows = Object.keys(count).sort((a, b) => count[b as SurfaceKind]! - count[a as SurfaceKind]!)
    .map((k) => `  ${k.padEnd(22)} ${String(count[k as SurfaceKind]).padStart(4)} areas ${Math.round(m2[k as SurfaceKind]!).toString().padStart(9)} m²`);
  console.log(`Monaco: ${areas.length} ground areas from ${features.length} features of ${SURFACE_AREA_LAYERS.join(', ')} in ${ms.toFixed(0)} ms\n${rows.join('\n')}`);

  for (const kind of ['water', 'pavement', 'pitch', 'helipad', 'roadwayArea', 'garden', 'forest', 'sand', 'rock', 'construction', 'buildingConstruction'] as const) {
    assert.ok((count[kind] ?? 0) > 0, `Monaco has ${kind}`);
  }
  assert.ok((count.grass ?? 0) + (count.manicuredGrass ?? 0) > 0, 'Monaco has grass');
  for (const a of areas) assertValidArea(a);

  const byId = new Map(areas.map((a) => [String(a.descriptor.id), a]));
  assert.equal(byId.get('way/177049634')?.kind, 'helipad', 'Héliport de Monaco pad');
  assert.equal(byId.get('relation/2254506')?.kind, 'sand', 'Plage Larvotto');
  assert.deepEqual(byId.get('way/585654719')?.descriptor, { type: 'pavement', id: 'way/585654719', natural: 'beach', surface: 'asphalt', name: 'Plage du Solarium' });
  assert.equal(byId.get('relation/2220209')?.kind, 'rock', 'the pebble cove');
  assert.equal(byId.get('way/572935479')?.kind, 'water', 'Fontaine du Casino (filed under barrier)');
  for (const id of ['way/946562617', 'way/946562618', 'way/946562648']) assert.equal(byId.get(id), undefined, `${id}: the underground station is not ground`);
  assert.equal(byId.get('way/437651792'), undefined, 'a rooftop pool is not ground');
  assert.equal(byId.get('way/946562616'), undefined, 'a bridge outline is not ground');
  const buildings = areas.filter((a) => features.find((f) => f.id === a.descriptor.id)?.layer === 'building');
  assert.ok(buildings.every((a) => a.kind === 'buildingConstruction'), 'from the building layer only building sites');
});
