/**
 * The glTF/GLB writer judged by the Khronos validator (0 errors, 0 warnings) and re-read with
 * gltf-transform: group and feature nodes, Y-up axes, metres whatever the scene units, absolute
 * placement through the root translation, georeference in the scene extras.
 */
import { kindColour, srgbToLinear } from '../../../../src/export/formats/palette.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeIO, type Document, type Node } from '@gltf-transform/core';
import { writeGlb, writeGltf } from '../../../../src/export/formats/gltf.ts';
import { SAMPLE_CORNER, SAMPLE_NODE_TRIANGLES, SAMPLE_TRIANGLES, sampleScene } from '../../../support/scenes/export-scenes.ts';
import { problems, validateGltf } from '../../../support/checks/gltf-validate.ts';
import { nodeInstance, placedNodeMesh } from '../../../../src/export/formats/node-models.ts';
import { METRES_PER_UNIT, type ExportNode } from '../../../../src/export/scene.ts';

async function readBack(bytes: Uint8Array, ext: string): Promise<Document> {
  const io = new NodeIO();
  if (ext === 'glb') return io.readBinary(bytes);
  return io.readJSON({ json: JSON.parse(new TextDecoder().decode(bytes)), resources: {} });
}

/** World positions of a named node's mesh (node and root translations applied). */
function worldPositions(doc: Document, name: string): number[][] {
  const node = doc
    .getRoot()
    .listNodes()
    .find((n) => n.getName() === name && n.getMesh());
  assert.ok(node, `node ${name}`);
  const m = node.getWorldMatrix();
  const acc = node.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!;
  const out: number[][] = [];
  for (let i = 0; i < acc.getCount(); i++) {
    const [x, y, z] = acc.getElement(i, [0, 0, 0]) as number[];
    out.push([x + m[12], y + m[13], z + m[14]]);
  }
  return out;
}

for (const write of [writeGlb, writeGltf]) {
  test(`${write.name}: Khronos validator finds no error and no warning`, async () => {
    for (const placement of ['anchor', 'absolute'] as const) {
      const file = await write(sampleScene({ placement }));
      const report = await validateGltf(file.bytes, `model.${file.extension}`);
      assert.equal(report.issues.numErrors, 0, problems(report));
      assert.equal(report.issues.numWarnings, 0, problems(report));
      // the validator counts a shared mesh once per node using it: the two nodes' models
      const nodes = SAMPLE_NODE_TRIANGLES['node/3'] + SAMPLE_NODE_TRIANGLES['node/4'];
      assert.equal(report.info?.totalTriangleCount, SAMPLE_TRIANGLES.buildings + SAMPLE_TRIANGLES.surface + SAMPLE_TRIANGLES.topography + nodes);
    }
  });
}

test('glTF structure: a node per group, a node per feature named by id, descriptors in extras, georef in scene extras', async () => {
  const file = await writeGltf(sampleScene());
  assert.equal(file.extension, 'gltf');
  const json = JSON.parse(new TextDecoder().decode(file.bytes));
  assert.match(json.buffers[0].uri, /^data:application\/octet-stream;base64,/, 'buffer embedded');
  const doc = await readBack(file.bytes, 'gltf');
  const root = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const top = root.listChildren()[0];
  assert.deepEqual(
    top.listChildren().map((n) => n.getName()),
    ['buildings', 'surface', 'topography', 'surfaceLines', 'instances'],
  );
  const building = top.listChildren()[0].listChildren()[0];
  assert.equal(building.getName(), 'way/1');
  assert.equal((building.getExtras() as any).descriptor.buildingHeight, 15);
  const geo = (root.getExtras() as any).cityContext.georeference;
  assert.equal(geo.crs, 'local');
  assert.deepEqual(geo.origin, { lat: 43.7335, lon: 7.419 });
  const trees = top.listChildren()[4].listChildren();
  assert.equal(trees.length, 2);
  assert.deepEqual((trees[0].getExtras() as any).type, 'tree');
  // rotation 0.5 rad counter-clockwise about up: quaternion about +Y
  assert.ok(Math.abs(trees[0].getRotation()[1] - Math.sin(0.25)) < 1e-6);
  // one mesh per model (the tree's form, the bench), the tree's height from its descriptor
  const tree = trees[0].getMesh()!,
    bench = trees[1].getMesh()!;
  assert.ok(tree && bench && tree !== bench);
  assert.equal(tree.getName(), 'model/tree-broadleaf');
  assert.deepEqual(
    tree.listPrimitives().map((p) => p.getMaterial()!.getName()),
    ['trunk', 'tree'],
    'trunk and crown in their own materials',
  );
  assert.equal(tree.listPrimitives()[0].getAttribute('POSITION'), tree.listPrimitives()[1].getAttribute('POSITION'), 'one vertex list for both');
  const apex = Math.max(...Array.from(tree.listPrimitives()[0].getAttribute('POSITION')!.getArray() as Float32Array).filter((_, i) => i % 3 === 1));
  assert.ok(Math.abs(apex * trees[0].getScale()[1] - 12) < 1e-4, `${apex}`);
  const line = top.listChildren()[3].listChildren()[0].getMesh()!.listPrimitives()[0];
  assert.equal(line.getMode(), 3, 'centerline as LINE_STRIP');
});

test('glTF corner: Y up, north = −Z, metres whatever the scene units, absolute through the root translation', async () => {
  const [cx, cy] = SAMPLE_CORNER;
  for (const units of ['m', 'mm', 'ft', 'in'] as const) {
    for (const placement of ['anchor', 'absolute'] as const) {
      const scene = sampleScene({ units, placement });
      const doc = await readBack((await writeGlb(scene)).bytes, 'glb');
      const grid = placement === 'absolute' ? [370_000, 4_843_000] : [0, 0];
      const want = [cx + grid[0], 0, -(cy + grid[1])];
      const pts = worldPositions(doc, 'way/1');
      const best = Math.min(...pts.map((p) => Math.hypot(p[0] - want[0], p[1] - want[1], p[2] - want[2])));
      assert.ok(best < 1e-3, `${units} ${placement}: corner off by ${best} m`);
      const roofTop = Math.max(...pts.map((p) => p[1]));
      assert.ok(Math.abs(roofTop - 15) < 1e-3, `${units}: height ${roofTop}`);
    }
  }
});

test('an empty scene (nothing in the area) and a nodes-only scene are still valid glTF', async () => {
  const empty = sampleScene();
  empty.groups = empty.groups.map((g) => ({ ...g, meshes: [], polylines: [], nodes: [] }));
  const nodesOnly = sampleScene();
  nodesOnly.groups = nodesOnly.groups.filter((g) => g.name === 'instances');
  for (const scene of [empty, nodesOnly]) {
    for (const write of [writeGlb, writeGltf]) {
      const file = await write(scene);
      const report = await validateGltf(file.bytes, `model.${file.extension}`);
      assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, problems(report));
    }
  }
});

test('a mesh of more than 65,535 vertices gets uint32 indices beside uint16 ones, and both read back exactly', async () => {
  // a 300 × 250 vertex terrain-like sheet (75,000 vertices) beside the sample's small meshes
  const nx = 300,
    ny = 250;
  const positions = new Float64Array(nx * ny * 3);
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) positions.set([i * 2, j * 2, Math.sin(i / 7) + Math.cos(j / 5)], (j * nx + i) * 3);
  const indices: number[] = [];
  for (let j = 0; j + 1 < ny; j++)
    for (let i = 0; i + 1 < nx; i++) {
      const a = j * nx + i;
      indices.push(a, a + 1, a + nx + 1, a, a + nx + 1, a + nx);
    }
  const scene = sampleScene();
  const sheet = { id: 'terrain/big', kind: 'terrain', positions, indices: Uint32Array.from(indices), descriptor: { type: 'terrain' } };
  scene.groups.find((g) => g.name === 'topography')!.meshes.push(sheet);
  const file = await writeGlb(scene);
  const report = await validateGltf(file.bytes, 'model.glb');
  assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, problems(report));
  const doc = await readBack(file.bytes, 'glb');
  const prim = doc
    .getRoot()
    .listNodes()
    .find((n) => n.getName() === 'terrain/big')!
    .getMesh()!
    .listPrimitives()[0];
  assert.ok(prim.getIndices()!.getArray() instanceof Uint32Array, 'uint32 indices for the big sheet');
  assert.deepEqual(Array.from(prim.getIndices()!.getArray()!), indices);
  const small = doc
    .getRoot()
    .listNodes()
    .find((n) => n.getName() === 'way/1')!
    .getMesh()!
    .listPrimitives()[0];
  assert.ok(small.getIndices()!.getArray() instanceof Uint16Array, 'uint16 indices for a small building');
  const p = prim.getAttribute('POSITION')!;
  for (const v of [0, 12_345, nx * ny - 1]) {
    const [x, y, z] = p.getElement(v, [0, 0, 0]) as number[];
    assert.ok(Math.abs(x - positions[v * 3]) < 1e-4 && Math.abs(y - positions[v * 3 + 2]) < 1e-4 && Math.abs(z + positions[v * 3 + 1]) < 1e-4, `vertex ${v}`);
  } // the .gltf's base64 is written ~1 MB of buffer at a time: the pieces join into the same buffer
  const text = await writeGltf(scene);
  const textReport = await validateGltf(text.bytes, 'model.gltf');
  assert.equal(textReport.issues.numErrors + textReport.issues.numWarnings, 0, problems(textReport));
  const again = (await readBack(text.bytes, 'gltf'))
    .getRoot()
    .listNodes()
    .find((n) => n.getName() === 'terrain/big')!
    .getMesh()!
    .listPrimitives()[0];
  assert.deepEqual(Array.from(again.getIndices()!.getArray()!), indices);
  assert.deepEqual(Array.from(again.getAttribute('POSITION')!.getArray()!), Array.from(p.getArray()!));
});

/** World positions of every vertex of a node's mesh (its world matrix applied). */
function worldVertices(node: Node): number[][] {
  const m = node.getWorldMatrix();
  const acc = node.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!;
  const out: number[][] = [];
  for (let i = 0; i < acc.getCount(); i++) {
    const [x, y, z] = acc.getElement(i, [0, 0, 0]) as number[];
    out.push([0, 1, 2].map((r) => m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]));
  }
  return out;
}

test('instances: each model one mesh written once, a node per object placing it exactly where the scene places it (turn, scale per axis, units, placement)', async () => {
  for (const units of ['m', 'mm', 'ft'] as const) {
    for (const placement of ['anchor', 'absolute'] as const) {
      const scene = sampleScene({ units, placement });
      const instances = scene.groups.find((g) => g.name === 'instances')!;
      const k = 1 / METRES_PER_UNIT[units];
      const [x0, y0] = scene.georef.originGrid;
      // three broadleaves of different heights, crowns and turns, and a conifer
      const more: ExportNode[] = [
        {
          type: 'tree',
          position: [x0 + 30 * k, y0 - 12 * k, 2 * k],
          rotation: -1,
          scale: 1,
          descriptor: { type: 'tree', id: 'node/5', height: 7, crownDiameter: 9 },
        },
        { type: 'tree', position: [x0 - 4 * k, y0 + 40 * k, 0], rotation: 2.5, scale: 0.8, descriptor: { type: 'tree', id: 'node/6' } },
        { type: 'tree', position: [x0, y0, 0], rotation: 0, scale: 1, descriptor: { type: 'tree', id: 'node/7', leafType: 'needleleaved', height: 20 } },
      ];
      instances.nodes.push(...more);
      const file = await writeGlb(scene);
      const report = await validateGltf(file.bytes, 'model.glb');
      assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, problems(report));
      const doc = await readBack(file.bytes, 'glb');
      assert.deepEqual(
        doc
          .getRoot()
          .listMeshes()
          .map((m) => m.getName())
          .filter((n) => n.startsWith('model/')),
        ['model/bench', 'model/tree-broadleaf', 'model/tree-conifer'],
        'each model once',
      );
      const byName = new Map(
        doc
          .getRoot()
          .listNodes()
          .map((n) => [n.getName(), n]),
      );
      assert.equal(byName.get('node/3')!.getMesh(), byName.get('node/5')!.getMesh(), 'broadleaves share their mesh');
      for (const n of instances.nodes) {
        const name = n.descriptor.id as string;
        const node = byName.get(name)!;
        assert.equal((node.getExtras() as any).model, nodeInstance(n, units)!.model);
        // the scene's own placement of the model, in glTF axes and metres: the world vertices must match it
        const placed = placedNodeMesh(n, units)!.positions;
        const got = worldVertices(node);
        assert.equal(got.length, placed.length / 3);
        let worst = 0;
        got.forEach(([X, Y, Z], i) => {
          const want = [placed[i * 3] / k, placed[i * 3 + 2] / k, -placed[i * 3 + 1] / k];
          worst = Math.max(worst, Math.hypot(X - want[0], Y - want[1], Z - want[2]));
        });
        assert.ok(worst < 1e-3, `${units} ${placement} ${name}: a vertex off by ${worst} m`);
      }
    }
  }
});

test('power-line cables are LINE_STRIPs named <line id>#<span> in the palette wire colour, in the instances group', async () => {
  const scene = sampleScene();
  const points = new Float64Array([0, 0, 10, 20, 0, 9.4, 40, 0, 10]);
  scene.groups
    .find((g) => g.name === 'instances')!
    .polylines.push({ id: 'way/7#2', kind: 'wire', points, closed: false, descriptor: { type: 'wire', id: 'way/7', span: 2 } });
  const file = await writeGlb(scene);
  const report = await validateGltf(file.bytes, 'model.glb');
  assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, problems(report));
  const instances = (await readBack(file.bytes, 'glb'))
    .getRoot()
    .listNodes()
    .find((n) => n.getName() === 'instances')!;
  const cable = instances.listChildren().find((n) => n.getName() === 'way/7#2')!;
  const line = cable.getMesh()!.listPrimitives()[0];
  assert.equal(line.getMode(), 3, 'LINE_STRIP');
  assert.equal(line.getAttribute('POSITION')!.getCount(), 3);
  assert.equal(line.getMaterial()!.getName(), 'wire');
  // linear factors of the palette's sRGB aluminium grey
  const expected = kindColour('wire').map(srgbToLinear);
  line
    .getMaterial()!
    .getBaseColorFactor()
    .slice(0, 3)
    .forEach((c, i) => assert.ok(Math.abs(c - expected[i]) < 1e-6, 'the wire colour'));
});

test("a cable's ends in its extras are glTF world points (Y up), where its first and last vertices land, in both placements", async () => {
  for (const placement of ['anchor', 'absolute'] as const) {
    const scene = sampleScene({ placement });
    const [ox, oy] = placement === 'absolute' ? scene.georef.originGrid : [0, 0];
    const points = new Float64Array([ox + 5, oy - 3, 27, ox + 25, oy - 3, 26, ox + 45, oy - 3, 28]);
    scene.groups
      .find((g) => g.name === 'instances')!
      .polylines.push({
        id: 'way/7#0',
        kind: 'wire',
        points,
        closed: false,
        descriptor: { type: 'wire', from: [ox + 5, oy - 3, 27], to: [ox + 45, oy - 3, 28] },
      });
    const doc = await readBack((await writeGlb(scene)).bytes as Uint8Array, 'glb');
    const cable = doc
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'way/7#0')!;
    const { from, to } = cable.getExtras().descriptor as { from: number[]; to: number[] };
    assert.deepEqual(from, [ox + 5, 27, -(oy - 3)]);
    assert.deepEqual(to, [ox + 45, 28, -(oy - 3)]);
    const m = cable.getWorldMatrix();
    const pos = cable.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!;
    for (const [i, end] of [
      [0, from],
      [2, to],
    ] as const) {
      const [x, y, z] = pos.getElement(i, [0, 0, 0]) as [number, number, number];
      const world = [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
      assert.ok(Math.hypot(world[0] - end[0], world[1] - end[1], world[2] - end[2]) < 1e-3, `${placement}: ${world} vs ${end}`);
    }
  }
});
