/**
 * Every vertex of an exported file (or of the known building where the format names it) taken to
 * grid metres [east, north, height] through the file's own georeference: what the precision tests
 * compare with the exact projection of a known corner. One reader per format, the independent
 * ones the other export tests use (gltf-transform, python zipfile, ezdxf, rhino3dm, web-ifc,
 * plain parsing of STL, PLY and COLLADA).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeIO, type Node } from '@gltf-transform/core';
import type { RhinoModule } from 'rhino3dm';
import * as W from 'web-ifc';
import { METRES_PER_UNIT, type ExportUnits } from '../../../src/export/scene.ts';
import { daePositions, objPositions, plyVertices, PYTHON, run, stlPositions, unzip } from './export-readers.ts';

const DXF_READER = new URL('../../fixtures/dxf/read-dxf.py', import.meta.url).pathname;

export interface CornerReaders {
  rhino: RhinoModule;
  ifc: W.IfcAPI;
}

/** The candidates of `format`'s file, in grid metres (anchor files moved by the origin's grid position they state). */
export async function gridVertices(format: string, bytes: Uint8Array, units: ExportUnits, building: string, readers: CornerReaders): Promise<number[][]> {
  if (format === 'glb' || format === 'gltf') return gltfVertices(format, bytes, building);
  if (format === '3dm') return rhinoVertices(readers.rhino, bytes, units, building);
  if (format === 'ifc') return ifcVertices(readers.ifc, bytes, building);
  const { xyz, note } = meshFileVertices(format, bytes);
  // anchor: the file's own note says where (0, 0, 0) lies in the grid (absolute and local: 0, 0)
  const m = /grid E (-?[\d.]+), N (-?[\d.]+)/.exec(note) ?? /E0=(-?[\d.]+) N0=(-?[\d.]+)/.exec(note);
  const base = m && /anchor/.test(note) ? [Number(m[1]), Number(m[2])] : [0, 0];
  const k = METRES_PER_UNIT[units];
  const out: number[][] = [];
  for (let i = 0; i < xyz.length; i += 3) out.push([(base[0] + xyz[i]) * k, (base[1] + xyz[i + 1]) * k, xyz[i + 2] * k]);
  return out;
}

/** Positions (file units) and the georeference note of an OBJ, STL, PLY, DAE or DXF file. */
export function meshFileVertices(format: string, bytes: Uint8Array): { xyz: number[]; note: string } {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-corner-'));
  const path = join(dir, `file.${format === 'obj' ? 'obj.zip' : format}`);
  writeFileSync(path, bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  switch (format) {
    case 'obj': {
      const unzipped = unzip(path);
      const name = run(PYTHON, ['-c', `import zipfile,sys; print([n for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.endswith('.obj')][0])`, path]).trim();
      const obj = readFileSync(join(unzipped, name), 'utf8');
      return { xyz: objPositions(obj), note: obj.slice(0, 4096) };
    }
    case 'stl':
      return { xyz: stlPositions(bytes), note: head.slice(0, 80) };
    case 'ply': {
      const p = plyVertices(bytes);
      return { xyz: p.xyz, note: p.header };
    }
    case 'dae': {
      const xml = new TextDecoder().decode(bytes);
      return { xyz: daePositions(xml), note: xml.slice(0, 4096) };
    }
    case 'dxf': {
      const r = JSON.parse(run(PYTHON, [DXF_READER, path])) as { errors: number; points: number[]; comments: string[] };
      if (r.errors) throw new Error(`ezdxf: ${r.errors} errors`);
      return { xyz: r.points, note: r.comments.join('\n') };
    }
    default:
      throw new Error(`no reader for ${format}`);
  }
}

async function gltfVertices(format: string, bytes: Uint8Array, building: string): Promise<number[][]> {
  const io = new NodeIO();
  const doc = format === 'glb' ? await io.readBinary(bytes) : await io.readJSON({ json: JSON.parse(new TextDecoder().decode(bytes)), resources: {} });
  const geo = (doc.getRoot().listScenes()[0].getExtras() as any).cityContext.georeference;
  const base = geo.placement === 'anchor' ? geo.originGrid : [0, 0];
  const out: number[][] = [];
  for (const node of doc.getRoot().listNodes()) {
    if (node.getName() !== building || !node.getMesh()) continue;
    const t = [0, 0, 0];
    for (let n: Node | null = node; n; n = n.getParentNode()) {
      const [x, y, z] = n.getTranslation();
      t[0] += x;
      t[1] += y;
      t[2] += z;
    }
    for (const prim of node.getMesh()!.listPrimitives()) {
      const pos = prim.getAttribute('POSITION')!;
      for (let i = 0; i < pos.getCount(); i++) {
        const [x, y, z] = pos.getElement(i, [0, 0, 0]) as number[];
        // world (X, Y, Z) = (E − E0, h, N0 − N) in anchor, (E, h, −N) in absolute (docs/exports.md)
        out.push([base[0] + (x + t[0]), base[1] - (z + t[2]), y + t[1]]);
      }
    }
  }
  return out;
}

function rhinoVertices(rh: RhinoModule, bytes: Uint8Array, units: ExportUnits, building: string): number[][] {
  const doc = rh.File3dm.fromByteArray(bytes);
  const text = Object.fromEntries(Array.from({ length: doc.strings().count }, (_, i) => doc.strings().get(i) as unknown as [string, string]));
  const [gx, gy] = text['CityContext.originGrid'].split(' ').map(Number);
  const base = doc.settings().earthAnchorPoint.modelBasePoint,
    k = METRES_PER_UNIT[units];
  const out: number[][] = [];
  for (let i = 0; i < doc.objects().count; i++) {
    const o = doc.objects().get(i);
    if (o.attributes().name !== building) continue;
    const vertices = (o.geometry() as any).vertices();
    for (let j = 0; j < vertices.count; j++) {
      const [x, y, z] = vertices.point3dAt(j) as number[];
      out.push([(x - base[0] + gx) * k, (y - base[1] + gy) * k, z * k]);
    }
  }
  return out;
}

function ifcVertices(ifc: W.IfcAPI, bytes: Uint8Array, building: string): number[][] {
  const m = ifc.OpenModel(bytes);
  try {
    const conv = ifc.GetLine(m, ifc.GetLineIDsWithType(m, W.IFCMAPCONVERSION).get(0));
    const proxy = [...ifc.GetLineIDsWithType(m, W.IFCBUILDINGELEMENTPROXY)].map((id) => ifc.GetLine(m, id)).find((p) => p.Name.value === building);
    const coords = ifc.GetLine(m, proxy.Representation.value, true).Representations[0].Items[0].Coordinates.CoordList;
    const s = conv.Scale.value;
    return coords.map((c: any[]) => [s * c[0].value + conv.Eastings.value, s * c[1].value + conv.Northings.value, s * c[2].value]);
  } finally {
    ifc.CloseModel(m);
  }
}
