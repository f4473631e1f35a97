/**
 * Independent readers for the export writer tests (OBJ, STL, PLY, DAE, DXF): Debian's assimp,
 * xmllint with the COLLADA schema, and python3-ezdxf, run as processes — never our own code as
 * the judge. A missing tool fails the test (CI installs them: .ci/run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportFile } from '../../src/export/scene.ts';
import { SAMPLE_CORNER, SAMPLE_TRIANGLES } from './export-scenes.ts';

/** Debian's python (it has python3-ezdxf; a pyenv python on PATH may not). */
export const PYTHON = '/usr/bin/python3';
export const COLLADA_XSD = '/usr/lib/opencollada/collada_schema_1_4_1.xsd';
export const COLLADA_CATALOG = new URL('../fixtures/collada/catalog.xml', import.meta.url).pathname;

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
  const meshes = [...out.matchAll(/^\s+\d+ \((.*)\): \[(\d+) \/ \d+ \/ (\d+) \| (\w+)\]$/gm)].map((m) => ({ name: m[1], vertices: Number(m[2]), faces: Number(m[3]), types: m[4] }));
  if (!meshes.length) throw new Error(`assimp read no mesh from ${path}:\n${out}`);
  return meshes;
}

/** Triangles assimp read (line primitives left out). */
export function assimpTriangles(path: string): number {
  return assimpMeshes(path).filter((m) => m.types === 'triangle').reduce((n, m) => n + m.faces, 0);
}

/** Triangles of `sampleScene` once its 2 nodes are drawn as symbols of `symbolTriangles` each. */
export function sampleTriangles(symbolTriangles: number): number {
  return SAMPLE_TRIANGLES.buildings + SAMPLE_TRIANGLES.surface + SAMPLE_TRIANGLES.topography + 2 * symbolTriangles;
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
