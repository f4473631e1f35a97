/**
 * A mesh's triangles split by surface role where its descriptor gives them: a premium building part
 * is one closed mesh whose triangles come grouped roof, wall, floor, other, with `surfaces` giving
 * each group as `[first triangle, count]` (docs/premium-data.md "Roof, wall, floor"). Writers with
 * materials or layers draw each role as its own primitive, `usemtl` group, layer or object, so roofs
 * and walls can be told apart; every other mesh is one part of its own kind.
 */
import type { ExportMesh } from '../scene.ts';

export type SurfaceRole = 'roof' | 'wall' | 'floor' | 'other';

/** In the order the meshes hold them. */
export const SURFACE_ROLES: readonly SurfaceRole[] = ['roof', 'wall', 'floor', 'other'];

/**
 * The material / layer key of each role (palette.ts): roofs and walls apart; what is neither
 * (closures, overhang undersides, filled openings) keeps the building's own.
 */
export const ROLE_KINDS: Readonly<Record<SurfaceRole, string>> = { roof: 'buildingRoof', wall: 'buildingWall', floor: 'buildingFloor', other: 'building' };

/** Triangles of one material: `indices` index the whole mesh's vertices (a view, not a copy). */
export interface SurfacePart {
  kind: string;
  /** Null for a mesh without surface ranges. */
  role: SurfaceRole | null;
  indices: Uint32Array;
  /** The mesh's data colour, on the parts that keep its kind. */
  colour?: [number, number, number];
}

/** The mesh's non-empty role parts in role order, or the whole mesh as one part when it has no (valid) ranges. */
export function surfaceParts(m: ExportMesh): SurfacePart[] {
  const ranges = surfaceRanges(m.descriptor.surfaces, m.indices.length / 3);
  if (!ranges) return [{ kind: m.kind, role: null, indices: m.indices, ...(m.colour ? { colour: m.colour } : {}) }];
  const parts: SurfacePart[] = [];
  for (const role of SURFACE_ROLES) {
    const [first, count] = ranges[role];
    if (count > 0) parts.push({ kind: ROLE_KINDS[role], role, indices: m.indices.subarray(3 * first, 3 * (first + count)) });
  }
  return parts;
}

/**
 * The descriptor's ranges when they are whole numbers that cover the triangles exactly once, in
 * any order; null otherwise (a writer then draws the mesh whole, never losing or doubling a triangle).
 */
export function surfaceRanges(surfaces: unknown, triangles: number): Record<SurfaceRole, [number, number]> | null {
  if (typeof surfaces !== 'object' || surfaces === null) return null;
  const given = surfaces as Record<string, unknown>;
  const out = {} as Record<SurfaceRole, [number, number]>;
  for (const role of SURFACE_ROLES) {
    const r = given[role] ?? [0, 0];
    if (!Array.isArray(r) || r.length !== 2 || !r.every((v) => Number.isInteger(v) && v >= 0)) return null;
    out[role] = [r[0], r[1]];
  }
  const spans = SURFACE_ROLES.map((role) => out[role])
    .filter(([, count]) => count > 0)
    .sort((a, b) => a[0] - b[0]);
  let next = 0;
  for (const [first, count] of spans) {
    if (first !== next) return null;
    next = first + count;
  }
  return next === triangles && triangles > 0 ? out : null;
}

/** A part as a mesh of its own: only the vertices its triangles use, renumbered in first-use order (for writers that put each part in its own object). */
export function compactPart(positions: Float64Array, indices: Uint32Array): { positions: Float64Array; indices: Uint32Array } {
  const map = new Map<number, number>();
  const out = new Uint32Array(indices.length);
  for (let i = 0; i < indices.length; i++) {
    let n = map.get(indices[i]);
    if (n === undefined) map.set(indices[i], (n = map.size));
    out[i] = n;
  }
  const kept = new Float64Array(3 * map.size);
  for (const [from, to] of map) kept.set(positions.subarray(3 * from, 3 * from + 3), 3 * to);
  return { positions: kept, indices: out };
}

/** The descriptor of a part drawn as an object of its own: the mesh's, its `surfaces` ranges (which index the whole mesh) replaced by the part's role. */
export function partDescriptor(descriptor: Record<string, unknown>, role: SurfaceRole | null): Record<string, unknown> {
  const { surfaces: _ranges, ...rest } = descriptor;
  return role === null ? descriptor : { ...rest, surface: role };
}

/** The mesh as one mesh per role part, each with only its own vertices (for writers that colour vertices); the mesh itself when it has no ranges. */
export function splitBySurface(m: ExportMesh): ExportMesh[] {
  const parts = surfaceParts(m);
  if (parts.length === 1 && parts[0].role === null) return [m];
  return parts.map((part) => ({
    id: `${m.id}#${part.role}`,
    kind: part.kind,
    ...compactPart(m.positions, part.indices),
    descriptor: partDescriptor(m.descriptor, part.role),
  }));
}
