/**
 * classifySurfaceArea, case by case: the table of tag combinations → kind, priority and the tags
 * that decided it; reachability of every kind; not-ground reasons; surface=* materials; the doc
 * table in rules.ts. Properties over random tags are in test/unit/geometry/surfaces/classify/classify-properties.test.ts,
 * OSM features → areas (and all of Monaco) in test/unit/geometry/surfaces/classify/from-features.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../../../src/config.ts';
import { SURFACE_KINDS, type SurfaceKind } from '../../../../../src/geometry/surfaces/types.ts';
import { SURFACE_PRIORITY, URBAN_LANDUSE_PRIORITY } from '../../../../../src/geometry/surfaces/priority.ts';
import {
  AREA_RULES,
  classifySurfaceArea,
  notGroundReason,
  parseSurfaceMaterial,
  surfaceAreaTableMarkdown,
} from '../../../../../src/geometry/surfaces/classify/index.ts';

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
  // a residential district holds gardens as well as yards: not ground, the filler decides there
  [{ landuse: 'residential' }, null],
  [{ landuse: 'commercial' }, 'pavement', { landuse: 'commercial' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'retail' }, 'pavement', { landuse: 'retail' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'industrial' }, 'pavement', { landuse: 'industrial' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'railway' }, 'pavement', { landuse: 'railway' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'commercial', barrier: 'fence' }, 'pavement', { landuse: 'commercial' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'commercial', surface: 'grass' }, 'grass', { landuse: 'commercial', surface: 'grass' }, URBAN_LANDUSE_PRIORITY],
  [{ landuse: 'residential', surface: 'grass' }, 'grass', { surface: 'grass' }],
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
  const documented = block[1]
    .split('\n')
    .map((l) => l.replace(/^ \* /, ''))
    .join('\n');
  assert.equal(documented, surfaceAreaTableMarkdown(), 'regenerate the doc table with surfaceAreaTableMarkdown()');
});
