/**
 * Independent readers for the export writer tests (OBJ, STL, PLY, DAE, DXF): Debian's assimp,
 * xmllint with the COLLADA schema, and python3-ezdxf, run as processes — never our own code as
 * the judge. A missing tool fails the test (CI installs them: .ci/run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportFile } from '../../../src/export/scene.ts';
import { SAMPLE_CORNER, SAMPLE_NODE_TRIANGLES, SAMPLE_TRIANGLES } from '../scenes/export-scenes.ts';

/** Debian's python (it has python3-ezdxf; a pyenv python on PATH may not). */
export const PYTHON = '/usr/bin/python3';
export const COLLADA_XSD = '/usr/lib/opencollada/collada_schema_1_4_1.xsd';
export const COLLADA_CATALOG = new URL('../../fixtures/collada/catalog.xml', import.meta.url).pathname;

/** Runs a tool; throws with its output when it is missing or fails. */
export function run(cmd: string, args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`${cmd} is missing (apt-get install assimp-utils python3-ezdxf opencollada-tools libxml2-utils): ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return `${r.stdout}${r.stderr}`;
}

/** Writes a file to a fresh temp directory; returns its path. */
export function writeTemp(file: ExportFile, base = 'scene'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'export-')), `${base}.${file.extension}`);
  writeFileSync(path, file.bytes);
  return path;
}

export interface AssimpMesh {
  name: string;
  vertices: number;
  faces: number;
  types: string;
}

/** `assimp info`: its mesh table (name, vertices, faces, primitive types). */
export function assimpMeshes(path: string): AssimpMesh[] {
  const out = run('assimp', ['info', path]);
  const meshes = [...out.matchAll(/^\s+\d+ \((.*)\): \[(\d+) \/ \d+ \/ (\d+) \| (\w+)\]$/gm)].map((m) => ({
    name: m[1],
    vertices: Number(m[2]),
    faces: Number(m[3]),
    types: m[4],
  }));
  if (!meshes.length) throw new Error(`assimp read no mesh from ${path}:\n${out}`);
  return meshes;
}

/** Triangles assimp read (line primitives left out). */
export function assimpTriangles(path: string): number {
  return assimpMeshes(path)
    .filter((m) => m.types === 'triangle')
    .reduce((n, m) => n + m.faces, 0);
}

/** Triangles of `sampleScene` with its 2 nodes drawn as their models. */
export function sampleTriangles(): number {
  const nodes = SAMPLE_NODE_TRIANGLES['node/3'] + SAMPLE_NODE_TRIANGLES['node/4'];
  return SAMPLE_TRIANGLES.buildings + SAMPLE_TRIANGLES.surface + SAMPLE_TRIANGLES.topography + nodes;
}

/** The sample's building corner as the scene places it (units and placement as sampleScene). */
export function sampleCorner(metresPerUnit: number, originGrid: [number, number]): [number, number, number] {
  const k = 1 / metresPerUnit;
  return [SAMPLE_CORNER[0] * k + originGrid[0], SAMPLE_CORNER[1] * k + originGrid[1], SAMPLE_CORNER[2] * k];
}

/** Whether some point of a flat xyz list is within `tol` of `p`. */
export function hasPoint(xyz: ArrayLike<number>, p: [number, number, number], tol: number): boolean {
  for (let i = 0; i + 2 < xyz.length; i += 3) {
    if (Math.abs(xyz[i] - p[0]) <= tol && Math.abs(xyz[i + 1] - p[1]) <= tol && Math.abs(xyz[i + 2] - p[2]) <= tol) return true;
  }
  return false;
}

/** Vertex positions of a binary STL (float32, 3 corners per triangle). */
export function stlPositions(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    count = view.getUint32(80, true),
    xyz: number[] = [];
  for (let t = 0; t < count; t++) for (let k = 3; k < 12; k++) xyz.push(view.getFloat32(84 + t * 50 + k * 4, true));
  return xyz;
}

/** Header text and vertices (xyz doubles + rgb bytes) of our binary PLY layout, read by its header. */
export function plyVertices(bytes: Uint8Array): { header: string; xyz: number[]; rgb: number[] } {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 4096)));
  const end = text.indexOf('end_header\n') + 'end_header\n'.length,
    header = text.slice(0, end);
  if (!/property double x\nproperty double y\nproperty double z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\n/.test(header))
    throw new Error(`unexpected PLY vertex layout:\n${header}`);
  const n = Number(/^element vertex (\d+)$/m.exec(header)![1]),
    view = new DataView(bytes.buffer, bytes.byteOffset + end);
  const xyz: number[] = [],
    rgb: number[] = [];
  for (let i = 0; i < n; i++) {
    xyz.push(view.getFloat64(i * 27, true), view.getFloat64(i * 27 + 8, true), view.getFloat64(i * 27 + 16, true));
    rgb.push(view.getUint8(i * 27 + 24), view.getUint8(i * 27 + 25), view.getUint8(i * 27 + 26));
  }
  return { header, xyz, rgb };
}

/** Every `v x y z` of an OBJ text. */
export function objPositions(obj: string): number[] {
  return [...obj.matchAll(/^v (\S+) (\S+) (\S+)$/gm)].flatMap((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
}

/** Every number of every `<float_array>` of a COLLADA text (our files hold only positions there). */
export function daePositions(xml: string): number[] {
  return [...xml.matchAll(/<float_array[^>]*>([^<]*)<\/float_array>/g)].flatMap((m) => m[1].split(' ').map(Number));
}

/** Extracts a zip with Python's zipfile into a fresh directory; returns the directory. */
export function unzip(path: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'unzip-'));
  run(PYTHON, ['-m', 'zipfile', '-e', path, dir]);
  return dir;
}

/** Triangles per material name as assimp reads the file (its own JSON export: each mesh's material index and faces). */
export function assimpTrianglesPerMaterial(path: string): Record<string, number> {
  const out = join(mkdtempSync(join(tmpdir(), 'assjson-')), 'scene.assjson');
  run('assimp', ['export', path, out, '-fassjson']);
  const doc = JSON.parse(readFileSync(out, 'utf8')) as {
    meshes: { materialindex: number; faces: number[][]; primitivetypes: number }[];
    materials: { properties: { key: string; value: unknown }[] }[];
  };
  const names = doc.materials.map((m) => String(m.properties.find((p) => p.key === '?mat.name')?.value));
  const counts: Record<string, number> = {};
  for (const m of doc.meshes) {
    const triangles = m.faces.filter((f) => f.length === 3).length;
    if (triangles > 0) counts[names[m.materialindex]] = (counts[names[m.materialindex]] ?? 0) + triangles;
  }
  return counts;
}
