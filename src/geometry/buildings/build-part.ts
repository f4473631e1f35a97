import type { Footprint, IndexedMesh, Ring } from '../types.ts';
import { MeshBuilder } from '../mesh-builder.ts';
import { inspectMesh } from '../mesh-checks.ts';
import { buildRoof } from './roofs/index.ts';
import { triangulateFootprint, triangulateRings } from '../triangulate/index.ts';
import type { RoofShape, RoofSpec } from './roofs/types.ts';

export interface BuildingPartSpec {
  /** Bottom of the walls (min_height), metres. */
  baseZ: number;
  /** Top of the walls, where the roof starts, metres. */
  wallTopZ: number;
  roof: RoofSpec;
}

export interface BuiltPart {
  mesh: IndexedMesh;
  /** The roof actually built (differs from the request when a shape fell back to a simpler one). */
  roofShape: RoofShape;
  /** Why the requested shape was not built, when it fell back. */
  roofFallback?: string;
  /** How the roof was built, e.g. `gabled/skeleton` (see roofs/index.ts ROOF_CHAINS). */
  roofStrategy?: string;
  /** Set only when even the last resort failed the solid check (a self-crossing footprint): what is wrong. */
  meshProblem?: string;
}

/**
 * Builds one building part as a closed solid: floor at `baseZ`, vertical walls along every ring,
 * and the roof of `spec.roof` above `wallTopZ` (see roofs/index.ts). The footprint must be
 * normalised (outer counter-clockwise, holes clockwise). Every candidate solid is checked (closed
 * 2-manifold, outward, no degenerate triangles, within the roof height); a roof construction that
 * fails the check is skipped for the next one, down to a flat roof.
 * Skeleton-based roofs need `await loadRoofs()` once beforehand.
 */
export function buildBuildingPart(footprint: Footprint, spec: BuildingPartSpec): BuiltPart {
  if (spec.roof.shape === 'flat') {
    // Most buildings: one triangulation for roof and floor, no roof plan. Checked like any other solid.
    const slab = flatSlab(footprint, spec.baseZ, spec.wallTopZ);
    if (slab && !solidProblem(slab, false)) return { mesh: slab, roofShape: 'flat', roofStrategy: 'flat' };
  }
  const skip = new Set<string>();
  const limit = spec.wallTopZ + Math.max(0, spec.roof.height) + 0.01;
  let reason: string | undefined;
  for (;;) {
    const mesh = new MeshBuilder();
    const roof = buildRoof(mesh, footprint, spec.wallTopZ, spec.roof, { skip });
    for (const ring of [roof.rings.outer, ...roof.rings.holes]) addWalls(mesh, ring, spec.baseZ, spec.wallTopZ);
    addCap(mesh, roof.rings, spec.baseZ, false);
    const built = mesh.build();
    const problem = solidProblem(built, roof.maxZ > limit);
    const fallback = roof.fallback ?? (roof.shape !== spec.roof.shape && reason ? `${spec.roof.shape} roof not built (${reason})` : undefined);
    if (!problem || roof.strategy === 'flat/earcut' || skip.has(roof.strategy)) {
      return {
        mesh: built,
        roofShape: roof.shape,
        roofStrategy: roof.strategy,
        ...(fallback ? { roofFallback: fallback } : {}),
        ...(problem ? { meshProblem: problem } : {}),
      };
    }
    reason ??= `${roof.strategy}: ${problem}`;
    skip.add(roof.strategy);
  }
}

function solidProblem(mesh: IndexedMesh, tooHigh: boolean): string | undefined {
  const report = inspectMesh(mesh);
  if (report.nonFinite > 0) return 'non-finite vertices';
  if (!report.closed) return `not closed (${report.openEdges} open, ${report.repeatedEdges} repeated edges)`;
  if (report.degenerate > 0) return `${report.degenerate} degenerate triangles`;
  if (!(report.volume > 0)) return 'not facing outwards';
  if (tooHigh) return 'higher than the roof height';
  return undefined;
}

/** The footprint's rings as one coordinate list (outer, then holes) with where each hole starts. */
function footprintCoords(footprint: Footprint): { coords: number[]; holeStarts: number[] } {
  const coords: number[] = [];
  const holeStarts: number[] = [];
  for (const ring of [footprint.outer, ...footprint.holes]) {
    if (coords.length > 0) holeStarts.push(coords.length / 2);
    for (const v of ring) coords.push(v);
  }
  return { coords, holeStarts };
}

/** A prism over the footprint from `baseZ` to `topZ`, triangulated once; null when the footprint does not triangulate cleanly. */
function flatSlab(footprint: Footprint, baseZ: number, topZ: number): IndexedMesh | null {
  const { coords, holeStarts } = footprintCoords(footprint);
  const { triangles, ok } = triangulateRings(coords, holeStarts);
  if (!ok) return null;
  const mesh = new MeshBuilder();
  const n = coords.length / 2;
  const top = new Int32Array(n),
    bottom = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    top[i] = mesh.vertex(coords[2 * i], coords[2 * i + 1], topZ);
    bottom[i] = mesh.vertex(coords[2 * i], coords[2 * i + 1], baseZ);
  }
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t],
      b = triangles[t + 1],
      c = triangles[t + 2];
    mesh.triangle(top[a], top[b], top[c]);
    mesh.triangle(bottom[a], bottom[c], bottom[b]);
  }
  for (const ring of [footprint.outer, ...footprint.holes]) addWalls(mesh, ring, baseZ, topZ);
  return mesh.build();
}

/** Vertical quads along a ring; for a counter-clockwise outer ring (clockwise hole) they face outwards. */
export function addWalls(mesh: MeshBuilder, ring: Ring, bottomZ: number, topZ: number): void {
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ax = ring[2 * i],
      ay = ring[2 * i + 1],
      bx = ring[2 * j],
      by = ring[2 * j + 1];
    mesh.quad(mesh.vertex(ax, ay, bottomZ), mesh.vertex(bx, by, bottomZ), mesh.vertex(bx, by, topZ), mesh.vertex(ax, ay, topZ));
  }
}

/** A horizontal cap over the footprint at height z, facing up (roof) or down (floor); keeps every ring vertex. */
export function addCap(mesh: MeshBuilder, footprint: Footprint, z: number, facingUp: boolean): void {
  const { coords, holeStarts } = footprintCoords(footprint);
  let { triangles, ok } = triangulateRings(coords, holeStarts);
  if (!ok) triangles = triangulateFootprint(footprint).triangles; // self-crossing input: best effort
  const ids: number[] = [];
  for (let i = 0; i < coords.length; i += 2) ids.push(mesh.vertex(coords[i], coords[i + 1], z));
  for (let t = 0; t < triangles.length; t += 3) {
    const a = ids[triangles[t]],
      b = ids[triangles[t + 1]],
      c = ids[triangles[t + 2]];
    if (facingUp) mesh.triangle(a, b, c);
    else mesh.triangle(a, c, b);
  }
}
