import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeDae } from '../../../../src/export/formats/dae.ts';
import { METRES_PER_UNIT, type ExportUnits } from '../../../../src/export/scene.ts';
import {
  assimpMeshes,
  COLLADA_CATALOG,
  COLLADA_XSD,
  daePositions,
  hasPoint,
  run,
  sampleCorner,
  sampleTriangles,
  writeTemp,
} from '../../../support/checks/export-readers.ts';
import { sampleScene } from '../../../support/scenes/export-scenes.ts';

const UNITS: ExportUnits[] = ['m', 'mm', 'ft', 'in'];

for (const placement of ['anchor', 'absolute'] as const) {
  test(`DAE (${placement}): valid COLLADA 1.4.1 (xmllint, schema), assimp reads the scene's triangles, unit and Z up set, the exact corner in every unit`, () => {
    const paths: string[] = [];
    for (const units of UNITS) {
      const scene = sampleScene({ units, placement });
      const file = writeDae(scene);
      assert.equal(file.extension, 'dae');
      const path = writeTemp(file);
      paths.push(path);
      const meshes = assimpMeshes(path);
      assert.equal(
        meshes.filter((m) => m.types === 'triangle').reduce((n, m) => n + m.faces, 0),
        sampleTriangles(),
        units,
      );
      assert.equal(meshes.filter((m) => m.types === 'line').length, 1, 'the centerline');
      const xml = new TextDecoder().decode(file.bytes);
      assert.ok(xml.includes(`<unit name="${units}" meter="${METRES_PER_UNIT[units]}"/><up_axis>Z_UP</up_axis>`), units);
      // One node per group holding one node per feature, named by its id (read with xmllint's XPath).
      for (const [group, names] of [
        ['buildings', 'way_1'],
        ['surface', 'way_2'],
        ['topography', 'terrain_0'],
        ['surfaceLines', 'way_2'],
        ['instances', 'node_3 node_4'],
      ]) {
        const xpath = `//*[local-name()='visual_scene']/*[local-name()='node'][@name='${group}']/*[local-name()='node']/@name`;
        const got = run('xmllint', ['--xpath', xpath, path])
          .match(/name="([^"]*)"/g)!
          .map((a) => a.slice(6, -1))
          .join(' ');
        assert.equal(got, names, group);
      }
      assert.ok(xml.includes('<id>way/1</id>'), 'the real id in the node extra');
      const xyz = daePositions(xml);
      const corner = sampleCorner(METRES_PER_UNIT[units], scene.georef.originGrid);
      assert.ok(hasPoint(xyz, corner, 0), `${units}: corner ${corner}`);
    }
    // Against the 1.4.1 schema, offline: xml.xsd through a local catalog.
    const out = run('xmllint', ['--noout', '--nonet', '--schema', COLLADA_XSD, ...paths], { XML_CATALOG_FILES: COLLADA_CATALOG });
    assert.equal(out.match(/ validates$/gm)?.length, paths.length, out);
  });
}

test('DAE: a scene with nothing in it, or only a mesh without triangles and a one-point line, is still valid COLLADA 1.4.1', () => {
  const empty = { ...sampleScene(), groups: [] };
  const degenerate = {
    ...sampleScene(),
    groups: [
      {
        name: 'surface' as const,
        nodes: [],
        meshes: [{ id: 'way/9', kind: 'grass', positions: new Float64Array(), indices: new Uint32Array(), descriptor: {} }],
        polylines: [{ id: 'way/9', kind: 'outline', points: new Float64Array([1, 2, 3]), closed: false, descriptor: {} }],
      },
    ],
  };
  const paths = [empty, degenerate].map((s) => writeTemp(writeDae(s)));
  const out = run('xmllint', ['--noout', '--nonet', '--schema', COLLADA_XSD, ...paths], { XML_CATALOG_FILES: COLLADA_CATALOG });
  assert.equal(out.match(/ validates$/gm)?.length, 2, out);
});
