/**
 * One small synthetic file per format branch, imported for real: every corner of the boxes is
 * known, so the stored geometry is checked against the input converted by PROJ's cs2cs.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importPremiumDataset } from '../../../../src/sources/premium/import.ts';
import { buildingsInBox, coverageInBox, openPremiumStore, type PremiumBuilding } from '../../../../src/sources/premium/store.ts';
import { SURFACE_CLASSES } from '../../../../src/sources/premium/source-model.ts';
import {
  boxSurfaces,
  CITYGML2_CLOSE,
  CITYGML2_OPEN,
  cityJsonSolid,
  gmlLod1Building,
  gmlPolygon,
  gmlSolidBuilding,
  type Point3,
} from '../../../support/generators/premium-files.ts';
import { cs2csToLonLat, metresBetween } from '../../../support/premium-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'premium-formats-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function importText(name: string, text: string, info: { crs?: string; axisOrder?: 'east-north' | 'north-east' } = {}) {
  const path = join(dir, name);
  writeFileSync(path, text);
  const store = join(dir, `store-${++n}.sqlite`);
  const report = await importPremiumDataset(store, path, { id: 'synthetic', country: 'NL', ...info });
  const db = openPremiumStore(store, { readonly: true });
  const buildings = buildingsInBox(db, [-180, -90, 180, 90]);
  db.close();
  return { report, buildings, byId: new Map(buildings.map((b) => [b.id, b])) };
}

/** Every stored point of a building is within 1 mm of one of `expected` (lon/lat). */
function assertCornersMatch(building: PremiumBuilding, expected: [number, number][]): void {
  for (const s of building.surfaces) {
    for (const ring of s.rings) {
      for (let i = 0; i < ring.length; i += 3) {
        const best = Math.min(...expected.map((e) => metresBetween([ring[i], ring[i + 1]], e)));
        assert.ok(best <= 0.001, `${building.id}: a stored corner is ${best} m from every input corner`);
      }
    }
  }
}

const classCounts = (b: PremiumBuilding) => {
  const out: Record<string, number> = {};
  for (const s of b.surfaces) out[SURFACE_CLASSES[s.cls]] = (out[SURFACE_CLASSES[s.cls]] ?? 0) + 1;
  return out;
};

test('CityJSON 2.0: integer vertices with a transform that comes after CityObjects and vertices, parts under parts, LoD choice', async () => {
  const translate: Point3 = [85000, 446000, 0];
  const vertices: number[][] = [];
  const partA = boxSurfaces(85010, 446010, 10, 8, -1.5, 12);
  const partB = boxSurfaces(85020, 446010, 6, 8, -1.5, 7);
  const lod1 = boxSurfaces(85050, 446050, 5, 5, 0, 9);
  const objects = {
    'part-b': { type: 'BuildingPart', parents: ['part-a'], geometry: [cityJsonSolid(partB, vertices, translate)] },
    main: { type: 'Building', attributes: { roofType: '1000', measuredHeight: 12 }, children: ['part-a'] },
    'part-a': {
      type: 'BuildingPart',
      parents: ['main'],
      children: ['part-b'],
      geometry: [cityJsonSolid(boxSurfaces(85010, 446010, 10, 8, -1.5, 11), vertices, translate, '1'), cityJsonSolid(partA, vertices, translate, '2.2')],
    },
    block: { type: 'Building', geometry: [cityJsonSolid(lod1, vertices, translate, '1.2')] },
    bench: { type: 'CityFurniture' },
    // a type written after the geometry is still recognised (and the object dropped then)
    terrain: { geometry: [{ type: 'MultiSurface', lod: '1', boundaries: [[[0, 1, 2]]] }], type: 'TINRelief' },
    empty: { type: 'Building', attributes: { note: 'no geometry' } },
  };
  const text = JSON.stringify({
    type: 'CityJSON',
    version: '2.0',
    CityObjects: objects,
    vertices,
    metadata: { referenceSystem: 'https://www.opengis.net/def/crs/EPSG/0/7415' },
    transform: { scale: [0.001, 0.001, 0.001], translate },
  });
  const { report, byId } = await importText('model.city.json', text);
  assert.equal(report.files[0].crs, 'EPSG:28992', 'the horizontal part of the compound RD New + NAP');
  assert.equal(report.files[0].format, 'CityJSON 2.0');
  assert.deepEqual([report.buildings, report.parts], [2, 3]);
  assert.deepEqual(report.byLod, { lod0: 0, lod1: 1, lod2: 1 });
  assert.deepEqual(report.ignoredTypes, { CityFurniture: 1, TINRelief: 1 });
  assert.equal(report.skipped.count, 1);
  assert.equal(report.skipped.examples[0].id, 'empty');
  assert.match(report.skipped.examples[0].reason, /no usable geometry/);
  const main = byId.get('main')!;
  // parts in file order, whatever their nesting
  assert.deepEqual(
    main.parts.map((p) => [p.id, p.lod]),
    [
      ['part-b', 2],
      ['part-a', 2],
    ],
  );
  assert.deepEqual([main.roofType, main.measuredHeight, main.lod], ['1000', 12, 2]);
  assert.deepEqual(classCounts(main), { GroundSurface: 2, RoofSurface: 2, WallSurface: 8 });
  assert.deepEqual([main.minZ, main.maxZ], [-1.5, 10.5]);
  assert.equal(byId.get('block')!.lod, 1);
  const corners = [...partA, ...partB].flatMap((s) => s.ring.map((p): [number, number] => [p[0], p[1]]));
  assertCornersMatch(main, cs2csToLonLat('EPSG:28992', corners));
  // the footprint of the two touching parts is one 16 × 8 m outline
  assert.equal(main.footprint.length, 1);
});

test('CityJSONSeq: a header line, then one feature per line with its own vertices', async () => {
  const translate: Point3 = [2600000, 1200000, 400];
  const feature = (id: string, boxes: ReturnType<typeof boxSurfaces>[]) => {
    const vertices: number[][] = [];
    const CityObjects: Record<string, unknown> = { [id]: { type: 'Building', children: boxes.map((_, i) => `${id}-${i}`) } };
    boxes.forEach((b, i) => {
      CityObjects[`${id}-${i}`] = { type: 'BuildingPart', parents: [id], geometry: [cityJsonSolid(b, vertices, translate)] };
    });
    return JSON.stringify({ type: 'CityJSONFeature', id, CityObjects, vertices });
  };
  const boxes = [boxSurfaces(2600010, 1200010, 10, 10, 410, 8), boxSurfaces(2600030, 1200010, 5, 5, 410, 20), boxSurfaces(2600040, 1200010, 5, 5, 410, 5)];
  const header = JSON.stringify({
    type: 'CityJSON',
    version: '2.0',
    transform: { scale: [0.001, 0.001, 0.001], translate },
    metadata: { referenceSystem: 'https://www.opengis.net/def/crs/EPSG/0/2056' },
    CityObjects: {},
    vertices: [],
  });
  const text = [`\uFEFF${header}`, feature('one', [boxes[0]]), '', feature('two', [boxes[1], boxes[2]])].join('\n');
  const { report, byId } = await importText('tiles.city.jsonl', text);
  assert.equal(report.files[0].format, 'CityJSONSeq 2.0');
  assert.deepEqual([report.buildings, report.parts], [2, 3]);
  assert.deepEqual(
    byId.get('two')!.parts.map((p) => p.id),
    ['two-0', 'two-1'],
  );
  assert.deepEqual([byId.get('two')!.minZ, byId.get('two')!.maxZ], [410, 430]);
  assertCornersMatch(
    byId.get('two')!,
    cs2csToLonLat(
      'EPSG:2056',
      boxes.flat().flatMap((s) => s.ring.map((p): [number, number] => [p[0], p[1]])),
    ),
  );
});

const ADV_ENVELOPE = '<gml:boundedBy><gml:Envelope srsName="urn:adv:crs:ETRS89_UTM32*DE_DHHN92_NH" srsDimension="3"/></gml:boundedBy>';

test('CityGML 2.0: lod2Solid made of xlink:href references, within the building and to a later one; AdV URN', async () => {
  const boxes = boxSurfaces(565000, 5933000, 12, 9, 8.25, 10);
  const other = boxSurfaces(565040, 5933000, 5, 5, 8, 6);
  const third = boxSurfaces(565080, 5933000, 5, 5, 8, 4);
  // b2's solid also points at b3's roof (defined further on in the file) and at an id found nowhere
  const extra = '<gml:surfaceMember xlink:href="#b3-p1"/><gml:surfaceMember xlink:href="#nowhere"/>';
  const b2 = gmlSolidBuilding('b2', other).replace('</gml:CompositeSurface>', `${extra}</gml:CompositeSurface>`);
  const text = [
    CITYGML2_OPEN,
    ADV_ENVELOPE,
    gmlSolidBuilding('b1', boxes, { roofType: '3100', measuredHeight: 10 }),
    b2,
    gmlSolidBuilding('b3', third),
    CITYGML2_CLOSE,
  ].join('\n');
  const { report, byId } = await importText('city.gml', text);
  assert.equal(report.files[0].crs, 'EPSG:25832');
  assert.equal(report.files[0].format, 'CityGML 2.0');
  assert.equal(report.buildings, 3);
  assert.deepEqual(classCounts(byId.get('b2')!), { GroundSurface: 1, RoofSurface: 2, WallSurface: 4 }, "b3's roof found by the second pass");
  const flatAt12 = byId.get('b2')!.surfaces.filter((sf) => sf.rings[0].every((v, i) => i % 3 !== 2 || v === 12));
  assert.equal(flatAt12.length, 1, "b3's roof, 12 m up, is in b2");
  const b1 = byId.get('b1')!;
  assert.deepEqual(classCounts(b1), { GroundSurface: 1, RoofSurface: 1, WallSurface: 4 }, 'each referenced polygon once');
  assert.deepEqual([b1.roofType, b1.measuredHeight, b1.name, b1.lod], ['3100', 10, 'b1 name', 2]);
  assert.deepEqual([b1.minZ, b1.maxZ], [8.25, 18.25]);
  assertCornersMatch(
    b1,
    cs2csToLonLat(
      'EPSG:25832',
      boxes.flatMap((s) => s.ring.map((p): [number, number] => [p[0], p[1]])),
    ),
  );
  assert.equal(report.notes.count, 1);
  assert.deepEqual(
    [report.notes.examples[0].id, report.notes.examples[0].reason],
    ['b2', '1 xlink:href reference(s) to geometry found nowhere in the file left out (#nowhere)'],
  );
});

test('latitude-first CRS (EPSG:6697, as in PLATEAU) and an explicit axis-order override', async () => {
  const [lat0, lon0] = [35.6812, 139.7671];
  const d = 1e-4;
  const boxes = boxSurfaces(lat0, lon0, d, d, 3, 15); // x = latitude, y = longitude
  const latLonFile = [
    CITYGML2_OPEN,
    '<gml:boundedBy><gml:Envelope srsName="http://www.opengis.net/def/crs/EPSG/0/6697" srsDimension="3"/></gml:boundedBy>',
    gmlSolidBuilding('tokyo', boxes),
    CITYGML2_CLOSE,
  ].join('\n');
  const { buildings } = await importText('plateau.gml', latLonFile);
  const ring = buildings[0].surfaces[0].rings[0];
  const [lat, lon] = boxes[0].ring[0];
  assert.ok(Math.abs(ring[0] - lon) < 1e-9 && Math.abs(ring[1] - lat) < 1e-9, `first axis is latitude: got ${ring[0]}, ${ring[1]}`);
  // the same file written lon, lat: the override puts it right
  const lonLatFile = latLonFile.replace(/<gml:posList srsDimension="3">([^<]+)</g, (_, list: string) => {
    const v = list.trim().split(' ').map(Number);
    const out: number[] = [];
    for (let i = 0; i < v.length; i += 3) out.push(v[i + 1], v[i], v[i + 2]);
    return `<gml:posList srsDimension="3">${out.join(' ')}<`;
  });
  const swapped = await importText('plateau-lonlat.gml', lonLatFile, { axisOrder: 'east-north' });
  assert.deepEqual(
    swapped.buildings[0].surfaces[0].rings[0].slice(0, 2).map((v) => v.toFixed(7)),
    [ring[0].toFixed(7), ring[1].toFixed(7)],
  );
});

test('LoD1-only CityGML and an LoD0 footprint with measuredHeight keep the LoD they have', async () => {
  const lod0 = `<core:cityObjectMember><bldg:Building gml:id="flat"><bldg:measuredHeight uom="m">7.5</bldg:measuredHeight><bldg:lod0FootPrint><gml:MultiSurface><gml:surfaceMember>${gmlPolygon(
    boxSurfaces(390010, 5819010, 8, 8, 30, 0)[0].ring,
  )}</gml:surfaceMember></gml:MultiSurface></bldg:lod0FootPrint></bldg:Building></core:cityObjectMember>`;
  const noHeight = lod0.replace('gml:id="flat"', 'gml:id="flat-no-height"').replace(/<bldg:measuredHeight[^/]*\/bldg:measuredHeight>/, '');
  const text = [
    CITYGML2_OPEN,
    '<gml:boundedBy><gml:Envelope srsName="EPSG:25833"/></gml:boundedBy>',
    gmlLod1Building('block', boxSurfaces(390000, 5819000, 6, 6, 30, 9)),
    lod0,
    noHeight,
    CITYGML2_CLOSE,
  ].join('\n');
  const { report, byId } = await importText('lods.gml', text);
  assert.deepEqual(report.byLod, { lod0: 1, lod1: 1, lod2: 0 });
  assert.equal(byId.get('block')!.lod, 1);
  assert.deepEqual(classCounts(byId.get('block')!), { unknown: 6 });
  assert.deepEqual([byId.get('flat')!.lod, byId.get('flat')!.measuredHeight], [0, 7.5]);
  assert.deepEqual(classCounts(byId.get('flat')!), { GroundSurface: 1 });
  assert.equal(report.skipped.count, 1);
  assert.match(report.skipped.examples[0].reason, /LoD0 footprint and no measuredHeight/);
});

test('CityJSON 1.0: real-valued vertices without transform, CompositeSolid and MultiSurface with null semantic values', async () => {
  const a = boxSurfaces(2600000.25, 1200000.5, 4, 4, 400, 6);
  const b = boxSurfaces(2600004.25, 1200000.5, 4, 4, 400, 3);
  const vertices: number[][] = [];
  const index = (p: Point3) => {
    vertices.push([...p]);
    return vertices.length - 1;
  };
  const types = ['GroundSurface', 'RoofSurface', 'WallSurface'] as const;
  const solid = (boxes: typeof a) => [boxes.map((s) => [s.ring.map(index)])];
  const composite = {
    type: 'CompositeSolid',
    lod: 2,
    boundaries: [solid(a), solid(b)],
    semantics: { surfaces: types.map((type) => ({ type })), values: [[a.map((s) => types.indexOf(s.type))], [b.map(() => null)]] },
  };
  const multi = {
    type: 'MultiSurface',
    lod: 2,
    boundaries: a.map((s) => [s.ring.map(index)]),
    semantics: { surfaces: [{ type: 'RoofSurface' }], values: a.map((s) => (s.type === 'RoofSurface' ? 0 : null)) },
  };
  const text = JSON.stringify({
    type: 'CityJSON',
    version: '1.0',
    metadata: { referenceSystem: 'urn:ogc:def:crs:EPSG::2056' },
    CityObjects: { pair: { type: 'Building', geometry: [composite] }, single: { type: 'Building', geometry: [multi] } },
    vertices,
  });
  const { report, byId } = await importText('old.json', `\uFEFF${text}`); // with a byte order mark, as Windows tools write
  assert.equal(report.files[0].format, 'CityJSON 1.0');
  assert.deepEqual(classCounts(byId.get('pair')!), { GroundSurface: 1, RoofSurface: 1, WallSurface: 4, unknown: 6 });
  assert.deepEqual(classCounts(byId.get('single')!), { RoofSurface: 1, unknown: 5 });
  assert.deepEqual([byId.get('pair')!.minZ, byId.get('pair')!.maxZ], [400, 406]);
  assertCornersMatch(
    byId.get('pair')!,
    cs2csToLonLat(
      'EPSG:2056',
      [...a, ...b].flatMap((s) => s.ring.map((p): [number, number] => [p[0], p[1]])),
    ),
  );
});

test('a dataset spanning a country keeps a coverage around each of its far-apart buildings', async () => {
  const d = 1e-4;
  const west = boxSurfaces(47.5, 6.1, d, d, 300, 10); // x = latitude, y = longitude (EPSG:4326 order)
  const east = boxSurfaces(54.1, 14.9, d, d, 5, 10);
  const text = [
    CITYGML2_OPEN,
    '<gml:boundedBy><gml:Envelope srsName="EPSG:4326"/></gml:boundedBy>',
    gmlSolidBuilding('west', west),
    gmlSolidBuilding('east', east),
    CITYGML2_CLOSE,
  ].join('\n');
  const path = join(dir, 'country.gml');
  writeFileSync(path, text);
  const store = join(dir, 'country.sqlite');
  await importPremiumDataset(store, path, { id: 'country', country: 'DE' });
  const db = openPremiumStore(store, { readonly: true });
  const coverage = coverageInBox(db).map((c) => c.polygon);
  assert.equal(coverageInBox(db, [14.8, 54, 15, 54.2]).length, 1, 'the box query finds only the polygon near it');
  db.close();
  assert.equal(coverage.length, 2);
  const centres = coverage.map((p) =>
    [p[0].filter((_, i) => i % 2 === 0), p[0].filter((_, i) => i % 2 === 1)].map((v) => v.reduce((a, b) => a + b) / v.length),
  );
  assert.deepEqual(centres.map(([lon, lat]) => [lon.toFixed(3), lat.toFixed(3)]).sort(), [
    ['14.900', '54.100'],
    ['6.100', '47.500'],
  ]);
});

test('CityGML rings written point by point with gml:pos (three values each when nothing says otherwise)', async () => {
  const boxes = boxSurfaces(390100, 5819100, 7, 5, 33.5, 12);
  const withPos = gmlSolidBuilding('pos', boxes).replace(/<gml:posList srsDimension="3">([^<]+)<\/gml:posList>/g, (_, list: string) => {
    const v = list.trim().split(' ');
    let out = '';
    for (let i = 0; i < v.length; i += 3) out += `<gml:pos>${v[i]} ${v[i + 1]} ${v[i + 2]}</gml:pos>`;
    return out;
  });
  const text = [CITYGML2_OPEN, '<gml:boundedBy><gml:Envelope srsName="EPSG:25833" srsDimension="3"/></gml:boundedBy>', withPos, CITYGML2_CLOSE].join('\n');
  assert.ok(!text.includes('posList'));
  const { byId } = await importText('pos.gml', text);
  const b = byId.get('pos')!;
  assert.deepEqual(classCounts(b), { GroundSurface: 1, RoofSurface: 1, WallSurface: 4 });
  assert.deepEqual([b.minZ, b.maxZ], [33.5, 45.5]);
  assert.ok(
    b.surfaces.every((s) => s.rings[0].length === 12),
    'four corners a ring, the closing point dropped',
  );
  assertCornersMatch(
    b,
    cs2csToLonLat(
      'EPSG:25833',
      boxes.flatMap((s) => s.ring.map((p): [number, number] => [p[0], p[1]])),
    ),
  );
});
