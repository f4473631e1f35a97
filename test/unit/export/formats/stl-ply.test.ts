import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writePly } from '../../../../src/export/formats/ply.ts';
import { writeStl } from '../../../../src/export/formats/stl.ts';
import { METRES_PER_UNIT, type ExportUnits } from '../../../../src/export/scene.ts';
import { assimpMeshes, hasPoint, plyVertices, sampleCorner, sampleTriangles, stlPositions, writeTemp } from '../../../support/checks/export-readers.ts';
import { sampleScene } from '../../../support/scenes/export-scenes.ts';
import { placedNodeMesh } from '../../../../src/export/formats/node-models.ts';
import { modelMesh } from '../../../../src/geometry/instances/models/index.ts';

const UNITS: ExportUnits[] = ['m', 'mm', 'ft', 'in'];

for (const placement of ['anchor', 'absolute'] as const) {
  test(`STL (${placement}): binary, assimp reads the scene's triangles; the corner to float32 precision in every unit`, () => {
    for (const units of UNITS) {
      const scene = sampleScene({ units, placement });
      const file = writeStl(scene);
      assert.equal(file.extension, 'stl');
      assert.ok(!new TextDecoder().decode(file.bytes.subarray(0, 5)).startsWith('solid'), 'a binary header must not read as ASCII STL');
      const meshes = assimpMeshes(writeTemp(file));
      assert.equal(
        meshes.reduce((n, m) => n + m.faces, 0),
        sampleTriangles(),
        units,
      );
      assert.equal(file.bytes.length, 84 + 50 * sampleTriangles());
      const xyz = stlPositions(file.bytes);
      const corner = sampleCorner(METRES_PER_UNIT[units], scene.georef.originGrid);
      // float32: half an ulp of the largest coordinate (documented: use anchor placement for STL).
      assert.ok(hasPoint(xyz, corner, Math.max(...corner.map(Math.abs)) * 2 ** -24 + 1e-6), `${units}: corner ${corner}`);
    }
  });

  test(`PLY (${placement}): binary with double positions and per-vertex colour; assimp reads the scene's triangles; the exact corner in the building's colour`, () => {
    for (const units of UNITS) {
      const scene = sampleScene({ units, placement });
      const file = writePly(scene);
      assert.equal(file.extension, 'ply');
      const meshes = assimpMeshes(writeTemp(file));
      assert.equal(
        meshes.reduce((n, m) => n + m.faces, 0),
        sampleTriangles(),
        units,
      );
      const { header, xyz, rgb } = plyVertices(file.bytes);
      assert.match(header, /^format binary_little_endian 1\.0$/m);
      assert.match(header, new RegExp(`^comment .*units: ${units}$`, 'm'));
      const models = modelMesh('tree-broadleaf').positions.length / 3 + modelMesh('bench').positions.length / 3;
      assert.equal(xyz.length / 3, 8 + 4 + 4 + models, 'box, two quads, the tree and the bench placed: each object its own vertices');
      const corner = sampleCorner(METRES_PER_UNIT[units], scene.georef.originGrid);
      const building = scene.groups[0].meshes[0].colour!.map((c) => Math.round(c * 255));
      let found = 0;
      for (let i = 0; i < xyz.length / 3; i++) {
        if (hasPoint(xyz.slice(i * 3, i * 3 + 3), corner, 0)) {
          found++;
          assert.deepEqual(rgb.slice(i * 3, i * 3 + 3), building);
        }
      }
      assert.equal(found, 1, `${units}: the corner exactly, once`);
      // a street object is its model placed, to the double: every vertex of the tree as the scene places it
      const tree = placedNodeMesh(scene.groups.find((g) => g.name === 'instances')!.nodes[0], units)!.positions;
      for (let i = 0; i < tree.length; i += 3) assert.ok(hasPoint(xyz, [tree[i], tree[i + 1], tree[i + 2]], 0), `${units}: tree vertex ${i / 3}`);
    }
  });
}
