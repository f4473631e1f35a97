import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writePly } from '../src/export/formats/ply.ts';
import { writeStl } from '../src/export/formats/stl.ts';
import { METRES_PER_UNIT, type ExportUnits } from '../src/export/scene.ts';
import { assimpMeshes, hasPoint, sampleCorner, sampleTriangles, writeTemp } from './helpers/export-readers.ts';
import { sampleScene } from './helpers/export-scenes.ts';

const UNITS: ExportUnits[] = ['m', 'mm', 'ft', 'in'];

for (const placement of ['anchor', 'absolute'] as const) {
  test(`STL (${placement}): binary, assimp reads the scene's triangles; the corner to float32 precision in every unit`, () => {
    for (const units of UNITS) {
      const scene = sampleScene({ units, placement });
      const file = writeStl(scene);
      assert.equal(file.extension, 'stl');
      assert.ok(!new TextDecoder().decode(file.bytes.subarray(0, 5)).startsWith('solid'), 'a binary header must not read as ASCII STL');
      const meshes = assimpMeshes(writeTemp(file));
      assert.equal(meshes.reduce((n, m) => n + m.faces, 0), sampleTriangles(6), units);
      assert.equal(file.bytes.length, 84 + 50 * sampleTriangles(6));
      const view = new DataView(file.bytes.buffer, file.bytes.byteOffset);
      const xyz: number[] = [];
      for (let t = 0; t < sampleTriangles(6); t++) for (let k = 3; k < 12; k++) xyz.push(view.getFloat32(84 + t * 50 + k * 4, true));
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
      assert.equal(meshes.reduce((n, m) => n + m.faces, 0), sampleTriangles(6), units);
      // Read the body by the header's own declaration.
      const text = new TextDecoder('latin1').decode(file.bytes);
      const end = text.indexOf('end_header\n') + 'end_header\n'.length;
      const header = text.slice(0, end);
      assert.match(header, /^format binary_little_endian 1\.0$/m);
      assert.match(header, /property double x\nproperty double y\nproperty double z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\n/);
      assert.match(header, new RegExp(`^comment .*units: ${units}$`, 'm'));
      const vertices = Number(/^element vertex (\d+)$/m.exec(header)![1]);
      assert.equal(vertices, 8 + 4 + 4 + 2 * 5, 'box, two quads, two pyramids: each feature its own vertices');
      const view = new DataView(file.bytes.buffer, file.bytes.byteOffset + end);
      const corner = sampleCorner(METRES_PER_UNIT[units], scene.georef.originGrid);
      const building = scene.groups[0].meshes[0].colour!.map((c) => Math.round(c * 255));
      let found = 0;
      for (let i = 0; i < vertices; i++) {
        const p: [number, number, number] = [view.getFloat64(i * 27, true), view.getFloat64(i * 27 + 8, true), view.getFloat64(i * 27 + 16, true)];
        if (hasPoint(p, corner, 0)) {
          found++;
          assert.deepEqual([view.getUint8(i * 27 + 24), view.getUint8(i * 27 + 25), view.getUint8(i * 27 + 26)], building);
        }
      }
      assert.equal(found, 1, `${units}: the corner exactly, once`);
    }
  });
}
