/**
 * Assembling the ground (docs/ground.md): mapped areas in, non-overlapping upward-facing meshes and
 * boundary polylines out. Pure functions in the local frame (x east, y north, z up, metres).
 *
 * ```ts
 * const pieces = resolveOverlaps(areas, { cutOut: buildingFootprints, clip: tileSquare });
 * const meshes = surfaceMeshes(pieces, { ground, drape: !disableSurfaceProjection });
 * const lines = surfaceOutlines(pieces, { ground, drape: !disableSurfaceProjection });
 * ```
 *
 * - resolve-overlaps.ts — precedence (priority, then smaller area, then lower id), buildings cut
 *   out, slivers opened away and merged, the inferred base ground; tolerances documented there.
 * - surface-meshes.ts — one single-sided mesh per area, triangles facing +z, none degenerate (a
 *   closed slab for a deck).
 * - drape.ts — heights: z = 0 without terrain; on the ground sampler with edges split at the
 *   terrain grid lines when draping; only the mapped vertices, each on the ground, with
 *   `drape: false` (disableSurfaceProjection); bridge decks at their profile (../deck-height.ts).
 * - deck-slab.ts — a bridge deck piece as a closed slab.
 * - deck-landings.ts — where a deck runs within 10 cm of the ground: cut out of the ground like a
 *   building, the deck's top is the ground there.
 * - surface-outlines.ts — rings of every piece as closed DrapedLines (`vertices` x, y, z…), lying on
 *   their mesh's boundary vertices; `drapeLine` drapes any SurfaceLine (centerlines) the same way.
 * - insert-nodes.ts — triangulation completion (lattice nodes); the Clipper2 plumbing is the
 *   planar kit's (src/geometry/planar/).
 */
export { resolveOverlaps, RESOLVE_OVERLAPS_DEFAULTS, BASE_GROUND_DESCRIPTOR, type ResolveOverlapsOptions } from './resolve-overlaps.ts';
export { surfaceMeshes, pieceMesh, triangulatePiece, MIN_TRIANGLE_AREA, type SurfaceMeshOptions } from './surface-meshes.ts';
export { surfaceOutlines, drapeLine, type DrapedLine, type SurfaceOutlineOptions } from './surface-outlines.ts';
export {
  deckHeight,
  drapeLattice,
  pieceHeights,
  splitRing,
  SPLIT_MIN_GAP,
  type DrapeLattice,
  type DrapeOptions,
} from './drape.ts';
