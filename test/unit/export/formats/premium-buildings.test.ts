/**
 * Premium buildings in every export format, on the real sample meshes (Berlin CityGML, Zürich
 * CityJSON; test/support/scenes/premium-scene.ts): roof, wall and floor triangles on separate
 * materials or layers, exactly as many per role as the descriptors' `surfaces` ranges say, judged
 * by independent readers (gltf-validator and @gltf-transform, assimp, xmllint, ezdxf, rhino3dm,
 * web-ifc); the descriptor (dataset, lod, id) where the format carries metadata. A building without
 * ranges stays one `building` material beside them.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import rhino3dm, { type RhinoModule } from 'rhino3dm';
import * as W from 'web-ifc';
import { glbPieces } from '../../../../src/export/formats/gltf.ts';
import { writeObj } from '../../../../src/export/formats/obj.ts';
import { writeDae } from '../../../../src/export/formats/dae.ts';
import { writeDxf } from '../../../../src/export/formats/dxf.ts';
import { writeRhino3dm } from '../../../../src/export/formats/rhino3dm.ts';
import { PROPERTY_SET_NAME, writeIfc } from '../../../../src/export/formats/ifc.ts';
import { writePly } from '../../../../src/export/formats/ply.ts';
import { writeStl } from '../../../../src/export/formats/stl.ts';
import { kindColour } from '../../../../src/export/formats/palette.ts';
import { joinBytes } from '../../../../src/export/formats/text-sink.ts';
import type { ExportMesh, ExportScene } from '../../../../src/export/scene.ts';
import {
  COLLADA_CATALOG,
  COLLADA_XSD,
  assimpTrianglesPerMaterial,
  plyVertices,
  run,
  stlPositions,
  unzip,
  writeTemp,
} from '../../../support/checks/export-readers.ts';
import { readDxf } from '../../../support/checks/dxf-reader.ts';
import { free } from '../../../support/checks/rhino3dm-free.ts';
import { problems, validateGltf } from '../../../support/checks/gltf-validate.ts';
import { premiumSampleMeshes, premiumScene, trianglesPerRoleKind } from '../../../support/scenes/premium-scene.ts';

let meshes: ExportMesh[];
let scene: ExportScene;
/** Triangles each material / layer kind must hold: the ranges' sums, plus the box building's 12 as `building`. */
let expected: Record<string, number>;
let total: number;

before(async () => {
  meshes = await premiumSampleMeshes();
  scene = premiumScene(meshes);
  const perRole = trianglesPerRoleKind(meshes);
  expected = { ...perRole, building: (perRole.building ?? 0) + 12 };
  total = Object.values(expected).reduce((a, b) => a + b, 0);
});

const sorted = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1)));

test('the scene: 222 real premium meshes with roof, wall and floor ranges that cover their triangles', () => {
  assert.equal(meshes.length, 222);
  for (const m of meshes) {
    const s = m.descriptor.surfaces as Record<string, [number, number]>;
    assert.equal(s.roof[1] + s.wall[1] + s.floor[1] + s.other[1], m.indices.length / 3, m.id);
  }
  assert.ok(expected.buildingRoof > 1000 && expected.buildingWall > 1000 && expected.buildingFloor > 500, JSON.stringify(expected));
});

test('GLB: valid (Khronos validator); per premium node one primitive per role on its material; descriptor in extras', async () => {
  const f = glbPieces(scene);
  const bytes = Array.isArray(f.bytes) ? joinBytes(f.bytes) : f.bytes;
  const report = await validateGltf(bytes);
  assert.equal(report.issues.numErrors, 0, problems(report));
  const doc = await new NodeIO().readBinary(bytes);
  const counts: Record<string, number> = {};
  let premium = 0;
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const names = mesh.listPrimitives().map((p) => p.getMaterial()!.getName());
    assert.equal(new Set(names).size, names.length, `${node.getName()}: one primitive per material`);
    for (const p of mesh.listPrimitives()) counts[p.getMaterial()!.getName()] = (counts[p.getMaterial()!.getName()] ?? 0) + p.getIndices()!.getCount() / 3;
    const d = (node.getExtras() as { descriptor: Record<string, unknown> }).descriptor;
    if (d.dataTier !== 'premium') continue;
    premium++;
    assert.match(String(d.id), /^(berlin|zurich)-sample:/);
    assert.ok(typeof d.datasetName === 'string' && [0, 1, 2].includes(d.lod as number), node.getName());
  }
  assert.equal(premium, meshes.length);
  assert.deepEqual(sorted(counts), sorted(expected));
  // roofs and walls look different
  const colour = (name: string) =>
    doc
      .getRoot()
      .listMaterials()
      .find((m) => m.getName() === name)!
      .getBaseColorFactor()
      .join(',');
  assert.notEqual(colour('buildingRoof'), colour('buildingWall'));
});

test('OBJ: assimp reads each role under its own material, as many triangles as the ranges', () => {
  const dir = unzip(writeTemp(writeObj(scene), 'premium'));
  assert.deepEqual(sorted(assimpTrianglesPerMaterial(join(dir, `${scene.name}.obj`))), sorted(expected));
});

test('DAE: valid COLLADA 1.4.1 (xmllint, schema); assimp reads each role as its own material; the descriptor in each node extra', () => {
  const file = writeDae(scene);
  const path = writeTemp(file, 'premium');
  run('xmllint', ['--noout', '--nonet', '--schema', COLLADA_XSD, path], { XML_CATALOG_FILES: COLLADA_CATALOG });
  assert.deepEqual(sorted(assimpTrianglesPerMaterial(path)), sorted(expected));
  const extras = run('xmllint', ['--xpath', 'count(//*[local-name()="descriptor"][contains(., "datasetName")])', path]);
  assert.equal(Number(extras.trim()), meshes.length);
});

test('DXF: ezdxf audits 0 errors; 3DFACEs on buildings-buildingRoof, -buildingWall, -buildingFloor as the ranges, layer colours apart', () => {
  const [dxf] = readDxf([writeTemp(writeDxf(scene), 'premium')]);
  assert.equal(dxf.errors, 0);
  assert.deepEqual(sorted(dxf.faces), sorted(Object.fromEntries(Object.entries(expected).map(([k, n]) => [`buildings-${k}`, n]))));
  assert.notDeepEqual(dxf.layerColours['buildings-buildingRoof'][1], dxf.layerColours['buildings-buildingWall'][1]);
});

let rh: RhinoModule;
test('3dm: rhino3dm reads one mesh object per role on buildings::<kind> layers, named <id>#<role>, the descriptor and role as user strings', async () => {
  rh ??= await rhino3dm();
  const doc = rh.File3dm.fromByteArray((await writeRhino3dm(scene)).bytes)!;
  const counts: Record<string, number> = {};
  const roles = new Set<string>();
  for (let i = 0; i < doc.objects().count; i++) {
    const o = doc.objects().get(i),
      a = o.attributes();
    const layer = doc.layers().get(a.layerIndex).fullPath;
    const triangles = (o.geometry() as any).faces().triangleCount as number;
    counts[layer.replace('buildings::', '')] = (counts[layer.replace('buildings::', '')] ?? 0) + triangles;
    const strings = Object.fromEntries(a.getUserStrings() as unknown as [string, string][]);
    if (a.name === 'way/1') continue;
    const [id, role] = a.name.split('#');
    assert.equal(strings.id, id);
    assert.equal(strings.surface, role);
    assert.ok(strings.datasetName && strings.lod && strings.surfaces === undefined, a.name);
    roles.add(role);
  }
  assert.deepEqual(sorted(counts), sorted(expected));
  assert.deepEqual([...roles].sort(), ['floor', 'other', 'roof', 'wall']);
  const layerColour = (path: string) => {
    for (let i = 0; i < doc.layers().count; i++) if (doc.layers().get(i).fullPath === path) return JSON.stringify(doc.layers().get(i).color);
  };
  assert.notEqual(layerColour('buildings::buildingRoof'), layerColour('buildings::buildingWall'));
  free(doc);
});

test('IFC: web-ifc reads an IfcRoof, IfcWall and IfcSlab (base slab) per premium part, their triangles as the ranges, the descriptor with the role as property set', async () => {
  const api = new W.IfcAPI();
  await api.Init(undefined, true);
  api.SetLogLevel(W.LogLevel.LOG_LEVEL_OFF);
  const m = api.OpenModel((await writeIfc(scene)).bytes);
  try {
    const lines = (type: number) => [...api.GetLineIDsWithType(m, type)].map((id) => api.GetLine(m, id));
    const withRole = (role: string) => meshes.filter((x) => (x.descriptor.surfaces as Record<string, number[]>)[role][1] > 0).length;
    const roofs = lines(W.IFCROOF),
      walls = lines(W.IFCWALL),
      slabs = lines(W.IFCSLAB);
    assert.equal(roofs.length, withRole('roof'));
    assert.equal(walls.length, withRole('wall'));
    assert.equal(slabs.length, withRole('floor'));
    assert.ok(slabs.every((s) => s.PredefinedType.value === 'BASESLAB' && /#floor$/.test(s.Name.value)));
    assert.ok(roofs.every((r) => r.ObjectType.value === 'buildingRoof' && /^(berlin|zurich)-sample:.*#roof$/.test(r.Name.value)));
    assert.equal(lines(W.IFCBUILDING).length, meshes.length + 1);

    const triangles: Record<string, number> = {};
    api.StreamAllMeshes(m, (mesh) => {
      const kind = api.GetLine(m, mesh.expressID).ObjectType.value as string;
      for (let i = 0; i < mesh.geometries.size(); i++) {
        const g = api.GetGeometry(m, mesh.geometries.get(i).geometryExpressID);
        triangles[kind] = (triangles[kind] ?? 0) + g.GetIndexDataSize() / 3;
        g.delete();
      }
    });
    assert.deepEqual(sorted(triangles), sorted(expected));

    // the roof's property set: the part's descriptor and its role, without the ranges
    const roof = roofs[0].expressID;
    const rel = lines(W.IFCRELDEFINESBYPROPERTIES).find((r) => r.RelatedObjects.some((o: any) => o.value === roof))!;
    const pset = api.GetLine(m, rel.RelatingPropertyDefinition.value, true);
    assert.equal(pset.Name.value, PROPERTY_SET_NAME);
    const props = Object.fromEntries(pset.HasProperties.map((p: any) => [p.Name.value, p.NominalValue.value]));
    assert.equal(props.surface, 'roof');
    assert.equal(props.dataTier, 'premium');
    assert.equal(`${props.id}#roof`, roofs[0].Name.value);
    assert.ok(props.datasetName && typeof props.lod === 'number' && props.surfaces === undefined, JSON.stringify(props));
  } finally {
    api.CloseModel(m);
  }
});

test('PLY: every triangle, roof vertices in the roof colour and wall vertices in the wall colour; STL: every triangle', () => {
  const ply = plyVertices(writePly(scene).bytes);
  const rgb = (kind: string) =>
    kindColour(kind)
      .map((c) => Math.round(c * 255))
      .join(',');
  const perColour: Record<string, number> = {};
  for (let i = 0; i < ply.rgb.length; i += 3) {
    const c = ply.rgb.slice(i, i + 3).join(',');
    perColour[c] = (perColour[c] ?? 0) + 1;
  }
  for (const kind of ['buildingRoof', 'buildingWall', 'buildingFloor']) assert.ok(perColour[rgb(kind)] > 100, `${kind}: ${JSON.stringify(perColour)}`);
  assert.equal(Number(/^element face (\d+)$/m.exec(ply.header)![1]), total);
  assert.equal(stlPositions(writeStl(scene).bytes).length / 9, total);
});
