/**
 * Planar polygons and Clipper2: from rings and Clipper output to valid footprints (outer ring
 * counter-clockwise, holes clockwise, on the millimetre grid of clipper-paths.ts where Clipper made
 * them). Several functions make footprints because they promise different things; which to use:
 *
 * - OSM rings as mapped (buildings, cut-outs, forests, sites): `validFootprints`
 *   (footprint-repair.ts) — normalizeFootprint (ring.ts: drops vertices closer than 1 cm and nearly
 *   collinear ones), and when the rings cross or touch, the area they enclose rebuilt by Clipper.
 * - Clipper output where a centimetre does not matter (the outline remainder of a building with
 *   parts): `footprintsFromTree` (clipper-paths.ts) — normalised like validFootprints, so a side
 *   may move by up to a centimetre.
 * - Clipper output whose boundaries neighbours share vertex for vertex (ground pieces, sea):
 *   `piecesFromTree`, `booleanPieces`, `openPieces` (pieces.ts) — the polygons exactly as Clipper
 *   wrote them (poly-tree.ts: misfiled holes put back, millimetre specks dropped), a piece whose
 *   sides cross or whose ring loops back around a lobe wound backwards (reversed-loops.ts) rebuilt. Rings may still touch at a vertex. `gridFootprints` reads one polygon's
 *   paths back the same way without running Clipper.
 * - Clipper output that must be strictly simple, no two rings sharing a point (road pieces):
 *   `tidyPaths` / `tidyRings` (tidy.ts) — pinched rings split, touching hole corners chamfered by
 *   2 mm, hairline spikes folded; `normalizeGridFootprint` (grid-ring.ts) alone where Clipper's
 *   output is known to be simple already (exact on the grid: nothing else moves).
 * - Unions of rings off the grid (the site, crop/site.ts): `finePath` and `fineTreeFootprints`
 *   (fine-grid.ts), Clipper on a 0.01 mm grid.
 *
 * Checks: `isSimpleFootprint` / `ringsAreDisjointAndSimple` (no touching at all; polygon-checks.ts)
 * and `hasCrossingSides` (crossing-sides.ts: sides crossing or overlapping, touching allowed, as
 * Clipper writes it). The rest is plumbing: ringPath / pathRing / footprintPaths
 * (clipper-paths.ts), orientedPaths / pathsOf / piecePaths (pieces.ts), offsets and the
 * morphological opening (offset.ts, local-opening.ts), boxes and their index (boxes.ts).
 */
export { CLIPPER_SCALE, footprintPaths, footprintsFromTree, pathRing, ringPath } from './clipper-paths.ts';
export { isSimpleFootprint, repairFootprint, validFootprints } from './footprint-repair.ts';
export { holesInsideOuter, isConvexRing, polygonArea2, polygonIsSimple, ringCentroid, ringsAreDisjointAndSimple } from './polygon-checks.ts';
export { hasCrossingSides } from './crossing-sides.ts';
export {
  booleanPieces,
  gridFootprints,
  isAxisRectangle,
  netArea,
  openPieces,
  orientedPaths,
  pathsOf,
  piecePaths,
  piecesFromTree,
  totalArea,
} from './pieces.ts';
export { holeRing, orientedRing, polygonFootprint, polygonPaths, treePolygons, type TreePolygon } from './poly-tree.ts';
export { cleanGridRing, normalizeGridFootprint } from './grid-ring.ts';
export { tidyPaths, tidyRings } from './tidy.ts';
export { FINE_SCALE, finePath, fineTreeFootprints } from './fine-grid.ts';
export { offset, OVERSHOOT, shrunkAndGrown } from './offset.ts';
export { openingMask } from './local-opening.ts';
