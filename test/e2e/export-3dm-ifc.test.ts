/**
 * 3dm and IFC exports through the real app and worker pool on the Monaco store (issue 10): every
 * group and feature of the JSON answer is in the file as its reader sees it, and a known OSM
 * building corner lands where proj4 puts it, to 1 mm, for every placement × crs × units — read
 * with the file's own georeference (3dm document text, IFC map conversion).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import rhino3dm, { type File3dm, type RhinoModule } from 'rhino3dm';
import * as W from 'web-ifc';
import { METRES_PER_UNIT, type ExportUnits } from '../../src/export/scene.ts';
import type { RunningService } from '../../src/service.ts';
import { postContext } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';
import { BUILDING, cornerIn, ORIGIN, POLYGON, startExportApp, type ExportApp } from '../support/service/export-app.ts';
import { MemoryExportStore } from '../support/stores/memory-export-store.ts';

let svc: RunningService;
let url: string;
let app: ExportApp;
let rh: RhinoModule;
let ifc: W.IfcAPI;
const store = new MemoryExportStore();

before(async () => {
  app = await startExportApp({ store });
  ({ svc, url } = app);
  rh = await rhino3dm();
  ifc = new W.IfcAPI();
  await ifc.Init(undefined, true);
  ifc.SetLogLevel(W.LogLevel.LOG_LEVEL_OFF);
});
after(async () => {
  await app?.close();
});

async function key(balanceKm2 = 100): Promise<string> {
  const account = await svc.accounts.createAccount({ name: `x${Math.random()}`, balanceKm2, active: true });
  return (await svc.accounts.createKey(account.id, 'development')).key;
}

async function exportBytes(k: string, body: unknown): Promise<{ bytes: Uint8Array; spatialReference: any }> {
  const a = await postContext(url, k, body);
  assert.equal(a.status, 200, a.text);
  return { bytes: store.bytesOf(a.json.downloadUrl)!, spatialReference: a.json.spatialReference };
}

/** Objects per top-level layer (group) of a 3dm, block geometry left out (nodes count by their block instances). */
function objectsPerGroup(doc: File3dm): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < doc.objects().count; i++) {
    const a = doc.objects().get(i).attributes();
    if (a.isInstanceDefinitionObject) continue;
    const group = doc.layers().get(a.layerIndex).fullPath.split('::')[0];
    out.set(group, (out.get(group) ?? 0) + 1);
  }
  return out;
}

/**
 * Every instance-group object a block instance (or a cable's polyline curve), each naming a block
 * definition of the file whose geometry is a mesh; every definition used.
 */
function assertBlocks(doc: File3dm): void {
  const definitions = new Map<string, string[]>();
  for (let i = 0; i < doc.instanceDefinitions().count; i++) {
    const d = doc.instanceDefinitions().get(i);
    definitions.set(d.id, d.getObjectIds() as unknown as string[]);
  }
  const meshes = new Set<string>(),
    used = new Set<string>(),
    kinds = new Map<string, number>();
  for (let i = 0; i < doc.objects().count; i++) {
    const o = doc.objects().get(i),
      a = o.attributes(),
      g = o.geometry() as any;
    if (a.isInstanceDefinitionObject) {
      if (g.constructor.name === 'Mesh' && g.faces().triangleCount > 0) meshes.add(a.id);
      continue;
    }
    if (!doc.layers().get(a.layerIndex).fullPath.startsWith('instances::')) continue;
    kinds.set(g.constructor.name, (kinds.get(g.constructor.name) ?? 0) + 1);
    if (g.constructor.name === 'InstanceReference') used.add(g.parentIdefId);
  }
  assert.deepEqual(
    [...kinds.keys()].filter((k) => k !== 'InstanceReference' && k !== 'PolylineCurve'),
    [],
    'nodes are blocks, cables curves',
  );
  assert.ok((kinds.get('InstanceReference') ?? 0) > 0, 'block instances');
  assert.deepEqual([...used].sort(), [...definitions.keys()].sort(), 'one definition per model used');
  for (const ids of definitions.values()) assert.ok(ids.length > 0 && ids.every((id) => meshes.has(id)), 'definition geometry is meshes');
}

/** Elements of an IFC in every class the writer uses (street objects by kind: docs/exports.md; wires as cable segments). */
function ifcElementCount(m: number): number {
  return [
    W.IFCBUILDINGELEMENTPROXY,
    W.IFCGEOGRAPHICELEMENT,
    W.IFCANNOTATION,
    W.IFCFURNITURE,
    W.IFCLIGHTFIXTURE,
    W.IFCFIRESUPPRESSIONTERMINAL,
    W.IFCCABLESEGMENT,
  ].reduce((s, t) => s + ifc.GetLineIDsWithType(m, t).size(), 0);
}

test('every group and feature of the JSON answer is in the 3dm and the IFC, read back on real data with terrain', async () => {
  const k = await key();
  const polygon = square(43.7345, 7.4195, 350);
  const settings = { geometry: ['buildings', 'surface', 'barriers', 'instances', 'topography'], projectToTopography: true };
  const json = await postContext(url, k, { polygon, settings: { ...settings, surfaceTypes: ['meshes'], topographyReturnType: 'meshes', upAxis: 'Z' } });
  assert.equal(json.status, 200);
  const want = new Map<string, number>(json.json.geometry.map((g: any) => [g.type, (g.meshes ?? g.nodes ?? g.polylines).length]));
  for (const g of ['buildings', 'barriers', 'instances', 'topography']) assert.ok((want.get(g) ?? 0) > 0, `${g} not empty`);

  const rhino = rh.File3dm.fromByteArray((await exportBytes(k, { polygon, settings, export: { format: '3dm', crs: 'EPSG:32632' } })).bytes);
  assert.deepEqual(objectsPerGroup(rhino), want);
  assertBlocks(rhino);

  const file = await exportBytes(k, { polygon, settings, export: { format: 'ifc', crs: 'EPSG:32632' } });
  const m = ifc.OpenModel(file.bytes);
  try {
    const total = [...want.values()].reduce((s, n) => s + n, 0);
    assert.equal(ifcElementCount(m), total);
    assert.equal(ifc.GetLineIDsWithType(m, W.IFCBUILDING).size(), want.get('buildings'));
    let streamed = 0;
    ifc.StreamAllMeshes(m, () => {
      streamed++;
    });
    assert.equal(streamed, total, 'every feature streams geometry (nodes their mapped model, cables their swept body)');
  } finally {
    ifc.CloseModel(m);
  }
});

/** The building's vertices in the file's units and coordinates, with how to take them to grid metres. */
function cornerCandidates3dm(doc: File3dm, units: ExportUnits): number[][] {
  const text = Object.fromEntries(Array.from({ length: doc.strings().count }, (_, i) => doc.strings().get(i) as unknown as [string, string]));
  const [gx, gy] = text['CityContext.originGrid'].split(' ').map(Number);
  const base = doc.settings().earthAnchorPoint.modelBasePoint,
    k = METRES_PER_UNIT[units];
  for (let i = 0; i < doc.objects().count; i++) {
    const o = doc.objects().get(i);
    if (o.attributes().name !== BUILDING) continue;
    const vertices = (o.geometry() as any).vertices();
    return Array.from({ length: vertices.count }, (_, j) => {
      const [x, y, z] = vertices.point3dAt(j) as number[];
      return [(x - base[0] + gx) * k, (y - base[1] + gy) * k, z * k];
    });
  }
  throw new Error(`${BUILDING} not in the 3dm`);
}

function cornerCandidatesIfc(bytes: Uint8Array): number[][] {
  const m = ifc.OpenModel(bytes);
  try {
    const conv = ifc.GetLine(m, ifc.GetLineIDsWithType(m, W.IFCMAPCONVERSION).get(0));
    const proxy = [...ifc.GetLineIDsWithType(m, W.IFCBUILDINGELEMENTPROXY)].map((id) => ifc.GetLine(m, id)).find((p) => p.Name.value === BUILDING);
    const coords = ifc.GetLine(m, proxy.Representation.value, true).Representations[0].Items[0].Coordinates.CoordList;
    const s = conv.Scale.value;
    return coords.map((c: any[]) => [s * c[0].value + conv.Eastings.value, s * c[1].value + conv.Northings.value, s * c[2].value]);
  } finally {
    ifc.CloseModel(m);
  }
}

test('a known OSM building corner lands where proj4 puts it, to 1 mm, for every placement × crs × units (3dm, ifc)', async () => {
  const k = await key(1000);
  for (const crs of ['local', 'EPSG:32632', 'EPSG:2154', 'EPSG:3857']) {
    const [wantE, wantN] = cornerIn(crs);
    for (const placement of ['anchor', 'absolute']) {
      for (const units of ['m', 'mm', 'ft', 'in'] as const) {
        const body = (format: string) => ({
          polygon: POLYGON,
          origin: ORIGIN,
          settings: { geometry: ['buildings'] },
          export: { format, crs, placement, units },
        });
        const r = await exportBytes(k, body('3dm'));
        assert.equal(r.spatialReference.units, units);
        const i = await exportBytes(k, body('ifc'));
        for (const [format, points] of [
          ['3dm', cornerCandidates3dm(rh.File3dm.fromByteArray(r.bytes), units)],
          ['ifc', cornerCandidatesIfc(i.bytes)],
        ] as const) {
          const best = Math.min(...points.map(([e, n, h]) => Math.hypot(e - wantE, n - wantN, h)));
          assert.ok(best < 1e-3, `${format} ${crs} ${placement} ${units}: corner off by ${(best * 1000).toFixed(2)} mm`);
        }
      }
    }
  }
});
