/**
 * Nodes as blocks in the 3dm, judged by reading the file back with rhino3dm (OpenNURBS): one
 * instance definition per model used whose geometry is the model's mesh (definition geometry,
 * in the file's units), one instance reference per node naming its definition, whose transform
 * puts the definition's mesh exactly where the node's placed model lies; cables as polyline
 * curves named by their span.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import rhino3dm, { type File3dm, type RhinoModule } from 'rhino3dm';
import { NOMINAL_HEIGHT } from '../../../../src/geometry/instances/catalogue.ts';
import { modelKeys, modelMesh } from '../../../../src/geometry/instances/models/index.ts';
import { nodeInstance, nodeName, placedNodeMesh } from '../../../../src/export/formats/node-models.ts';
import { writeRhino3dm } from '../../../../src/export/formats/rhino3dm.ts';
import { METRES_PER_UNIT, type ExportNode, type ExportPolyline, type ExportScene, type ExportUnits } from '../../../../src/export/scene.ts';
import { sampleScene } from '../../../support/scenes/export-scenes.ts';

let rh: RhinoModule;
before(async () => {
  rh = await rhino3dm();
});

async function read(scene: ExportScene): Promise<File3dm> {
  const doc = rh.File3dm.fromByteArray((await writeRhino3dm(scene)).bytes);
  assert.ok(doc, 'OpenNURBS reads the file');
  return doc;
}

/** The sample scene with other nodes in its instances group. */
function withNodes(nodes: ExportNode[], units: ExportUnits = 'm', placement: 'anchor' | 'absolute' = 'anchor'): ExportScene {
  const scene = sampleScene({ units, placement });
  scene.groups.find((g) => g.name === 'instances')!.nodes = nodes;
  return scene;
}

interface Read {
  definitions: { id: string; name: string; objects: string[] }[];
  /** Definition geometry by object id: its name, layer and mesh. */
  geometry: Map<string, { name: string; layer: string; mesh: any }>;
  references: { name: string; layer: string; definition: string; xform: number[]; strings: Record<string, string> }[];
}

function blocks(doc: File3dm): Read {
  const definitions = Array.from({ length: doc.instanceDefinitions().count }, (_, i) => {
    const d = doc.instanceDefinitions().get(i);
    return { id: d.id, name: d.name, objects: d.getObjectIds() as unknown as string[] };
  });
  const geometry: Read['geometry'] = new Map(),
    references: Read['references'] = [];
  for (let i = 0; i < doc.objects().count; i++) {
    const o = doc.objects().get(i),
      a = o.attributes(),
      g = o.geometry() as any;
    const layer = doc.layers().get(a.layerIndex).fullPath;
    if (a.isInstanceDefinitionObject) geometry.set(a.id, { name: a.name, layer, mesh: g });
    else if (g.constructor.name === 'InstanceReference') {
      const x = g.xform;
      references.push({
        name: a.name,
        layer,
        definition: g.parentIdefId,
        xform: [x.m00, x.m01, x.m02, x.m03, x.m10, x.m11, x.m12, x.m13, x.m20, x.m21, x.m22, x.m23, x.m30, x.m31, x.m32, x.m33],
        strings: Object.fromEntries(a.getUserStrings() as unknown as [string, string][]),
      });
    }
  }
  return { definitions, geometry, references };
}

/** The vertices of a definition's mesh carried by a reference's transform. */
function placed(mesh: any, m: number[]): number[] {
  const v = mesh.vertices(),
    out: number[] = [];
  for (let i = 0; i < v.count; i++) {
    const [x, y, z] = v.point3dAt(i) as number[]; // the double-precision vertex
    out.push(m[0] * x + m[1] * y + m[2] * z + m[3], m[4] * x + m[5] * y + m[6] * z + m[7], m[8] * x + m[9] * y + m[10] * z + m[11]);
  }
  return out;
}

test('the sample: one definition per model used, its mesh the model in the file units, one reference per node on its kind layer', async () => {
  for (const units of ['m', 'mm', 'ft', 'in'] as const) {
    const scene = sampleScene({ units }),
      nodes = scene.groups.find((g) => g.name === 'instances')!.nodes;
    const { definitions, geometry, references } = blocks(await read(scene));
    assert.deepEqual(
      definitions.map((d) => d.name),
      ['tree-broadleaf', 'bench'],
    );
    for (const d of definitions) {
      assert.equal(d.objects.length, 1);
      const g = geometry.get(d.objects[0]);
      assert.ok(g, `${d.name}: its geometry is in the object table, flagged as definition geometry`);
      assert.equal(g.layer, 'instances');
      const model = modelMesh(d.name);
      assert.equal(g.mesh.faces().triangleCount, model.indices.length / 3);
      // the model's height in the file's units: the definition is the model at its nominal size
      const top = Math.max(...model.positions.filter((_, i) => i % 3 === 2));
      assert.ok(Math.abs(g.mesh.getBoundingBox().max[2] - top / METRES_PER_UNIT[units]) < 1e-9 * (1 + top / METRES_PER_UNIT[units]), `${d.name} in ${units}`);
    }
    assert.deepEqual(
      references.map((r) => `${r.layer}|${r.name}`),
      ['instances::tree|node/3', 'instances::bench|node/4'],
    );
    references.forEach((r, i) => assert.equal(r.definition, definitions.find((d) => d.name === nodeInstance(nodes[i], units)!.model)!.id));
    assert.deepEqual(references[0].strings, { type: 'tree', id: 'node/3', height: '12', crownDiameter: '6', rotation: '0.5', scale: '1.2' });
    // the bench at its nominal size: scale 1 whatever the units, turned by its rotation
    const [m00, m01, , , m10, m11, , , , , m22] = references[1].xform;
    assert.ok(Math.abs(m00 - Math.cos(1.2)) < 1e-12 && Math.abs(m10 - Math.sin(1.2)) < 1e-12 && Math.abs(m01 + Math.sin(1.2)) < 1e-12);
    assert.ok(Math.abs(m11 - Math.cos(1.2)) < 1e-12 && Math.abs(m22 - 1) < 1e-12);
  }
});

const NODE_TYPES = Object.keys(NOMINAL_HEIGHT).filter((t) => t !== 'wire');

const arbNode = (grid: number) =>
  fc
    .record({
      type: fc.constantFrom(...NODE_TYPES),
      x: fc.double({ min: -500, max: 500, noNaN: true }),
      y: fc.double({ min: -500, max: 500, noNaN: true }),
      z: fc.double({ min: -20, max: 200, noNaN: true }),
      rotation: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
      scale: fc.double({ min: 0.2, max: 4, noNaN: true }),
      height: fc.option(fc.double({ min: 2, max: 40, noNaN: true })),
      leafType: fc.constantFrom(undefined, 'broadleaved', 'needleleaved'),
      id: fc.nat({ max: 1e9 }),
    })
    .map(
      (n): ExportNode => ({
        type: n.type,
        position: [n.x + grid, n.y + grid * 10, n.z],
        rotation: n.rotation,
        scale: n.scale,
        descriptor: { type: n.type, id: `node/${n.id}`, ...(n.height ? { height: n.height } : {}), ...(n.leafType ? { leafType: n.leafType } : {}) },
      }),
    );

test('property: every node a reference to its model, placing the definition mesh where the node’s placed model lies (absolute coordinates, every unit)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom<ExportUnits>('m', 'mm', 'ft', 'in'),
      fc.boolean(),
      fc.array(arbNode(0), { minLength: 1, maxLength: 12 }),
      async (units, absolute, local) => {
        const k = 1 / METRES_PER_UNIT[units],
          grid = absolute ? 400_000 : 0;
        const nodes = local.map((n) => ({
          ...n,
          position: [(n.position[0] + grid) * k, (n.position[1] + 12 * grid) * k, n.position[2] * k] as [number, number, number],
        }));
        const { definitions, geometry, references } = blocks(await read(withNodes(nodes, units, absolute ? 'absolute' : 'anchor')));
        const used = new Set(nodes.map((n) => nodeInstance(n, units)!.model));
        assert.equal(definitions.length, used.size, 'one definition per model used');
        assert.deepEqual(
          definitions.map((d) => d.name),
          modelKeys().filter((key) => used.has(key)),
          'in the model table’s order',
        );
        assert.equal(references.length, nodes.length, 'one reference per node');
        references.forEach((r, i) => {
          const node = nodes[i],
            inst = nodeInstance(node, units)!;
          assert.equal(r.name, nodeName(node));
          assert.equal(r.layer, `instances::${node.type}`);
          const d = definitions.find((x) => x.id === r.definition)!;
          assert.equal(d.name, inst.model);
          assert.deepEqual(r.xform.slice(12), [0, 0, 0, 1]);
          assert.deepEqual([r.xform[3], r.xform[7], r.xform[11]], node.position, 'the position exactly');
          const want = placedNodeMesh(node, units)!.positions,
            got = placed(geometry.get(d.objects[0])!.mesh, r.xform);
          assert.equal(got.length, want.length);
          // to a hundredth of a millimetre (both sides in double precision; absolute grid coordinates included)
          const tol = 1e-5 / METRES_PER_UNIT[units];
          for (let j = 0; j < got.length; j++) assert.ok(Math.abs(got[j] - want[j]) < tol, `${r.name} vertex ${j / 3}: ${got[j]} vs ${want[j]}`);
        });
      },
    ),
    { numRuns: 25 },
  );
});

test('cables are polyline curves named by their span, on the wire layer, and never blocks', async () => {
  const points = new Float64Array([0, 0, 10, 20, 0, 9.4, 40, 0, 10]);
  const cable: ExportPolyline = {
    id: 'way/7#2',
    kind: 'wire',
    points,
    closed: false,
    descriptor: { type: 'wire', id: 'way/7', span: 2, from: [0, 0, 10], to: [40, 0, 10] },
  };
  const scene = withNodes([]);
  scene.groups.find((g) => g.name === 'instances')!.polylines = [cable];
  const doc = await read(scene);
  assert.equal(doc.instanceDefinitions().count, 0);
  const found = Array.from({ length: doc.objects().count }, (_, i) => doc.objects().get(i)).filter((o) => o.attributes().name === 'way/7#2');
  assert.equal(found.length, 1);
  const curve = found[0].geometry() as any;
  assert.equal(curve.constructor.name, 'PolylineCurve');
  assert.equal(doc.layers().get(found[0].attributes().layerIndex).fullPath, 'instances::wire');
  assert.deepEqual(
    Array.from({ length: curve.pointCount }, (_, i) => curve.point(i)),
    [
      [0, 0, 10],
      [20, 0, 9.4],
      [40, 0, 10],
    ],
  );
  const strings = Object.fromEntries(found[0].attributes().getUserStrings() as unknown as [string, string][]);
  assert.equal(strings.from, '[0,0,10]', 'the descriptor as user strings');
});

test('OpenNURBS keeps the blocks when it writes the file again', async () => {
  const doc = await read(sampleScene());
  const again = rh.File3dm.fromByteArray(doc.toByteArray());
  const a = blocks(doc),
    b = blocks(again);
  assert.deepEqual(
    b.definitions.map((d) => [d.name, d.objects]),
    a.definitions.map((d) => [d.name, d.objects]),
  );
  assert.deepEqual(b.references, a.references);
});
