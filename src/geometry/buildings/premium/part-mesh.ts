/**
 * One part of a premium building as a closed, outward triangle mesh: every surface triangulated in
 * its own plane, corners welded within a millimetre, T-junctions split, collapsed and repeated
 * triangles dropped, openings closed (a missing floor first of all), faces turned outwards, and the
 * triangles ordered roof, wall, floor, other. What could not be repaired is said in `notes`; the
 * part is never dropped for it.
 */
import { inspectMesh } from '../../mesh-checks.ts';
import type { IndexedMesh } from '../../types.ts';
import { closeOpenings } from './close-openings.ts';
import { SURFACE_ROLES, type InputRole, type PremiumSurface, type SurfaceRole } from './input.ts';
import { orientOutward } from './orient.ts';
import { planeTriangles } from './plane-triangles.ts';
import { dropDegenerate, ROLE_FLOOR, ROLE_OTHER, ROLE_ROOF, ROLE_UNKNOWN, ROLE_WALL, type Soup } from './soup.ts';
import { splitTJunctions } from './t-junctions.ts';
import { weldPoints } from './weld.ts';

/** Triangle ranges of a mesh per surface role: [first triangle, triangle count]. */
export type SurfaceRanges = Record<SurfaceRole, [number, number]>;

export interface PartMesh {
  mesh: IndexedMesh;
  surfaces: SurfaceRanges;
  /** Lowest and highest z of the mesh. */
  minZ: number;
  maxZ: number;
  /** What was repaired or could not be (for `dataNotes`), without the part's name. */
  notes: string[];
  /** Whether the mesh passed the closed, outward, non-degenerate check. */
  sound: boolean;
}

const ROLE_INDEX: Record<InputRole, number> = { roof: ROLE_ROOF, wall: ROLE_WALL, floor: ROLE_FLOOR, other: ROLE_OTHER, unknown: ROLE_UNKNOWN };

/** Null when no surface has any area (the caller says so). */
export function buildPartMesh(surfaces: readonly PremiumSurface[]): PartMesh | null {
  const points: number[] = [];
  const triangles: number[] = [];
  const roles: number[] = [];
  let flatSurfaces = 0;
  for (const surface of surfaces) {
    const rings = surface.rings.filter((r) => r.length >= 9);
    if (rings.length === 0) continue;
    const local = planeTriangles(rings);
    if (!local) {
      flatSurfaces++;
      continue;
    }
    const base = points.length / 3;
    for (const ring of rings) for (const v of ring) points.push(v);
    for (const i of local) triangles.push(base + i);
    for (let t = 0; t < local.length; t += 3) roles.push(ROLE_INDEX[surface.role]);
  }
  if (triangles.length === 0) return null;
  const welded = weldPoints(points);
  const split = splitTJunctions(
    welded.positions,
    triangles.map((i) => welded.index[i]),
    roles,
  );
  const soup: Soup = { positions: welded.positions, triangles: split.triangles, roles: split.roles };
  const dropped = dropDegenerate(soup);
  const openings = closeOpenings(soup);
  // a filled opening can repeat a face or leave a collapsed triangle at a pinch: drop them again
  dropDegenerate(soup);
  const orientation = orientOutward(soup);
  resolveUnknownRoles(soup);
  const built = ordered(soup);
  const report = inspectMesh(built.mesh);
  const notes: string[] = [];
  if (flatSurfaces) notes.push(`${flatSurfaces} surface(s) without area left out`);
  if (dropped.repeated) notes.push(`${dropped.repeated} repeated triangle(s) removed`);
  if (openings.floors) notes.push(`no closed ground surface: ${openings.floors} floor(s) added`);
  if (openings.others) notes.push(`${openings.others} other opening(s) closed`);
  if (openings.unfilled) notes.push(`${openings.unfilled} opening(s) could not be closed`);
  if (orientation.nonManifold) notes.push(`${orientation.nonManifold} edge(s) shared by more than two faces`);
  if (orientation.conflicts) notes.push(`faces could not all be turned outwards (${orientation.conflicts} edge(s))`);
  const sound = report.closed && report.degenerate === 0 && report.nonFinite === 0 && report.volume > 0;
  if (!sound) {
    notes.push(
      `not a closed solid after repair (${report.openEdges} open edge(s), ${report.repeatedEdges} repeated edge(s), ${report.degenerate} degenerate triangle(s)${report.volume > 0 ? '' : ', no enclosed volume'})`,
    );
  }
  let minZ = Infinity,
    maxZ = -Infinity;
  for (let i = 2; i < built.mesh.positions.length; i += 3) {
    minZ = Math.min(minZ, built.mesh.positions[i]);
    maxZ = Math.max(maxZ, built.mesh.positions[i]);
  }
  return { mesh: built.mesh, surfaces: built.surfaces, minZ, maxZ, notes, sound };
}

/** Surfaces without semantics take the role their face's direction says: up roof, down floor, else wall. */
function resolveUnknownRoles(soup: Soup): void {
  const p = soup.positions,
    t3 = soup.triangles;
  for (let t = 0; t < soup.roles.length; t++) {
    if (soup.roles[t] !== ROLE_UNKNOWN) continue;
    const a = 3 * t3[3 * t],
      b = 3 * t3[3 * t + 1],
      c = 3 * t3[3 * t + 2];
    const ux = p[b] - p[a],
      uy = p[b + 1] - p[a + 1],
      vx = p[c] - p[a],
      vy = p[c + 1] - p[a + 1];
    const nz = ux * vy - uy * vx;
    const len = triangleNormalLength(p, a, b, c);
    soup.roles[t] = nz > 0.5 * len ? ROLE_ROOF : nz < -0.5 * len ? ROLE_FLOOR : ROLE_WALL;
  }
}

function triangleNormalLength(p: number[], a: number, b: number, c: number): number {
  const ux = p[b] - p[a],
    uy = p[b + 1] - p[a + 1],
    uz = p[b + 2] - p[a + 2];
  const vx = p[c] - p[a],
    vy = p[c + 1] - p[a + 1],
    vz = p[c + 2] - p[a + 2];
  return Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
}

/** The mesh with only the vertices used, triangles grouped by role in SURFACE_ROLES' order. */
function ordered(soup: Soup): { mesh: IndexedMesh; surfaces: SurfaceRanges } {
  const remap = new Int32Array(soup.positions.length / 3).fill(-1);
  const positions: number[] = [];
  const indices: number[] = [];
  const surfaces = {} as SurfaceRanges;
  SURFACE_ROLES.forEach((role, r) => {
    const first = indices.length / 3;
    for (let t = 0; t < soup.roles.length; t++) {
      if (soup.roles[t] !== r) continue;
      for (let k = 0; k < 3; k++) {
        const v = soup.triangles[3 * t + k];
        if (remap[v] < 0) {
          remap[v] = positions.length / 3;
          positions.push(soup.positions[3 * v], soup.positions[3 * v + 1], soup.positions[3 * v + 2]);
        }
        indices.push(remap[v]);
      }
    }
    surfaces[role] = [first, indices.length / 3 - first];
  });
  return { mesh: { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) }, surfaces };
}
