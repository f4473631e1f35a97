/**
 * Nodes in IFC as typed, mapped instances and power lines as cables, judged by web-ifc's reader:
 * one type per model with its representation map, every occurrence a mapped item of its type's
 * map related to the type, web-ifc's expanded geometry where the placed model is, cables as
 * conductor segments along their catenary, and the same bytes and GlobalIds from one export to the
 * next whatever order the nodes come in.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as W from 'web-ifc';
import { CABLE_RADIUS, writeIfc } from '../../../../src/export/formats/ifc.ts';
import { ifcNodeClass, ifcTypeName } from '../../../../src/export/formats/ifc-instances.ts';
import { FIXED_TIMESTAMP } from '../../../../src/export/formats/ifc-step.ts';
import { nodeInstance, nodeName, placedNodeMesh, sharedModel } from '../../../../src/export/formats/node-models.ts';
import { cablePoints } from '../../../../src/geometry/instances/models/cable.ts';
import { METRES_PER_UNIT, type ExportNode, type ExportScene, type ExportUnits } from '../../../../src/export/scene.ts';
import { sampleScene } from '../../../support/scenes/export-scenes.ts';

const { IfcAPI } = W;
let api: W.IfcAPI;
before(async () => {
  api = new IfcAPI();
  await api.Init(undefined, true);
  api.SetLogLevel(W.LogLevel.LOG_LEVEL_OFF);
});

/** The sample with a street's worth of nodes (trees of two forms and sizes, furniture, a lamp, a hydrant, towers and a statue drawn by the stand-in post) and one cable span. */
function streetScene(units: ExportUnits = 'm', placement: 'anchor' | 'absolute' = 'anchor'): ExportScene {
  const scene = sampleScene({ units, placement });
  const k = 1 / METRES_PER_UNIT[units];
  const grid = placement === 'absolute' ? [370_000, 4_843_000] : [0, 0];
  const at = (x: number, y: number, z = 0): [number, number, number] => [(x + grid[0]) * k, (y + grid[1]) * k, z * k];
  const node = (type: string, id: string, x: number, y: number, rotation = 0, scale = 1, extra: Record<string, unknown> = {}): ExportNode => ({
    type,
    position: at(x, y),
    rotation,
    scale,
    descriptor: { type, id, ...extra },
  });
  const instances = scene.groups.find((g) => g.name === 'instances')!;
  instances.nodes.push(
    node('tree', 'node/20', 30, 0, 0, 1, { height: 12, crownDiameter: 6 }), // node/3's size: shares its body
    node('tree', 'node/21', 40, 0, 2, 1, { height: 8, crownDiameter: 5 }),
    node('tree', 'node/22', 50, 0, 0, 1, { genus: 'Pinus', height: 20, crownDiameter: 6 }),
    node('tree', 'node/23', 60, 0, 0, 1, { leafType: 'needleleaved' }),
    node('bench', 'node/24', 0, 30, 3),
    node('bench', 'node/25', 3, 30, 3),
    node('picnicTable', 'node/26', 6, 30),
    node('streetLamp', 'node/27', 9, 30, 0, 1.2),
    node('hydrant', 'node/28', 12, 30),
    node('transmissionTower', 'node/29', 0, 80),
    node('transmissionTower', 'node/30', 40, 80, 0.3, 1.1),
    node('statueBig', 'node/31', 20, 40),
  );
  instances.polylines.push({
    id: 'way/7#0',
    kind: 'wire',
    points: cablePoints(at(0, 80, 28), at(40, 80, 30)),
    closed: false,
    descriptor: { type: 'wire', id: 'way/7', span: 0 },
  });
  return scene;
}

const nodesOf = (scene: ExportScene) => scene.groups.flatMap((g) => g.nodes);
const ids = (model: number, type: number) => [...api.GetLineIDsWithType(model, type)];
const lines = (model: number, type: number, flat = false) => ids(model, type).map((id) => api.GetLine(model, id, flat));

async function open(scene: ExportScene): Promise<number> {
  return api.OpenModel((await writeIfc(scene)).bytes as Uint8Array);
}

/** web-ifc's type code of an IFC4 entity name written upper case. */
const code = (entity: string) => (W as unknown as Record<string, number>)[entity];

test('each model used is one type of its IFC class, with one map of its model, relating all its occurrences by mapped items', async () => {
  const scene = streetScene();
  const m = await open(scene);
  try {
    // What each node should be: its type's name and class, and its model's scale.
    const expected = nodesOf(scene).map((n) => {
      const inst = nodeInstance(n, 'm')!;
      return { name: nodeName(n), type: ifcTypeName(n.type, inst.model), cls: ifcNodeClass(n.type), model: inst.model, scale: inst.scale, node: n };
    });
    const typeNames = [...new Set(expected.map((e) => e.type))].sort();
    assert.deepEqual(typeNames, ['bench', 'hydrant', 'picnicTable', 'statueBig', 'streetLamp', 'transmissionTower', 'tree-broadleaf', 'tree-conifer']);

    const types = new Map<string, any>();
    for (const entity of new Set(expected.map((e) => e.cls.type))) for (const t of lines(m, code(entity), true)) types.set(t.Name.value, { line: t, entity });
    assert.deepEqual([...types.keys()].sort(), typeNames, 'one type object per type, no more');

    const relations = lines(m, W.IFCRELDEFINESBYTYPE);
    assert.equal(relations.length, typeNames.length, 'one IfcRelDefinesByType per type');
    const [declares] = lines(m, W.IFCRELDECLARES);
    assert.equal(declares.RelatingContext.value, ids(m, W.IFCPROJECT)[0]);
    assert.deepEqual(declares.RelatedDefinitions.map((d: any) => d.value).sort(), [...types.values()].map((t) => t.line.expressID).sort());

    for (const [name, { line: type, entity }] of types) {
      const mine = expected.filter((e) => e.type === name);
      assert.equal(entity, mine[0].cls.type);
      assert.equal(type.ElementType.value, name);
      assert.equal(type.PredefinedType.value, mine[0].cls.predefined);
      // One map: the model's faces at reference size (metres here), its triangles and vertices as built.
      assert.equal(type.RepresentationMaps.length, 1);
      const map = type.RepresentationMaps[0];
      const [faces] = map.MappedRepresentation.Items;
      const model = sharedModel(mine[0].model);
      assert.equal(faces.CoordIndex.length, model.indices.length / 3);
      assert.deepEqual(
        faces.Coordinates.CoordList.flat().map((c: any) => c.value),
        [...model.positions],
      );

      // Its relation names exactly its nodes, and each of them draws the type's map, scaled per axis.
      const rel = relations.find((r) => r.RelatingType.value === type.expressID)!;
      const related = rel.RelatedObjects.map((o: any) => api.GetLine(m, o.value, true));
      assert.deepEqual(related.map((o: any) => o.Name.value).sort(), mine.map((e) => e.name).sort());
      for (const o of related) {
        const e = mine.find((x) => x.name === o.Name.value)!;
        assert.equal(o.type, code(e.cls.occurrence));
        assert.equal(o.ObjectType.value, e.node.type);
        assert.equal(o.PredefinedType, null, 'the type carries the predefined type');
        const [rep] = o.Representation.Representations;
        assert.equal(rep.RepresentationIdentifier.value, 'Body');
        assert.equal(rep.RepresentationType.value, 'MappedRepresentation');
        const [item] = rep.Items;
        assert.equal(item.type, W.IFCMAPPEDITEM);
        assert.equal(item.MappingSource.expressID, map.expressID);
        const op = item.MappingTarget;
        assert.deepEqual([op.Scale.value, op.Scale2.value, op.Scale3.value], e.scale);
      }
    }

    // Nodes of one type and size share one mapped item: the two 12 m × 6 m broadleaves, the three benches.
    const bodies = new Set(expected.map((e) => `${e.type}|${e.scale.join(',')}`));
    assert.equal(bodies.size, expected.length - 3);
    assert.equal(ids(m, W.IFCMAPPEDITEM).length, bodies.size);
  } finally {
    api.CloseModel(m);
  }
});

/** Bounding box, z up in metres, of a streamed geometry's vertices taken through its transform (web-ifc's frame is y up). */
function streamedBox(g: W.IfcGeometry, t: number[]): number[] {
  const v = api.GetVertexArray(g.GetVertexData(), g.GetVertexDataSize());
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < v.length; i += 6) {
    const p = [0, 1, 2].map((r) => t[r] * v[i] + t[4 + r] * v[i + 1] + t[8 + r] * v[i + 2] + t[12 + r]);
    const zUp = [p[0], -p[2], p[1]];
    for (let r = 0; r < 3; r++) {
      box[r] = Math.min(box[r], zUp[r]);
      box[r + 3] = Math.max(box[r + 3], zUp[r]);
    }
  }
  return box;
}

function boxOf(p: ArrayLike<number>, k: number): number[] {
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i++) {
    box[i % 3] = Math.min(box[i % 3], p[i] * k);
    box[(i % 3) + 3] = Math.max(box[(i % 3) + 3], p[i] * k);
  }
  return box;
}

for (const [units, placement] of [
  ['m', 'anchor'],
  ['mm', 'absolute'],
  ['ft', 'anchor'],
] as const) {
  test(`web-ifc expands each node's mapped body where the placed model is, with its model's triangles (${units}, ${placement})`, async () => {
    const scene = streetScene(units, placement);
    const m = await open(scene);
    const k = METRES_PER_UNIT[units];
    const seen = new Set<string>();
    try {
      api.StreamAllMeshes(m, (mesh) => {
        const name = api.GetLine(m, mesh.expressID).Name.value as string;
        const node = nodesOf(scene).find((n) => nodeName(n) === name);
        const cable = name === 'way/7#0' ? scene.groups.flatMap((g) => g.polylines).find((l) => l.id === name)! : null;
        if (!node && !cable) return;
        assert.equal(mesh.geometries.size(), 1, name);
        const placed = mesh.geometries.get(0);
        const g = api.GetGeometry(m, placed.geometryExpressID);
        const box = streamedBox(g, placed.flatTransformation);
        if (node) {
          // The placed model (scale, turn, move) is what the mesh-only formats write: the mapped body must cover the same box.
          const expected = placedNodeMesh(node, units)!;
          assert.equal(g.GetIndexDataSize() / 3, expected.indices.length / 3, `${name}: its model's triangles`);
          const want = boxOf(expected.positions, k);
          for (let i = 0; i < 6; i++) assert.ok(Math.abs(box[i] - want[i]) < 1e-3, `${name} box[${i}] ${box[i]} ≠ ${want[i]}`);
        } else {
          // The cable's swept body hugs its catenary: the points' box grown by the radius.
          const want = boxOf(cable!.points, k);
          for (let i = 0; i < 6; i++) assert.ok(Math.abs(box[i] - want[i]) <= CABLE_RADIUS + 1e-3, `cable box[${i}] ${box[i]} vs ${want[i]}`);
          assert.ok(g.GetIndexDataSize() > 0);
        }
        g.delete();
        seen.add(name);
      });
      assert.equal(seen.size, nodesOf(scene).length + 1, 'every node and the cable streamed');
    } finally {
      api.CloseModel(m);
    }
  });
}

test('a wire span is a conductor segment: its catenary as the Axis curve, a swept disk as its Body, its descriptor as properties', async () => {
  const scene = streetScene('mm');
  const m = await open(scene);
  try {
    assert.deepEqual(
      lines(m, W.IFCANNOTATION).map((a) => a.ObjectType.value),
      ['centerline'],
      'cables are not annotations',
    );
    const [cable] = lines(m, W.IFCCABLESEGMENT, true);
    assert.equal(cable.Name.value, 'way/7#0');
    assert.equal(cable.ObjectType.value, 'wire');
    assert.equal(cable.PredefinedType.value, 'CONDUCTORSEGMENT');
    const reps = Object.fromEntries(cable.Representation.Representations.map((r: any) => [r.RepresentationIdentifier.value, r]));
    assert.equal(reps.Axis.RepresentationType.value, 'Curve3D');
    assert.equal(reps.Axis.ContextOfItems.ContextIdentifier.value, 'Axis');
    const [curve] = reps.Axis.Items;
    assert.equal(curve.type, W.IFCINDEXEDPOLYCURVE);
    const line = scene.groups.flatMap((g) => g.polylines).find((l) => l.kind === 'wire')!;
    assert.deepEqual(
      curve.Points.CoordList.flat().map((c: any) => c.value),
      [...line.points],
    );
    assert.equal(reps.Body.RepresentationType.value, 'AdvancedSweptSolid');
    const [disk] = reps.Body.Items;
    assert.equal(disk.Directrix.expressID, curve.expressID);
    assert.equal(disk.Radius.value, CABLE_RADIUS * 1000, 'the radius in the file unit (mm)');

    const contained = lines(m, W.IFCRELCONTAINEDINSPATIALSTRUCTURE).flatMap((r) => r.RelatedElements.map((e: any) => e.value));
    assert.ok(contained.includes(cable.expressID), 'the cable stands in the site');
    const rel = lines(m, W.IFCRELDEFINESBYPROPERTIES).find((r) => r.RelatedObjects.some((o: any) => o.value === cable.expressID))!;
    const pset = api.GetLine(m, rel.RelatingPropertyDefinition.value, true);
    const props = Object.fromEntries(pset.HasProperties.map((p: any) => [p.Name.value, p.NominalValue.value]));
    assert.deepEqual(props, { type: 'wire', id: 'way/7', span: 0 });
  } finally {
    api.CloseModel(m);
  }
});

test('the same scene gives the same bytes, and GlobalIds follow names, not the order nodes arrive in', async () => {
  const once = (await writeIfc(streetScene())).bytes as Uint8Array;
  const twice = (await writeIfc(streetScene())).bytes as Uint8Array;
  assert.ok(Buffer.from(once).equals(Buffer.from(twice)), 'byte-identical');

  const reversed = streetScene();
  for (const g of reversed.groups) g.nodes.reverse();
  const guids = async (bytes: Uint8Array) => {
    const m = api.OpenModel(bytes);
    try {
      const entities = [W.IFCGEOGRAPHICELEMENT, W.IFCFURNITURE, W.IFCBUILDINGELEMENTPROXY, W.IFCLIGHTFIXTURE, W.IFCFIRESUPPRESSIONTERMINAL, W.IFCCABLESEGMENT];
      const types = [W.IFCGEOGRAPHICELEMENTTYPE, W.IFCFURNITURETYPE, W.IFCBUILDINGELEMENTPROXYTYPE, W.IFCLIGHTFIXTURETYPE, W.IFCFIRESUPPRESSIONTERMINALTYPE];
      return new Map([...entities, ...types].flatMap((t) => lines(m, t).map((e) => [`${e.Name.value}`, e.GlobalId.value])));
    } finally {
      api.CloseModel(m);
    }
  };
  const a = await guids(once),
    b = await guids((await writeIfc(reversed)).bytes as Uint8Array);
  assert.equal(a.size, nodesOf(reversed).length + 8 + 3 + 1, 'nodes, types, ground, terrain and building, the cable');
  assert.deepEqual(b, a);
});

test("the header's time stamp is fixed unless the caller gives one", async () => {
  const header = async (options?: { timestamp?: string }) => {
    const text = new TextDecoder().decode(((await writeIfc(sampleScene(), options)).bytes as Uint8Array).subarray(0, 400));
    return text.match(/FILE_NAME\('[^']*','([^']*)'/)![1];
  };
  assert.equal(await header(), FIXED_TIMESTAMP);
  assert.match(FIXED_TIMESTAMP, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/, 'an ISO 8601 date-time');
  assert.equal(await header({ timestamp: '2026-11-28T05:00:00' }), '2026-11-28T05:00:00');
});
