import { refine } from 'earcut';
import { Clipper, TriangulateResult } from 'clipper2-ts';
import type { Footprint, IndexedMesh } from '../../types.ts';
import type { SurfaceArea, SurfaceMesh } from '../types.ts';
import { CLIPPER_SCALE } from '../../clipper-paths.ts';
import { MeshBuilder } from '../../mesh-builder.ts';
import { triangulateRings } from '../../buildings/roofs/triangulate-rings.ts';
import { triangulateFootprint } from '../../triangulate.ts';
import { pieceHeights, splitRing, type DrapeLattice, type DrapeOptions } from './drape.ts';
import { completeTriangulation } from './insert-nodes.ts';
import { piecePaths } from './pieces.ts';

export type SurfaceMeshOptions = DrapeOptions;

/** Triangles smaller than this (m², in plan) are degenerate: flipped away or, failing that, dropped. */
export const MIN_TRIANGLE_AREA = 1e-6;

/**
 * One single-sided mesh per area (issue 8, "Meshes are single-sided…"): triangles counter-clockwise
 * seen from above (normals +z), consistently wound, none under MIN_TRIANGLE_AREA in plan, covering the
 * area's footprints exactly. Heights as `drape.ts` says: z = 0 without terrain; draped — every vertex
 * on ground(x, y), boundary edges split at the lines of the terrain grid (or a `maxEdge` lattice) and
 * the grid nodes inside the piece added as vertices, then the triangulation is made Delaunay so
 * no triangle reaches much past one grid cell; flat at the lowest ground under each polygon when
 * `drape` is false; bridge decks interpolated along their axis and never draped.
 *
 * Areas that give no triangle are left out; the mesh carries the area's descriptor.
 *
 * @example
 * const meshes = surfaceMeshes(resolveOverlaps(areas, { cutOut, clip }), { ground, drape: true });
 */
export function surfaceMeshes(areas: readonly SurfaceArea[], options: SurfaceMeshOptions): SurfaceMesh[] {
  const out: SurfaceMesh[] = [];
  for (const area of areas) {
    const builder = new MeshBuilder();
    for (const fp of area.footprints) addFootprint(builder, fp, area, options);
    if (builder.triangleCount === 0) continue;
    out.push({ mesh: builder.build(), descriptor: { ...area.descriptor } });
  }
  return out;
}

/** The mesh of one piece on its own (see surfaceMeshes). */
export function pieceMesh(footprint: Footprint, area: Pick<SurfaceArea, 'deck'>, options: SurfaceMeshOptions): IndexedMesh {
  const builder = new MeshBuilder();
  addFootprint(builder, footprint, area, options);
  return builder.build();
}

function addFootprint(builder: MeshBuilder, fp: Footprint, area: Pick<SurfaceArea, 'deck'>, options: SurfaceMeshOptions): void {
  const { z, lattice } = pieceHeights(fp, area.deck, options);
  const { coords, triangles } = triangulatePiece(fp, lattice);
  const ids = new Int32Array(coords.length / 2).fill(-1);
  const id = (i: number) => {
    if (ids[i] < 0) ids[i] = builder.vertex(coords[2 * i], coords[2 * i + 1], z(coords[2 * i], coords[2 * i + 1]));
    return ids[i];
  };
  for (let t = 0; t < triangles.length; t += 3) builder.triangle(id(triangles[t]), id(triangles[t + 1]), id(triangles[t + 2]));
}

/**
 * Plan triangulation of a piece. The rings, split at the lattice lines (`splitRing`, as the
 * outlines are), are triangulated keeping every vertex (triangulateRings); should that fail on an
 * odd polygon, by earcut, and should that not cover it either (needles a millimetre wide), by
 * Clipper2's constrained Delaunay triangulation on the millimetre grid. Ring vertices a
 * triangulation skipped or left as T-junctions are then put back on their sides, the lattice nodes
 * inside are inserted (insert-nodes.ts), the whole is made Delaunay (earcut's `refine`) and
 * triangles under MIN_TRIANGLE_AREA are flipped away or dropped. Triangles are counter-clockwise;
 * `coords` holds the ring vertices, then any added points.
 */
export function triangulatePiece(fp: Footprint, lattice: DrapeLattice | null): { coords: number[]; triangles: number[] } {
  const outer = splitRing(fp.outer, lattice);
  const holes = fp.holes.map((h) => splitRing(h, lattice));
  const coords: number[] = outer.slice();
  const holeStarts: number[] = [];
  for (const h of holes) {
    holeStarts.push(coords.length / 2);
    for (const v of h) coords.push(v);
  }
  const ringVertices = coords.length / 2;
  let triangles: number[];
  const kept = triangulateRings(coords, holeStarts);
  if (kept.ok) triangles = kept.triangles;
  else {
    // earcut on its own (it skips vertices on a straight side; completeTriangulation puts them
    // back) when the collinear-keeping triangulation fails on an odd polygon; when that does not
    // cover the polygon either (needles a millimetre wide, rings touching themselves), Clipper2's
    // constrained Delaunay triangulation on the millimetre grid, where the pieces live
    const plain = triangulateFootprint({ outer, holes });
    triangles = plain.exact ? plain.triangles : clipperTriangles(fp, coords) ?? (kept.triangles.length ? kept.triangles : plain.triangles);
  }
  const changed = completeTriangulation(coords, triangles, [0, ...holeStarts], ringVertices, lattice, kept.ok);
  // triangulateRings made its own Delaunay already; fans (along sides split at the lattice, too)
  // and nodes added since want it again
  if ((changed || !kept.ok || lattice) && triangles.length >= 6) refine(triangles, coords, 2);
  removeSlivers(coords, triangles);
  return { coords, triangles };
}

/**
 * Triangles of the piece by Clipper2 (Delaunay) as indices into `coords`, whose ring vertices are
 * looked up by their millimetre position (points Clipper adds are appended); null when it fails.
 */
function clipperTriangles(fp: Footprint, coords: number[]): number[] | null {
  const { result, solution } = Clipper.triangulate(piecePaths([fp]), true);
  if (result !== TriangulateResult.success) return null;
  const index = new Map<number, number>();
  const key = (x: number, y: number) => x * 4294967296 + y;
  for (let i = coords.length / 2 - 1; i >= 0; i--) index.set(key(Math.round(coords[2 * i] * CLIPPER_SCALE), Math.round(coords[2 * i + 1] * CLIPPER_SCALE)), i);
  const out: number[] = [];
  for (const tri of solution) {
    if (tri.length !== 3) continue;
    const ids = tri.map((p) => {
      let i = index.get(key(p.x, p.y));
      if (i === undefined) {
        i = coords.length / 2;
        coords.push(p.x / CLIPPER_SCALE, p.y / CLIPPER_SCALE);
        index.set(key(p.x, p.y), i);
      }
      return i;
    });
    if (area2(coords, ids[0], ids[1], ids[2]) < 0) out.push(ids[0], ids[2], ids[1]);
    else out.push(ids[0], ids[1], ids[2]);
  }
  return out;
}

function area2(coords: number[], a: number, b: number, c: number): number {
  return (coords[2 * b] - coords[2 * a]) * (coords[2 * c + 1] - coords[2 * a + 1]) -
    (coords[2 * b + 1] - coords[2 * a + 1]) * (coords[2 * c] - coords[2 * a]);
}

/**
 * Removes triangles under MIN_TRIANGLE_AREA: flips the sliver's longest side with the neighbour
 * across it when both new triangles are sound (keeps the mesh watertight), else drops it (a hole of
 * less than a square millimetre). Also orients every triangle counter-clockwise.
 */
function removeSlivers(coords: number[], tris: number[]): void {
  const min2 = 2 * MIN_TRIANGLE_AREA;
  const count = tris.length / 3;
  let slivers = 0;
  for (let t = 0; t < count; t++) {
    const a2 = area2(coords, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]);
    if (a2 < 0) { const b = tris[3 * t + 1]; tris[3 * t + 1] = tris[3 * t + 2]; tris[3 * t + 2] = b; }
    if (Math.abs(a2) < min2) slivers++;
  }
  if (slivers === 0) return;
  const vertexCount = coords.length / 2;
  const owner = new Map<number, number>();
  const key = (u: number, v: number) => u * vertexCount + v;
  const register = (t: number, on: boolean) => {
    for (let k = 0; k < 3; k++) {
      const e = key(tris[3 * t + k], tris[3 * t + ((k + 1) % 3)]);
      if (on) owner.set(e, t); else if (owner.get(e) === t) owner.delete(e);
    }
  };
  for (let t = 0; t < count; t++) register(t, true);
  for (let pass = 0; pass < 3; pass++) {
    let flipped = false;
    for (let t = 0; t < count; t++) {
      if (area2(coords, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]) >= min2) continue;
      let best = 0, bestLength = -1;
      for (let k = 0; k < 3; k++) {
        const u = tris[3 * t + k], v = tris[3 * t + ((k + 1) % 3)];
        const len = (coords[2 * v] - coords[2 * u]) ** 2 + (coords[2 * v + 1] - coords[2 * u + 1]) ** 2;
        if (len > bestLength) { bestLength = len; best = k; }
      }
      const u = tris[3 * t + best], v = tris[3 * t + ((best + 1) % 3)], w = tris[3 * t + ((best + 2) % 3)];
      const n = owner.get(key(v, u));
      if (n === undefined) continue;
      let d = -1;
      for (let k = 0; k < 3; k++) { const x = tris[3 * n + k]; if (x !== u && x !== v) d = x; }
      if (d < 0 || area2(coords, w, u, d) < min2 || area2(coords, w, d, v) < min2) continue;
      register(t, false); register(n, false);
      tris[3 * t] = w; tris[3 * t + 1] = u; tris[3 * t + 2] = d;
      tris[3 * n] = w; tris[3 * n + 1] = d; tris[3 * n + 2] = v;
      register(t, true); register(n, true);
      flipped = true;
    }
    if (!flipped) break;
  }
  let w = 0;
  for (let t = 0; t < count; t++) {
    if (area2(coords, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]) < min2) continue;
    tris[w++] = tris[3 * t]; tris[w++] = tris[3 * t + 1]; tris[w++] = tris[3 * t + 2];
  }
  tris.length = w;
}
