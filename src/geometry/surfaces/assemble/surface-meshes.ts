import { refine } from 'earcut';
import type { Footprint, IndexedMesh } from '../../types.ts';
import type { SurfaceArea, SurfaceMesh } from '../types.ts';
import { MeshBuilder } from '../../mesh-builder.ts';
import { clipperTriangles, removeSlivers, triangulateFootprint, triangulateRings } from '../../triangulate/index.ts';
import { pieceHeights, splitRing, type DrapeLattice, type DrapeOptions } from './drape.ts';
import { completeTriangulation } from './insert-nodes.ts';
import { splitOnTerrain } from './split-on-terrain.ts';
import { addDeckSlab, deckFootprint } from './deck-slab.ts';

export type SurfaceMeshOptions = DrapeOptions;

/** Triangles smaller than this (m², in plan) are degenerate: flipped away or, failing that, dropped. */
export const MIN_TRIANGLE_AREA = 1e-6;

/**
 * One single-sided mesh per area (docs/ground.md "Pieces"): triangles counter-clockwise
 * seen from above (normals +z), consistently wound, none under MIN_TRIANGLE_AREA in plan, covering the
 * area's footprints exactly. Heights as `drape.ts` says: z = 0 without terrain; draped — every vertex
 * on ground(x, y), boundary edges split at the lines of the terrain grid (or a `maxEdge` lattice) and
 * the grid nodes inside the piece added as vertices, the triangulation made Delaunay and then cut
 * along every edge of the terrain's triangles (split-on-terrain.ts), so each triangle lies in one
 * terrain triangle and the piece is on the terrain surface everywhere, not only at its vertices;
 * with `drape` false only the mapped vertices, each on the ground; bridge decks are closed slabs
 * at their deck's height instead (deck-slab.ts).
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
  if (area.deck) {
    const { coords, triangles } = triangulatePiece(deckFootprint(fp), null);
    addDeckSlab(builder, coords, triangles, area.deck);
    return;
  }
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
 * inside are inserted (insert-nodes.ts), the whole is made Delaunay (earcut's `refine`), cut
 * along the terrain's triangle edges (splitOnTerrain) and triangles under MIN_TRIANGLE_AREA are
 * flipped away or dropped. Triangles are counter-clockwise;
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
    triangles = plain.exact ? plain.triangles : (clipperTriangles(fp, coords) ?? (kept.triangles.length ? kept.triangles : plain.triangles));
  }
  const changed = completeTriangulation(coords, triangles, [0, ...holeStarts], ringVertices, lattice, kept.ok);
  // triangulateRings made its own Delaunay already; fans (along sides split at the lattice, too)
  // and nodes added since want it again
  if ((changed || !kept.ok || lattice) && triangles.length >= 6) refine(triangles, coords, 2);
  if (lattice) triangles = splitOnTerrain(coords, triangles, lattice);
  removeSlivers(coords, triangles, MIN_TRIANGLE_AREA);
  return { coords, triangles };
}
