/**
 * cropScene (docs/crop.md): the model cut exactly along the polygon. Pure functions in the local
 * frame (x east, y north, z up, metres), one concern per module:
 *
 * - crop-polygon.ts — the polygon as flat typed edges; inside / box / distance tests.
 * - split-mesh.ts — a mesh split along the polygon's edges, triangles classified inside/outside.
 * - cap-cut.ts, cut-solid.ts, crop-solids.ts — closed solids (buildings, barriers) cut by the
 *   polygon's vertical prism and capped, still closed outward 2-manifolds.
 * - clip-areas.ts — ground pieces clipped with Clipper2.
 * - clip-polyline.ts — polylines cut at the boundary, into several parts where they leave and re-enter.
 * - clip-surface-mesh.ts — terrain meshes clipped, the cut following the terrain.
 * - elevation-mask.ts — the 0/1 mask of an elevation map's nodes.
 *
 * ```ts
 * const poly = cropPolygon(tile.polygon);
 * const buildings = cropSolids(built, poly);
 * ```
 */
export { cropPolygon, insidePolygon, boxRelation, distanceOutside, distanceToBoundary, nudgeInwards, type CropPolygon } from './crop-polygon.ts';
export { splitAlongPolygon, meshBox, type SplitMesh, type SplitOptions } from './split-mesh.ts';
export { cutSolid, CUT_SOLID_DEFAULTS, type CutSolid, type CutSolidOptions } from './cut-solid.ts';
export { cropSolids, CAP_FAILED_NOTE } from './crop-solids.ts';
export { clipAreas, CLIP_AREAS_MIN_AREA } from './clip-areas.ts';
export { clipPolylineToPolygon } from './clip-polyline.ts';
export { clipSurfaceMesh, SURFACE_SNAP } from './clip-surface-mesh.ts';
export { elevationMask } from './elevation-mask.ts';
