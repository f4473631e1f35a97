import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeDxf } from '../../../../src/export/formats/dxf.ts';
import { METRES_PER_UNIT, type ExportUnits } from '../../../../src/export/scene.ts';
import { assimpMeshes, hasPoint, PYTHON, run, sampleCorner, sampleTriangles, writeTemp } from '../../../support/checks/export-readers.ts';
import { sampleScene } from '../../../support/scenes/export-scenes.ts';

const UNITS: ExportUnits[] = ['m', 'mm', 'ft', 'in'];
const INSUNITS: Record<ExportUnits, number> = { in: 1, ft: 2, mm: 4, m: 6 };
const READER = new URL('../../../fixtures/dxf/read-dxf.py', import.meta.url).pathname;

interface Read {
  errors: number;
  fixes: number;
  version: string;
  insunits: number;
  layers: string[];
  faces: Record<string, number>;
  polylines: [string, boolean, number][];
  points: number[];
  comments: string[];
  texts: [string, string][];
}

for (const placement of ['anchor', 'absolute'] as const) {
  test(`DXF (${placement}): ezdxf audits 0 errors; layers per group and kind; 3DFACEs and 3D POLYLINEs as in the scene; $INSUNITS; georeference noted; the exact corner in every unit`, () => {
    const scenes = UNITS.map((units) => sampleScene({ units, placement }));
    const paths = scenes.map((s) => writeTemp(writeDxf(s)));
    const reads = run(PYTHON, [READER, ...paths])
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Read);
    reads.forEach((r, i) => {
      const units = UNITS[i],
        scene = scenes[i];
      assert.deepEqual([r.errors, r.fixes, r.version, r.insunits], [0, 0, 'AC1015', INSUNITS[units]], units);
      for (const l of [
        'buildings-building',
        'surface-asphalt',
        'topography-terrain',
        'surfaceLines-asphalt',
        'instances-tree',
        'instances-bench',
        'georeference',
      ]) {
        assert.ok(r.layers.includes(l), `${units}: layer ${l}`);
      }
      assert.deepEqual(r.faces, { 'buildings-building': 12, 'surface-asphalt': 2, 'topography-terrain': 2, 'instances-tree': 6, 'instances-bench': 6 });
      assert.deepEqual(r.polylines, [['surfaceLines-asphalt', true, 3]]);
      const corner = sampleCorner(METRES_PER_UNIT[units], scene.georef.originGrid);
      assert.ok(hasPoint(r.points, corner, 0), `${units}: corner ${corner}`);
      const note =
        placement === 'anchor'
          ? /^Placement anchor: \(0, 0, 0\) is the origin at WGS84 lat 43\.7335, lon 7\.419/
          : /^Placement absolute: x, y are EPSG:32632 grid coordinates/;
      assert.ok(
        r.comments.some((c) => note.test(c)),
        'header comment',
      );
      assert.ok(
        r.texts.some(([layer, t]) => layer === 'georeference' && note.test(t)),
        'note in the drawing',
      );
    });
    // ezdxf's own command line (recover mode) agrees: 0 errors in every file.
    const audit = run(PYTHON, ['-m', 'ezdxf', 'audit', ...paths]);
    assert.equal(audit.match(/^No errors found\.$/gm)?.length, paths.length, audit);
    // A second reader agrees on the triangles.
    assert.equal(
      assimpMeshes(paths[0])
        .filter((m) => m.types === 'triangle')
        .reduce((n, m) => n + m.faces, 0),
      sampleTriangles(),
    );
  });
}

test('DXF: a scene with nothing in it audits clean', () => {
  const [r] = run(PYTHON, [READER, writeTemp(writeDxf({ ...sampleScene({ units: 'ft' }), groups: [] }))])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Read);
  assert.deepEqual([r.errors, r.fixes, r.insunits, r.faces, r.polylines], [0, 0, 2, {}, []]);
});
