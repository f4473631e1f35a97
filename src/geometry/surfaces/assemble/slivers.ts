import { Clipper, ClipType, FillRule, type Paths64, type Rect64 } from 'clipper2-ts';
import type { Footprint } from '../../types.ts';
import { cutInto, grown, indexOf, search } from '../../planar/boxes.ts';
import { booleanPieces, piecePaths } from '../../planar/pieces.ts';
import { withoutSharedSides } from './shared-sides.ts';
import { crosses, MIN_TOUCH, runsAlong, sideIndex, TOUCH, type SideIndex } from './side-index.ts';

/**
 * Where the slivers the opening took off the base ground go (resolve-overlaps.ts): each to the
 * touching piece of highest precedence, united with it; a sliver that touches no piece back into
 * the base ground.
 *
 * Touching = sharing at least MIN_TOUCH of boundary: the length of the sliver's sides that run
 * within TOUCH of a side of the piece, found through one index of the pieces' sides. Only the
 * polygons of a piece that a sliver touches are united with it, so a road network or a park
 * spanning the tile is not rebuilt for a sliver at one corner.
 */

/**
 * Gives each sliver to the touching kept piece of highest precedence (lowest `rank`), united with
 * the polygons of it that the sliver touches; `kept` is updated in place. Returns the slivers that
 * touch no piece. A sliver comes out of Clipper with sides crossing a neighbour's by a fraction of a
 * millimetre now and then (needles between nearly coincident sides); whatever of it reaches into a
 * piece other than its new owner goes first.
 */
export function mergeSlivers(slivers: readonly Footprint[], kept: (Footprint[] | null)[], rank: Int32Array, sides: SideIndex = sideIndex(kept)): Footprint[] {
  const gifts = new Map<number, { paths: Paths64; touched: Set<number> }>();
  const left: Paths64 = [];
  const touch = new Map<number, number>();
  const near = new Set<number>();
  for (const sliver of slivers) {
    touch.clear();
    near.clear();
    let crossing = false;
    for (const ring of sliver.holes.length ? [sliver.outer, ...sliver.holes] : [sliver.outer]) {
      const n = ring.length / 2;
      for (let i = 0; i < n; i++) {
        const j = i + 1 < n ? i + 1 : 0;
        const px = ring[2 * i],
          py = ring[2 * i + 1],
          qx = ring[2 * j],
          qy = ring[2 * j + 1];
        const hits = sides.index.search(Math.min(px, qx) - TOUCH, Math.min(py, qy) - TOUCH, Math.max(px, qx) + TOUCH, Math.max(py, qy) + TOUCH);
        for (const h of hits) {
          near.add(h);
          const along = runsAlong(px, py, qx, qy, sides.xy, h);
          if (along > 0) touch.set(sides.area[h], (touch.get(sides.area[h]) ?? 0) + along);
          else if (!crossing && crosses(px, py, qx, qy, sides.xy, h)) crossing = true;
        }
      }
    }
    let best = -1;
    for (const [k, length] of touch) if (length >= MIN_TOUCH && (best < 0 || rank[k] < rank[best])) best = k;
    let paths = piecePaths([sliver]);
    if (crossing) paths = outsideOthers(paths, best, near, sides, kept);
    if (best < 0) {
      for (const p of paths) left.push(p);
      continue;
    }
    let gift = gifts.get(best);
    if (!gift) gifts.set(best, (gift = { paths: [], touched: new Set() }));
    for (const p of paths) gift.paths.push(p);
    for (const h of near) if (sides.area[h] === best) gift.touched.add(sides.polygon[h]);
  }
  for (const [k, gift] of gifts) {
    const pieces = kept[k]!;
    const united: Paths64 = [];
    const rest: Footprint[] = [];
    for (let i = 0; i < pieces.length; i++) {
      if (gift.touched.has(i)) piecePaths([pieces[i]], united);
      else rest.push(pieces[i]);
    }
    for (const p of gift.paths) united.push(p);
    for (const f of booleanPieces(ClipType.Union, withoutSharedSides(united), null)) rest.push(f);
    kept[k] = rest;
  }
  return left.length ? booleanPieces(ClipType.Union, left, null) : [];
}

/**
 * Unites slivers with the base ground polygons they may touch (boxes within 3 mm); the others stay
 * as they are. Returns the new base ground.
 */
export function uniteWithBase(base: Footprint[], slivers: readonly Footprint[]): Footprint[] {
  if (slivers.length === 0) return base;
  const boxes = base.map((f) => Clipper.getBoundsPaths(piecePaths([f])));
  const index = indexOf(boxes);
  const touched = new Set<number>();
  const paths = piecePaths(slivers);
  for (const s of slivers) for (const i of search(index, grown(Clipper.getBoundsPaths(piecePaths([s])), 3))) touched.add(i);
  const out: Footprint[] = [];
  base.forEach((f, i) => {
    if (touched.has(i)) piecePaths([f], paths);
    else out.push(f);
  });
  for (const f of booleanPieces(ClipType.Union, withoutSharedSides(paths), null)) out.push(f);
  return out;
}

/** The sliver less the polygons of pieces other than `owner` near it (their sides in `near`). */
function outsideOthers(paths: Paths64, owner: number, near: ReadonlySet<number>, sides: SideIndex, kept: readonly (Footprint[] | null)[]): Paths64 {
  const box: Rect64 = grown(Clipper.getBoundsPaths(paths), 3);
  const done = new Set<number>();
  const others: Paths64 = [];
  for (const h of near) {
    const k = sides.area[h],
      i = sides.polygon[h];
    if (k === owner) continue;
    const key = k * 2 ** 20 + i;
    if (done.has(key)) continue;
    done.add(key);
    const p = piecePaths([kept[k]![i]]);
    cutInto(box, p, Clipper.getBoundsPaths(p), others);
  }
  return others.length ? Clipper.difference(paths, others, FillRule.NonZero) : paths;
}
