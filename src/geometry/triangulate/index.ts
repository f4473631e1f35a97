/**
 * Triangulating polygons with holes (flat coordinate lists, outer ring then holes). Which to use:
 * - triangulateRings (rings.ts) keeps every ring vertex, also those on a straight side, so the
 *   triangles meet walls, neighbouring faces and neighbouring pieces without a T-junction: roof
 *   faces, caps of solids, ground pieces. `ok` is false when it cannot cover the polygon cleanly.
 * - triangulateFootprint (footprint.ts) is plain earcut with slivers flipped away; it may skip
 *   vertices on a straight side and says with `exact` whether it covered the polygon: the fallback
 *   for odd or self-crossing polygons, and enough where no neighbour shares the boundary.
 * - clipperTriangles (clipper.ts), Clipper2's constrained Delaunay on the millimetre grid: the last
 *   resort where neither covers the polygon (needles a millimetre wide).
 * - removeSlivers / flipSlivers (slivers.ts) clean up a triangulation that later steps (inserted
 *   nodes, Delaunay flips) may have left with near-zero triangles; the one sliver flip used by all.
 */
export { triangulateRings, STRAIGHT_TOLERANCE, type RingTriangulation } from './rings.ts';
export { triangulateFootprint, type Triangulation } from './footprint.ts';
export { clipperTriangles } from './clipper.ts';
export { flipSlivers, removeSlivers, triangleArea2 } from './slivers.ts';
