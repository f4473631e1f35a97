import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { writeObj } from '../../../../src/export/formats/obj.ts';
import { METRES_PER_UNIT, type ExportUnits } from '../../../../src/export/scene.ts';
import { assimpMeshes, hasPoint, objPositions, PYTHON, run, sampleCorner, sampleTriangles, writeTemp } from '../../../support/checks/export-readers.ts';
import { sampleScene } from '../../../support/scenes/export-scenes.ts';

const UNITS: ExportUnits[] = ['m', 'mm', 'ft', 'in'];

for (const placement of ['anchor', 'absolute'] as const) {
  test(`OBJ (${placement}): one zip of obj + mtl; assimp reads every feature as its own object with the scene's triangles; the corner in every unit`, () => {
    for (const units of UNITS) {
      const scene = sampleScene({ units, placement });
      const file = writeObj(scene);
      assert.equal(file.extension, 'obj.zip');
      assert.equal(file.contentType, 'application/zip');
      const zipPath = writeTemp(file);
      // Python's zipfile is the reader: the download must be a plain zip of the two files.
      assert.deepEqual(
        run(PYTHON, ['-c', 'import sys, zipfile; print(sorted(zipfile.ZipFile(sys.argv[1]).namelist()))', zipPath]).trim(),
        `['${scene.name}.mtl', '${scene.name}.obj']`,
      );
      const dir = dirname(zipPath);
      run(PYTHON, ['-m', 'zipfile', '-e', zipPath, dir]);
      const objPath = join(dir, `${scene.name}.obj`);
      const meshes = assimpMeshes(objPath);
      const triangles = meshes.filter((m) => m.types === 'triangle');
      // Every face is in the file. assimp holds coordinates in float32, so in absolute placement the
      // bench's narrow faces at grid coordinates (float32 steps of 0.5 m to 512 mm) collapse to lines
      // or points it keeps as such: count them all; in anchor placement every triangle stays one.
      assert.equal(
        meshes.reduce((n, m) => n + m.faces, 0),
        sampleTriangles() + 2,
        `${units}: every triangle and the centerline's two segments`,
      );
      if (placement === 'anchor')
        assert.equal(
          triangles.reduce((n, m) => n + m.faces, 0),
          sampleTriangles(),
          units,
        );
      // each object named by its id, a street object by its type too (a tree's trunk and crown two meshes of it)
      const objects = [...run('assimp', ['info', objPath, '-v']).matchAll(/╴(\S+) \(mesh [\d, ]+\)$/gm)].map((m) => m[1]);
      assert.deepEqual(objects, ['way/1', 'way/2', 'terrain/0', 'way/2', 'tree-broadleaf:node/3', 'bench:node/4']);
      assert.deepEqual(
        meshes.filter((m) => m.types === 'line' && m.name === 'way/2').map((m) => [m.name, m.vertices]),
        [['way/2', 3]],
      );

      const obj = readFileSync(objPath, 'utf8'),
        mtl = readFileSync(join(dir, `${scene.name}.mtl`), 'utf8');
      const used = new Set([...obj.matchAll(/^usemtl (\S+)$/gm)].map((m) => m[1]));
      const defined = new Set([...mtl.matchAll(/^newmtl (\S+)$/gm)].map((m) => m[1]));
      assert.deepEqual([...used].sort(), [...defined].sort());
      assert.ok(used.has('asphalt') && used.has('terrain') && used.has('tree') && used.has('trunk') && used.has('bench'));
      // Text keeps the doubles: the corner is exact, absolute grid coordinates included.
      const xyz = objPositions(obj);
      const corner = sampleCorner(METRES_PER_UNIT[units], scene.georef.originGrid);
      assert.ok(hasPoint(xyz, corner, 1e-9 * Math.hypot(...corner)), `${units}: corner ${corner}`);
      assert.match(obj, new RegExp(`^# .*units: ${units}$`, 'm'));
      assert.match(
        obj,
        placement === 'anchor'
          ? /^# Placement anchor: \(0, 0, 0\) is the origin at WGS84 lat 43\.7335, lon 7\.419/m
          : /^# Placement absolute: x, y are EPSG:32632/m,
      );
    }
  });
}
