import { ClipType, type Paths64, type Rect64 } from 'clipper2-ts';
import type { Footprint } from '../../types.ts';
import { clipToBox } from '../../planar/boxes.ts';
import { booleanPieces, pathsOf, piecePaths } from '../../planar/pieces.ts';
import { regionIndex, regionSide } from '../../planar/region-contains.ts';
import { cleanBoolean } from './clean-pieces.ts';
import { withoutSharedSides } from './shared-sides.ts';
import type { SideIndex } from './side-index.ts';

/**
 * Cutter sides per part of the clip above which the base ground is built part by part: Clipper's
 * sweep costs about the sides times the sides crossing a scanline, and the base ground of a city
 * tile is one polygon with every block as a hole, so its opening sweeps the whole tile again.
 */
export const BASE_PART_SIDES = 2000;
/** At most this many parts a side. */
const MAX_PARTS = 4;

/**
 * The boxes of the parts a busy clip's base ground is built (baseGround) or split (splitFiller) in:
 * a grid of up to MAX_PARTS × MAX_PARTS over the clip's box when `paths` have more than `partSides`
 * sides per part; null when it is done whole.
 */
export function baseParts(bounds: Rect64, paths: Paths64, partSides = BASE_PART_SIDES): Rect64[] | null {
  let n = 0;
  for (const p of paths) n += p.length;
  const k = Math.min(MAX_PARTS, Math.ceil(Math.sqrt(n / partSides)));
  if (k <= 1) return null;
  const xs = cuts(bounds.left, bounds.right, k),
    ys = cuts(bounds.top, bounds.bottom, k);
  const out: Rect64[] = [];
  for (let j = 0; j < k; j++) for (let i = 0; i < k; i++) out.push({ left: xs[i], right: xs[i + 1], top: ys[j], bottom: ys[j + 1] });
  return out;
}

/**
 * The base ground (resolve-overlaps.ts): the clip less everything `covered`, cleaned (cleanPieces;
 * what the opening takes off appended to `removed`). A large one is built in a grid of parts of
 * the clip's box (baseParts), each from the cutters cut to its part: the parts meet along their common sides
 * as neighbouring tiles do (a bit reaching a part's side is kept however small, as at a tile's edge) (a seam is a side like any other: shared vertex for vertex, and a
 * sliver under the opening's width along it goes to the piece beside it, as at a tile's edge).
 */
export function baseGround(
  clip: Paths64,
  bounds: Rect64,
  covered: Paths64,
  minWidth: number,
  minArea: number,
  removed: Paths64,
  sides: SideIndex,
  partSides = BASE_PART_SIDES,
): Footprint[] {
  const boxes = baseParts(bounds, covered, partSides);
  if (!boxes) return cleanBoolean(ClipType.Difference, clip, withoutSharedSides(covered), minWidth, minArea, removed, sides, bounds);
  const out: Footprint[] = [];
  for (const box of boxes) {
    const part = clipToBox(clip, box);
    if (part.length === 0) continue;
    // cut to the part first, then the shared sides dropped: a side two pieces share is cut
    // alike in both (planar/boxes.ts), so the twins still cancel; the paths withoutSharedSides walks
    // may not be cut one by one
    const cutters = withoutSharedSides(clipToBox(covered, box));
    for (const f of cleanBoolean(ClipType.Difference, part, cutters, minWidth, minArea, removed, sides, box)) out.push(f);
  }
  return out;
}

/** k + 1 grid coordinates from `lo` to `hi`, evenly spaced. */
function cuts(lo: number, hi: number, k: number): number[] {
  const out = [lo];
  for (let i = 1; i < k; i++) out.push(Math.round(lo + ((hi - lo) * i) / k));
  out.push(hi);
  return out;
}

/**
 * The base ground split by the paved zone (surfaces/filler): `paved` = base ∩ zone, `grass` = the
 * rest, each opened like every piece. A thin bit of the paved part goes to the grass (it stays in
 * base − paved); a thin bit of the grass left along the zone's edge goes to the paved part it
 * borders, so the two still tile the base ground. Most polygons of a city's base ground lie wholly
 * inside the zone or wholly outside it (planar/region-contains.ts decides that without a sweep):
 * they go whole to their side, and only the others are split by the two sweeps.
 *
 * Not in parts as the base ground is built (baseGround): a part's seam would leave the grass
 * between it and the zone's edge thin where it is not (a 3 cm strip along a 14 m seam turned to
 * pavement), and the polygons left to split are few.
 */
export function splitFiller(
  base: readonly Footprint[],
  zone: Paths64,
  minWidth: number,
  minArea: number,
  edge?: Rect64,
): { paved: Footprint[]; grass: Footprint[] } {
  if (base.length === 0 || zone.length === 0) return { paved: [], grass: base.slice() };
  const region = regionIndex(zone);
  const paved: Footprint[] = [],
    grass: Footprint[] = [],
    rest: Footprint[] = [];
  for (const f of base) {
    const side = regionSide(region, pathsOf([f]));
    (side === 'inside' ? paved : side === 'outside' ? grass : rest).push(f);
  }
  if (rest.length === 0) return { paved, grass };
  const split = splitPaths(piecePaths(rest), zone, minWidth, minArea, edge);
  if (!split) return { paved, grass: [...grass, ...rest] };
  for (const f of split.paved) paved.push(f);
  for (const f of split.grass) grass.push(f);
  return { paved, grass };
}

/** splitFiller on paths (the base ground's, or a part's); null when nothing is paved. */
function splitPaths(basePaths: Paths64, zone: Paths64, minWidth: number, minArea: number, edge?: Rect64): { paved: Footprint[]; grass: Footprint[] } | null {
  let paved = cleanBoolean(ClipType.Intersection, basePaths, zone, minWidth, minArea, undefined, undefined, edge);
  if (paved.length === 0) return null;
  const lost: Paths64 = [];
  const grass = cleanBoolean(ClipType.Difference, basePaths, piecePaths(paved), minWidth, minArea, lost, undefined, edge);
  if (lost.length > 0) paved = booleanPieces(ClipType.Union, piecePaths(paved, lost.slice()), null);
  return { paved, grass };
}
