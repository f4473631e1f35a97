/**
 * Road pieces to valid, non-overlapping footprints.
 *
 * (Each piece is cut by the final outlines of the pieces before it — after their own cuts, tidying
 * and sliver removal — so neighbours share boundary vertices exactly and a dropped sliver is
 * filled by the next piece instead of leaving a gap.)
 *
 * Strips, junctions and sidewalks meet along shared edges by construction, but real road graphs
 * still overlap: an acute junction whose trims were capped, a sidewalk running into the next
 * road, a footway crossing a carriageway, two ways drawn side by side without a shared node. Each
 * piece is cut by every piece that precedes it (the caller orders them: higher priority first, then
 * junctions before strips, wider before narrower, then id) and lies in the same group (the ground,
 * or one bridge layer: decks neither cut nor are cut by what is under them). Only pieces whose
 * boxes overlap (Flatbush) and that really share area (overlap.ts, exact, much cheaper than a
 * boolean operation) are cut, one Clipper difference each; a piece that needs no cut keeps its
 * outline as built.
 *
 * The result is normalised and made strictly simple (planar/tidy.ts: outer counter-clockwise, holes
 * clockwise, no rings touching), and polygons under MIN_PIECE_AREA or thinner than
 * MIN_PIECE_WIDTH are dropped.
 */
import { Clipper, EndType, FillRule, JoinType, type Paths64 } from 'clipper2-ts';
import Flatbush from 'flatbush';
import type { Footprint } from '../../types.ts';
import { CLIPPER_SCALE, footprintPaths, pathRing } from '../../planar/clipper-paths.ts';
import { flatBounds, ringArea } from '../../ring.ts';
import { isSimpleFootprint } from '../../planar/footprint-repair.ts';
import { normalizeGridFootprint } from '../../planar/grid-ring.ts';
import { tidyPaths } from '../../planar/tidy.ts';
import { pieceEdges, piecesOverlap, type Box } from './overlap.ts';

/** Polygons smaller than this are dropped, m². */
export const MIN_PIECE_AREA = 0.01;
/**
 * Polygons thinner than this on average (twice the area over the perimeter) are dropped, metres:
 * hairline slivers between nearly parallel edges. Being dropped before later pieces are cut, they
 * leave no gap where a later piece lies.
 */
export const MIN_PIECE_WIDTH = 0.005;

export interface Piece {
  /** Outline on the millimetre grid: one counter-clockwise ring, or Clipper output (holes negative). */
  paths: Paths64;
  /** True when `paths` is one simple counter-clockwise ring. */
  simple: boolean;
  /** Pieces cut only pieces of the same group… */
  group: string;
  /** …and pieces that list their `owner` here (a bridge's strip is cut by the ground junction at its abutment). */
  cutBy?: ReadonlySet<number>;
  /** Which output area the piece belongs to. */
  owner: number;
}

function footprintArea(fp: Footprint): number {
  let a = ringArea(fp.outer);
  for (const h of fp.holes) a -= ringArea(h);
  return a;
}

function perimeter(ring: number[]): number {
  let p = 0;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) p += Math.hypot(ring[2 * i] - ring[2 * j], ring[2 * i + 1] - ring[2 * j + 1]);
  return p;
}

function keep(fps: Footprint[], out: Footprint[]): void {
  for (const fp of fps) {
    const area = footprintArea(fp);
    if (area < MIN_PIECE_AREA) continue;
    if (2 * area < MIN_PIECE_WIDTH * fp.holes.reduce((p, h) => p + perimeter(h), perimeter(fp.outer))) continue;
    out.push(fp);
  }
}

/** Overlap left by a cut that clipper2-ts got wrong, m²: far above its rounding (a 1 mm band along a few metres). */
export const CUT_CHECK_AREA = 0.005;

/**
 * `subject − cutter`, checked. clipper2-ts occasionally misjudges a region when the two outlines
 * run along each other a millimetre apart (vertices rounded to the grid by earlier cuts): a region
 * of the cutter survives in the result. The result is tested (exactly, overlap.ts) against the
 * cutter; only when that finds a stretch inside is the overlap measured, and when it is more than
 * rounding the cut is redone against the cutter grown by one grid step, which puts the troublesome
 * near-coincident edges a clear millimetre apart.
 *
 * It can also write a stray hole outside every outline (two nearly collinear edges from one
 * vertex joined the wrong way round). Read by orientation, the Positive fill rule, such a reversed
 * loop is nothing, as planar/tidy.ts reads it too; NonZero made the next cut turn it into ground outside
 * the piece, over a strip that had no reason to cut it.
 */
function cut(subject: Paths64, cutter: Paths64, cutterEdges: Float64Array, cutterBox: Box): Paths64 {
  const rest = Clipper.difference(subject, cutter, FillRule.Positive);
  if (rest.length === 0 || !overlapsBeyondRounding(rest, cutter, cutterEdges, cutterBox)) return rest;
  const grown = Clipper.inflatePaths(cutter, 1, JoinType.Miter, EndType.Polygon, 4);
  return Clipper.difference(subject, grown, FillRule.Positive);
}

/** Whether `rest` shares more than CUT_CHECK_AREA with the cutter (tested exactly before it is measured). */
function overlapsBeyondRounding(rest: Paths64, cutter: Paths64, cutterEdges: Float64Array, cutterBox: Box): boolean {
  const restEdges = pieceEdges(rest);
  if (!piecesOverlap(restEdges, flatBounds(restEdges), cutterEdges, cutterBox)) return false;
  return Clipper.areaPaths(Clipper.intersect(rest, cutter, FillRule.NonZero)) / (CLIPPER_SCALE * CLIPPER_SCALE) > CUT_CHECK_AREA;
}

const boxAt = (boxes: Float64Array, i: number): Box => ({ minX: boxes[4 * i], minY: boxes[4 * i + 1], maxX: boxes[4 * i + 2], maxY: boxes[4 * i + 3] });

/**
 * Footprints of each piece after every earlier piece of its group has been cut out of it (the
 * array order is the precedence). Returns one footprint list per piece.
 */
export function resolvePieces(pieces: readonly Piece[]): Footprint[][] {
  const n = pieces.length;
  const out: Footprint[][] = new Array(n);
  if (n === 0) return out;
  const boxes = new Float64Array(4 * n);
  const index = new Flatbush(n);
  for (let i = 0; i < n; i++) {
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (const path of pieces[i].paths) {
      for (const p of path) {
        if (p.x < minX) minX = p.x;
        if (p.y < minY) minY = p.y;
        if (p.x > maxX) maxX = p.x;
        if (p.y > maxY) maxY = p.y;
      }
    }
    if (minX > maxX) minX = minY = maxX = maxY = 0;
    boxes.set([minX, minY, maxX, maxY], 4 * i);
    index.add(minX, minY, maxX, maxY);
  }
  index.finish();
  const subjectEdges: (Float64Array | undefined)[] = new Array(n);
  /** Each resolved piece as it finally is (paths and edges): later pieces are cut by exactly that. */
  const finalPaths: Paths64[] = new Array(n);
  const finalEdges: (Float64Array | undefined)[] = new Array(n);
  const finalBoxes: (Box | undefined)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const piece = pieces[i];
    const fps: Footprint[] = [];
    out[i] = fps;
    finalPaths[i] = [];
    if (piece.paths.length === 0) continue;
    const cutters: number[] = [];
    const hits = index.search(boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3]).sort((a, b) => a - b);
    const box = boxAt(boxes, i);
    for (const j of hits) {
      if (j >= i || finalPaths[j].length === 0) continue;
      if (pieces[j].group !== piece.group && !piece.cutBy?.has(pieces[j].owner)) continue;
      if (!piecesOverlap((subjectEdges[i] ??= pieceEdges(piece.paths)), box, (finalEdges[j] ??= pieceEdges(finalPaths[j])), boxAt(boxes, j))) continue;
      cutters.push(j);
    }
    if (cutters.length > 0) {
      // one cutter at a time, in precedence order: cutters meet along shared, sometimes nearly
      // coincident edges, and clipper2-ts has been seen to misjudge both a difference against
      // such a set at once and the union of such a set (a region kept or filled wrongly)
      let rest = piece.paths;
      for (const j of cutters) {
        // (the cutter's edges as the overlap test above made them; its box from them, as before)
        rest = cut(rest, finalPaths[j], finalEdges[j]!, (finalBoxes[j] ??= flatBounds(finalEdges[j]!)));
        if (rest.length === 0) break;
      }
      keep(tidyPaths(rest), fps);
      // a later cut can bring back a corner of an earlier cutter (the same misjudgement; seen: a
      // triangle of a junction as a lobe of the strip): the tidied result is checked once more
      for (let k = 0; k + 1 < cutters.length && fps.length > 0; k++) {
        const j = cutters[k];
        const paths = fps.flatMap(footprintPaths);
        if (!overlapsBeyondRounding(paths, finalPaths[j], finalEdges[j]!, finalBoxes[j]!)) continue;
        fps.length = 0;
        keep(tidyPaths(cut(paths, finalPaths[j], finalEdges[j]!, finalBoxes[j]!)), fps);
      }
    } else if (piece.simple) {
      const fp = normalizeGridFootprint({ outer: pathRing(piece.paths[0]), holes: [] });
      if (fp) keep(isSimpleFootprint(fp) ? [fp] : tidyPaths(piece.paths), fps);
    } else {
      // read again by a union: clipper2-ts has been seen to write a ring that runs twice over a
      // corner of itself (a junction covering 7 m² of itself twice), which a second union writes once
      keep(tidyPaths(Clipper.union(piece.paths, FillRule.Positive)), fps);
    }
    for (const fp of fps) for (const p of footprintPaths(fp)) finalPaths[i].push(p);
  }
  return out;
}

/** Area of Clipper paths in m² (holes negative). */
export function pathsArea(paths: Paths64): number {
  return Clipper.areaPaths(paths) / (CLIPPER_SCALE * CLIPPER_SCALE);
}
