/**
 * Rhino 3dm writer, judged by reading the file back with `File3dm.fromByteArray` (OpenNURBS):
 * layers per group and kind, one object per feature with the descriptor as user strings (nodes as
 * block instances: ./rhino3dm-instances.test.ts), triangle counts, document units, the
 * EarthAnchorPoint, and the known building corner to 1 mm in every placement × CRS × units
 * combination.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import rhino3dm, { type File3dm, type File3dmObject, type RhinoModule } from 'rhino3dm';
import { writeRhino3dm } from '../../../../src/export/formats/rhino3dm.ts';
import { modelNorthEast } from '../../../../src/export/formats/rhino3dm-georef.ts';
import { kindColour } from '../../../../src/export/formats/palette.ts';
import { free } from '../../../support/checks/rhino3dm-free.ts';
import { METRES_PER_UNIT, type ExportScene, type ExportUnits } from '../../../../src/export/scene.ts';
import { anchoredUtm, sampleScene, SAMPLE_CORNER, SAMPLE_TRIANGLES } from '../../../support/scenes/export-scenes.ts';

let rh: RhinoModule;
before(async () => {
  rh = await rhino3dm();
});

async function read(scene: ExportScene): Promise<File3dm> {
  const file = await writeRhino3dm(scene);
  assert.equal(file.extension, '3dm');
  const doc = rh.File3dm.fromByteArray(file.bytes);
  assert.ok(doc, 'OpenNURBS reads the file');
  assert.equal(doc.archiveVersion, 70, 'a Rhino 7 file');
  return doc;
}

function objects(doc: File3dm): { o: File3dmObject; layer: string; type: string; name: string; strings: Record<string, string> }[] {
  const out = [];
  for (let i = 0; i < doc.objects().count; i++) {
    const o = doc.objects().get(i),
      a = o.attributes();
    out.push({
      o,
      layer: doc.layers().get(a.layerIndex).fullPath,
      type: o.geometry().constructor.name,
      name: a.isInstanceDefinitionObject ? `${a.name} (definition)` : a.name,
      strings: Object.fromEntries(a.getUserStrings() as unknown as [string, string][]),
    });
  }
  return out;
}

test('one layer per group and kind, one object per feature with its descriptor as user strings', async () => {
  const doc = await read(sampleScene());
  const paths = Array.from({ length: doc.layers().count }, (_, i) => doc.layers().get(i).fullPath).sort();
  assert.deepEqual(paths, [
    'buildings',
    'buildings::building',
    'instances',
    'instances::bench',
    'instances::tree',
    'surface',
    'surface::asphalt',
    'surfaceLines',
    'surfaceLines::asphalt',
    'topography',
    'topography::terrain',
  ]);
  const objs = objects(doc);
  assert.deepEqual(
    objs.map((o) => `${o.layer}|${o.type}|${o.name}`),
    [
      'buildings::building|Mesh|way/1',
      'surface::asphalt|Mesh|way/2',
      'topography::terrain|Mesh|terrain/0',
      'surfaceLines::asphalt|PolylineCurve|way/2',
      // each node a block instance, its model's mesh (the block's geometry) written before its first use
      'instances|Mesh|tree-broadleaf (definition)',
      'instances::tree|InstanceReference|node/3',
      'instances|Mesh|bench (definition)',
      'instances::bench|InstanceReference|node/4',
    ],
  );
  assert.deepEqual(objs[0].strings, { type: 'building', id: 'way/1', buildingHeight: '15', roofType: 'flat' });
  assert.deepEqual(objs[5].strings, { type: 'tree', id: 'node/3', height: '12', crownDiameter: '6', rotation: '0.5', scale: '1.2' });
  assert.equal(objs[3].strings.kind, 'centerline');

  const triangles = (o: File3dmObject) => (o.geometry() as any).faces().triangleCount as number;
  assert.equal(triangles(objs[0].o), SAMPLE_TRIANGLES.buildings);
  assert.equal(triangles(objs[1].o), SAMPLE_TRIANGLES.surface);
  assert.equal(triangles(objs[2].o), SAMPLE_TRIANGLES.topography);
  assert.equal((objs[3].o.geometry() as any).pointCount, 3);
  // The building keeps its data colour on the object; the rest take their layer's, the kind's palette colour.
  assert.deepEqual(objs[0].o.attributes().objectColor, { r: 204, g: 199, b: 189, a: 255 });
  const asphalt = doc.layers().get(objs[1].o.attributes().layerIndex);
  assert.deepEqual(asphalt.color, {
    r: Math.round(kindColour('asphalt')[0] * 255),
    g: Math.round(kindColour('asphalt')[1] * 255),
    b: Math.round(kindColour('asphalt')[2] * 255),
    a: 255,
  });
});

test('georeference travels as document user text too', async () => {
  const doc = await read(anchoredUtm('ft'));
  const text = Object.fromEntries(Array.from({ length: doc.strings().count }, (_, i) => doc.strings().get(i) as unknown as [string, string]));
  assert.equal(text['CityContext.crs'], 'EPSG:32632');
  assert.equal(text['CityContext.placement'], 'anchor');
  assert.match(text['CityContext.proj4'], /\+proj=utm \+zone=32/);
  assert.match(text['CityContext.attribution'], /OpenStreetMap/);
});

const UNIT_NAME: Record<ExportUnits, string> = { m: 'Meters', mm: 'Millimeters', ft: 'Feet', in: 'Inches' };

for (const placement of ['anchor', 'absolute'] as const) {
  for (const crs of ['local', 'utm'] as const) {
    if (placement === 'absolute' && crs === 'local') continue; // absolute always names a projected CRS
    for (const units of ['m', 'mm', 'ft', 'in'] as const) {
      test(`units, EarthAnchorPoint and the known corner to 1 mm: ${placement} × ${crs} × ${units}`, async () => {
        const scene = crs === 'utm' && placement === 'anchor' ? anchoredUtm(units) : sampleScene({ units, placement });
        const doc = await read(scene);
        const settings = doc.settings();
        assert.equal(settings.modelUnitSystem, rh.UnitSystem[UNIT_NAME[units] as keyof typeof rh.UnitSystem]);

        const k = METRES_PER_UNIT[units],
          g = scene.georef;
        const anchor = settings.earthAnchorPoint;
        assert.ok(anchor.earthLocationIsSet());
        assert.equal(anchor.earthBasepointLatitude, g.origin.lat);
        assert.equal(anchor.earthBasepointLongitude, g.origin.lon);
        const base = anchor.modelBasePoint;
        const { north, east } = modelNorthEast(g.gridConvergence);
        anchor.modelNorth.forEach((v, i) => assert.ok(Math.abs(v - north[i]) < 1e-12));
        anchor.modelEast.forEach((v, i) => assert.ok(Math.abs(v - east[i]) < 1e-12));

        // The building's first vertex in double precision, taken to grid metres: the anchor's
        // model base point is the origin, which lies at originGrid.
        const building = objects(doc).find((o) => o.name === 'way/1')!;
        const [x, y, z] = (building.o.geometry() as any).vertices().point3dAt(0) as number[];
        const e = (x - base[0] + g.originGrid[0]) * k,
          n = (y - base[1] + g.originGrid[1]) * k;
        const grid = crs === 'utm' ? [370_000, 4_843_000] : [0, 0];
        assert.ok(Math.abs(e - (SAMPLE_CORNER[0] + grid[0])) < 1e-3, `easting ${e}`);
        assert.ok(Math.abs(n - (SAMPLE_CORNER[1] + grid[1])) < 1e-3, `northing ${n}`);
        assert.ok(Math.abs(z * k - SAMPLE_CORNER[2]) < 1e-3);
      });
    }
  }
}

test('free() releases table wrappers through embind even though their own delete(id) shadows it', () => {
  const doc = new rh.File3dm(),
    objects = doc.objects();
  objects.addPoint([1, 2, 3], new rh.ObjectAttributes());
  free(objects);
  assert.equal((objects as any).isDeleted(), true);
  assert.equal(doc.objects().count, 1, 'the document keeps its objects');
  free(doc);
});
