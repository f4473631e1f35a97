/**
 * Every triangle of an exported file as one Z-up triangle soup in metres (9 numbers per
 * triangle), read by the same independent readers as the other export tests: gltf-transform for
 * glTF (node world matrices applied, Y-up turned Z-up), plain parsing of the formats' own layouts
 * for OBJ (in its zip), STL, PLY and COLLADA, python3-ezdxf for DXF, rhino3dm for 3dm and web-ifc
 * for IFC (its placements applied). Formats without a unit in the file (OBJ, STL, PLY) take the
 * one the export answer's `spatialReference` states.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import type { RhinoModule } from 'rhino3dm';
import type * as W from 'web-ifc';
import { objPositions, plyVertices, PYTHON, run, stlPositions, unzip } from './export-readers.ts';

const READ_DXF = new URL('../../fixtures/dxf/read-dxf.py', import.meta.url).pathname;

/** What the readers need beyond the file: rhino3dm and web-ifc, loaded once by the caller. */
export interface SoupReaders {
  rhino: RhinoModule;
  ifc: W.IfcAPI;
}

/** glTF's Y-up (x, y, z) is Z-up (x, −z, y). */
function pushYUp(out: number[], x: number, y: number, z: number): void {
  out.push(x, -z, y);
}

/** A column-major 4×4 matrix applied to a point. */
function transform(m: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  return [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
}

/** glb or gltf (buffer as a data: URI) at `path`: every TRIANGLES primitive of every node, in world space. */
export async function gltfSoup(path: string): Promise<number[]> {
  const doc = await new NodeIO().read(path);
  const out: number[] = [];
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const world = node.getWorldMatrix();
    for (const prim of mesh.listPrimitives()) {
      if (prim.getMode() !== 4) continue; // lines have no faces
      const pos = prim.getAttribute('POSITION')!,
        idx = prim.getIndices();
      const count = idx ? idx.getCount() : pos.getCount();
      const p = [0, 0, 0];
      for (let i = 0; i < count; i++) {
        pos.getElement(idx ? idx.getScalar(i) : i, p);
        pushYUp(out, ...transform(world, p[0], p[1], p[2]));
      }
    }
  }
  return out;
}

/** An OBJ zip: `v` and `f` lines of its .obj (faces fanned, negative indices honoured). */
export function objSoup(zipPath: string, metresPerUnit: number): number[] {
  const dir = unzip(zipPath);
  const name = readdirSync(dir).find((f) => f.endsWith('.obj'));
  if (!name) throw new Error(`no .obj in ${zipPath}`);
  const text = readFileSync(join(dir, name), 'utf8');
  const v = objPositions(text),
    out: number[] = [];
  const corner = (ref: string): number => {
    const i = Number(ref.split('/')[0]);
    return i < 0 ? v.length / 3 + i : i - 1;
  };
  for (const m of text.matchAll(/^f (.+)$/gm)) {
    const ix = m[1].trim().split(/\s+/).map(corner);
    for (let k = 1; k + 1 < ix.length; k++)
      for (const i of [ix[0], ix[k], ix[k + 1]]) out.push(v[3 * i] * metresPerUnit, v[3 * i + 1] * metresPerUnit, v[3 * i + 2] * metresPerUnit);
  }
  return out;
}

export function stlSoup(bytes: Uint8Array, metresPerUnit: number): number[] {
  return stlPositions(bytes).map((c) => c * metresPerUnit);
}

/** Binary PLY: its vertex table, then its face lists (fanned). */
export function plySoup(bytes: Uint8Array, metresPerUnit: number): number[] {
  const { header, xyz } = plyVertices(bytes);
  if (!/element face \d+\nproperty list uchar uint vertex_indices\n/.test(header)) throw new Error(`unexpected PLY face layout:\n${header}`);
  const faces = Number(/^element face (\d+)$/m.exec(header)![1]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = new TextEncoder().encode(header).length + (xyz.length / 3) * 27;
  const out: number[] = [];
  for (let f = 0; f < faces; f++) {
    const n = view.getUint8(o);
    const ix = Array.from({ length: n }, (_, k) => view.getUint32(o + 1 + 4 * k, true));
    o += 1 + 4 * n;
    for (let k = 1; k + 1 < n; k++)
      for (const i of [ix[0], ix[k], ix[k + 1]]) out.push(xyz[3 * i] * metresPerUnit, xyz[3 * i + 1] * metresPerUnit, xyz[3 * i + 2] * metresPerUnit);
  }
  return out;
}

/**
 * COLLADA: each `<instance_geometry>` of the visual scene draws its geometry's `<triangles>` over
 * its `<float_array>`, scaled by `<unit meter>`. Node transforms are refused rather than ignored:
 * this reader would put such geometry in the wrong place.
 */
export function daeSoup(xml: string): number[] {
  if (!/<up_axis>Z_UP<\/up_axis>/.test(xml)) throw new Error('COLLADA file not Z_UP');
  const scene = xml.slice(xml.indexOf('<library_visual_scenes>'));
  if (/<(matrix|translate|rotate|scale|lookat|skew)\b/.test(scene)) throw new Error('COLLADA node transforms are not read by this test reader');
  const k = Number(/<unit [^>]*meter="([^"]+)"/.exec(xml)?.[1] ?? 1);
  const geometries = new Map<string, number[]>();
  for (const g of xml.matchAll(/<geometry id="([^"]+)"[^>]*>([\s\S]*?)<\/geometry>/g)) {
    const positions = /<float_array[^>]*>([^<]*)<\/float_array>/
      .exec(g[2])![1]
      .split(' ')
      .map((s) => Number(s) * k);
    const out: number[] = [];
    for (const t of g[2].matchAll(/<triangles[^>]*>([\s\S]*?)<\/triangles>/g)) {
      if ((t[1].match(/<input /g) ?? []).length !== 1) throw new Error('COLLADA triangles with more than one input are not read by this test reader');
      for (const i of /<p>([^<]*)<\/p>/.exec(t[1])![1].split(' ').map(Number)) out.push(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
    }
    geometries.set(g[1], out);
  }
  return [...scene.matchAll(/<instance_geometry url="#([^"]+)"/g)].flatMap((m) => geometries.get(m[1]) ?? []);
}

/** $INSUNITS codes of the units our writers use. */
const DXF_UNITS: Record<number, number> = { 1: 0.0254, 2: 0.3048, 4: 0.001, 6: 1 };

/** DXF through ezdxf (test/fixtures/dxf/read-dxf.py): every 3DFACE's three corners. */
export function dxfSoup(path: string): number[] {
  const r = JSON.parse(run(PYTHON, [READ_DXF, path])) as { errors: number; insunits: number; points: number[] };
  if (r.errors) throw new Error(`ezdxf audit: ${r.errors} errors in ${path}`);
  const k = DXF_UNITS[r.insunits];
  if (!k) throw new Error(`DXF $INSUNITS ${r.insunits} not known to this reader`);
  return r.points.map((c) => c * k);
}

/** 3dm through rhino3dm: every mesh object's faces (quads split), in the document's unit; block geometry (nodes' models at the origin) left out. */
export function rhinoSoup(bytes: Uint8Array, rh: RhinoModule): number[] {
  const doc = rh.File3dm.fromByteArray(bytes);
  const units = new Map<unknown, number>([
    [rh.UnitSystem.Meters, 1],
    [rh.UnitSystem.Millimeters, 0.001],
    [rh.UnitSystem.Feet, 0.3048],
    [rh.UnitSystem.Inches, 0.0254],
  ]);
  const k = units.get(doc.settings().modelUnitSystem);
  if (k === undefined) throw new Error('3dm unit system not known to this reader');
  const out: number[] = [];
  for (let i = 0; i < doc.objects().count; i++) {
    const o = doc.objects().get(i),
      g = o.geometry() as any;
    if (g.objectType !== rh.ObjectType.Mesh || o.attributes().isInstanceDefinitionObject) continue;
    const vertices = g.vertices(),
      faces = g.faces();
    const push = (v: number) => out.push(...(vertices.point3dAt(v) as number[]).map((c) => c * k));
    for (let f = 0; f < faces.count; f++) {
      const [a, b, c, d] = faces.get(f) as number[];
      for (const v of [a, b, c]) push(v);
      if (c !== d) for (const v of [a, c, d]) push(v);
    }
  }
  return out;
}

/** IFC through web-ifc: every streamed mesh with its placement (web-ifc gives Y-up metres). */
export function ifcSoup(bytes: Uint8Array, ifc: W.IfcAPI): number[] {
  const m = ifc.OpenModel(bytes);
  const out: number[] = [];
  try {
    ifc.StreamAllMeshes(m, (mesh) => {
      for (let g = 0; g < mesh.geometries.size(); g++) {
        const placed = mesh.geometries.get(g);
        const geom = ifc.GetGeometry(m, placed.geometryExpressID);
        const v = ifc.GetVertexArray(geom.GetVertexData(), geom.GetVertexDataSize()),
          ix = ifc.GetIndexArray(geom.GetIndexData(), geom.GetIndexDataSize());
        for (const i of ix) pushYUp(out, ...transform(placed.flatTransformation, v[6 * i], v[6 * i + 1], v[6 * i + 2]));
        geom.delete();
      }
    });
  } finally {
    ifc.CloseModel(m);
  }
  return out;
}
