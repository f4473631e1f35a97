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
  objPositions,
  run,
  sampleCorner,
  sampleTriangles,
  writeTemp,
} from '../../../support/checks/export-readers.ts';
import { sampleScene } from '../../../support/scenes/export-scenes.ts';
import { modelMesh } from '../../../../src/geometry/instances/models/index.ts';
import { placedNodeMesh } from '../../../../src/export/formats/node-models.ts';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Triangles assimp draws: each node of its node hierarchy (`assimp info -v`) counts the triangles
 * of the meshes it holds, so a model used by three instances counts three times.
 */
function assimpDrawnTriangles(path: string): { triangles: number; instancesOf: Map<string, number> } {
  const faces = assimpMeshes(path).map((m) => (m.types === 'triangle' ? m.faces : 0));
  const tree = run('assimp', ['info', path, '-v']).split('Node hierarchy:')[1];
  let triangles = 0;
  const instancesOf = new Map<string, number>();
  for (const m of tree.matchAll(/╴(\S+) \(mesh ([\d, ]+)\)$/gm)) {
    for (const i of m[2].split(', ')) triangles += faces[Number(i)];
    instancesOf.set(m[1], (instancesOf.get(m[1]) ?? 0) + 1);
  }
  return { triangles, instancesOf };
}

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

test("DAE instances: each model one geometry and one library node, an instance_node per object; assimp draws every instance with its model's triangles, in every unit and placement", () => {
  const broadleaf = modelMesh('tree-broadleaf').indices.length / 3;
  for (const placement of ['anchor', 'absolute'] as const) {
    for (const units of UNITS) {
      const scene = sampleScene({ units, placement });
      const k = 1 / METRES_PER_UNIT[units],
        [x0, y0] = scene.georef.originGrid;
      // two more broadleaves (untagged, and another crown), beside the sample's tree and bench
      scene.groups
        .find((g) => g.name === 'instances')!
        .nodes.push(
          { type: 'tree', position: [x0 + 30 * k, y0 - 12 * k, 2 * k], rotation: -1, scale: 1, descriptor: { type: 'tree', id: 'node/5', crownDiameter: 9 } },
          { type: 'tree', position: [x0 - 4 * k, y0 + 40 * k, 0], rotation: 2.5, scale: 0.8, descriptor: { type: 'tree' } },
        );
      const path = writeTemp(writeDae(scene));
      const xpath = (q: string): string[] => run('xmllint', ['--xpath', q, path]).match(/(url|name)="([^"]*)"/g) ?? [];
      assert.deepEqual(
        xpath("//*[local-name()='library_nodes']/*[local-name()='node']/@name"),
        ['name="bench"', 'name="tree-broadleaf"'],
        'a library node per model',
      );
      assert.deepEqual(
        xpath("//*[local-name()='library_geometries']/*[local-name()='geometry'][starts-with(@id, 'model-')]/@name"),
        ['name="bench"', 'name="tree-broadleaf"'],
        "each model's geometry once",
      );
      assert.equal(xpath("//*[local-name()='visual_scene']//*[local-name()='instance_node']/@url").length, 4, 'an instance_node per object');
      const { triangles, instancesOf } = assimpDrawnTriangles(path);
      assert.equal(triangles, sampleTriangles() + 2 * broadleaf, `${placement} ${units}: every instance drawn whole`);
      assert.equal(instancesOf.get('model-tree-broadleaf'), 3, `${placement} ${units}`);
      assert.equal(instancesOf.get('model-bench'), 1, `${placement} ${units}`);
      const out = run('xmllint', ['--noout', '--nonet', '--schema', COLLADA_XSD, path], { XML_CATALOG_FILES: COLLADA_CATALOG });
      assert.match(out, / validates$/m);
    }
  }
});

test('DAE instances land where the scene places them: assimp, applying the instance transforms, finds every vertex of every placed model', () => {
  const scene = sampleScene({ units: 'm', placement: 'anchor' });
  const dae = writeTemp(writeDae(scene));
  const obj = join(dirname(dae), 'flat.obj');
  run('assimp', ['export', dae, obj]); // assimp's OBJ is in world coordinates, turned to Y up: (x, z, −y)
  const xyz = objPositions(readFileSync(obj, 'utf8'));
  const world: number[] = [];
  for (let i = 0; i < xyz.length; i += 3) world.push(xyz[i], -xyz[i + 2], xyz[i + 1]);
  for (const node of scene.groups.find((g) => g.name === 'instances')!.nodes) {
    const placed = placedNodeMesh(node, 'm')!.positions;
    for (let i = 0; i < placed.length; i += 3) {
      const p: [number, number, number] = [placed[i], placed[i + 1], placed[i + 2]];
      assert.ok(hasPoint(world, p, 1e-4), `${node.descriptor.id}: vertex ${p} not drawn`);
    }
  }
});
