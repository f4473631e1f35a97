import { Clipper, ClipType, FillRule, PolyTree64, type Path64 } from 'clipper2-ts';
import Flatbush from 'flatbush';
import type { BBox, Footprint, Ring } from '../../types.ts';
import { ringPath } from '../../planar/clipper-paths.ts';
import { pointInRing } from '../../ring.ts';
import { piecesFromTree } from '../../planar/pieces.ts';

/**
 * The tile square cut into faces by coastline pieces, on the millimetre grid: each piece (from
 * the square's edge to its edge, or a ring inside it) is closed outside the square into a polygon, and the faces are the connected parts of the square where the count of closures
 * containing a point is odd or even (partitionSquare). They are polygons with holes that meet
 * along the pieces and cover the square.
 */
export interface Face {
  footprint: Footprint;
  /** Bounds in metres. */
  box: BBox;
}

export function boxFootprint(box: BBox): Footprint {
  return { outer: [box.minX, box.minY, box.maxX, box.minY, box.maxX, box.maxY, box.minX, box.maxY], holes: [] };
}

function footprintBox(f: Footprint): BBox {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  const r = f.outer;
  for (let i = 0; i < r.length; i += 2) {
    if (r[i] < minX) minX = r[i];
    if (r[i] > maxX) maxX = r[i];
    if (r[i + 1] < minY) minY = r[i + 1];
    if (r[i + 1] > maxY) maxY = r[i + 1];
  }
  return { minX, minY, maxX, maxY };
}

/** Position of a boundary point along the square's boundary, clockwise from the top-left corner. */
export function boundaryPosition(box: BBox, x: number, y: number): number {
  const w = box.maxX - box.minX,
    h = box.maxY - box.minY;
  const dTop = Math.abs(y - box.maxY),
    dRight = Math.abs(x - box.maxX),
    dBottom = Math.abs(y - box.minY),
    dLeft = Math.abs(x - box.minX);
  const m = Math.min(dTop, dRight, dBottom, dLeft);
  const cx = Math.min(box.maxX, Math.max(box.minX, x)),
    cy = Math.min(box.maxY, Math.max(box.minY, y));
  if (m === dTop) return cx - box.minX;
  if (m === dRight) return w + (box.maxY - cy);
  if (m === dBottom) return w + h + (box.maxX - cx);
  return 2 * w + h + (cy - box.minY);
}

/** How far outside the square the pieces are closed (m). */
const CLOSE_OUTSIDE = 1;

/**
 * A piece closed outside the square: from its last point straight out of the square to a square
 * CLOSE_OUTSIDE larger, clockwise along that to the point straight out from its first point, and
 * in. Inside the square it cuts along the piece only, like a closure along the square's own
 * boundary — but that one would run back over a piece lying along the boundary (a quay on a tile
 * edge), a path overlapping itself that Clipper2 does not always resolve. A closed piece (a ring
 * inside the square) is its own polygon.
 */
export function closePiece(points: Ring, closed: boolean, box: BBox): Ring {
  if (closed) return points;
  const n = points.length / 2;
  const outer: BBox = { minX: box.minX - CLOSE_OUTSIDE, minY: box.minY - CLOSE_OUTSIDE, maxX: box.maxX + CLOSE_OUTSIDE, maxY: box.maxY + CLOSE_OUTSIDE };
  const [ex, ey] = outward(box, outer, points[2 * n - 2], points[2 * n - 1]);
  const [sx, sy] = outward(box, outer, points[0], points[1]);
  const sExit = boundaryPosition(outer, ex, ey),
    sEntry = boundaryPosition(outer, sx, sy);
  const w = outer.maxX - outer.minX,
    h = outer.maxY - outer.minY;
  const corners: [number, number, number][] = [
    [0, outer.minX, outer.maxY],
    [w, outer.maxX, outer.maxY],
    [w + h, outer.maxX, outer.minY],
    [2 * w + h, outer.minX, outer.minY],
  ];
  const passed =
    sEntry >= sExit ? corners.filter(([s]) => s > sExit && s < sEntry) : [...corners.filter(([s]) => s > sExit), ...corners.filter(([s]) => s < sEntry)];
  const out = [sx, sy, ...points, ex, ey];
  for (const [, x, y] of passed) out.push(x, y);
  return out;
}

/** A point on the square's boundary moved straight out (across its nearest side) onto `outer`. */
function outward(box: BBox, outer: BBox, x: number, y: number): [number, number] {
  const d = [Math.abs(y - box.maxY), Math.abs(x - box.maxX), Math.abs(y - box.minY), Math.abs(x - box.minX)];
  const m = Math.min(...d);
  if (m === d[0]) return [x, outer.maxY];
  if (m === d[1]) return [outer.maxX, y];
  if (m === d[2]) return [x, outer.minY];
  return [outer.minX, y];
}

function split(square: Path64, cuts: Path64[], op: ClipType): Face[] {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(op, [square], cuts, tree, FillRule.EvenOdd);
  return piecesFromTree(tree).map((footprint) => ({ footprint, box: footprintBox(footprint) }));
}

/**
 * The square cut into faces by the closed pieces (see Face). Crossing a piece flips the point's
 * membership of that piece's closed polygon and of no other (the closures' other sides run along
 * the square's boundary), so the faces are the connected parts of the square inside an odd number
 * of closures and of the square inside an even number: two Clipper operations (even-odd) for any
 * number of pieces and islands. Two pieces coinciding along a stretch (broken data) cancel there
 * and do not cut.
 */
export function partitionSquare(box: BBox, closures: readonly Ring[]): Face[] {
  const square = ringPath(boxFootprint(box).outer);
  const cuts = closures.map(ringPath).filter((p) => p.length >= 3);
  if (cuts.length === 0) return [{ footprint: boxFootprint(box), box }];
  return [...split(square, cuts, ClipType.Intersection), ...split(square, cuts, ClipType.Difference)];
}

const holeBoxes = new WeakMap<Face, BBox[]>();

export function pointInFace(face: Face, x: number, y: number): boolean {
  const b = face.box;
  if (x < b.minX || x > b.maxX || y < b.minY || y > b.maxY) return false;
  if (!pointInRing(x, y, face.footprint.outer)) return false;
  let boxes = holeBoxes.get(face);
  if (!boxes) {
    boxes = face.footprint.holes.map((h) => footprintBox({ outer: h, holes: [] }));
    holeBoxes.set(face, boxes);
  }
  const holes = face.footprint.holes;
  for (let i = 0; i < holes.length; i++) {
    const hb = boxes[i];
    if (x < hb.minX || x > hb.maxX || y < hb.minY || y > hb.maxY) continue;
    if (pointInRing(x, y, holes[i])) return false;
  }
  return true;
}

/** Finds the face holding a point: candidates by box (Flatbush), the smallest boxes first. */
export function faceFinder(faces: readonly Face[]): (x: number, y: number) => number {
  const finder = new FaceFinder(faces);
  return finder.faceAt.bind(finder);
}

/** A class, not closures made per call: V8 drops a closure's optimised code at every full collection. */
class FaceFinder {
  private readonly index: Flatbush | null = null;
  private readonly size: number[] = [];

  constructor(private readonly faces: readonly Face[]) {
    if (faces.length <= 4) return;
    const index = new Flatbush(faces.length);
    for (const f of faces) index.add(f.box.minX, f.box.minY, f.box.maxX, f.box.maxY);
    index.finish();
    this.index = index;
    this.size = faces.map((f) => (f.box.maxX - f.box.minX) * (f.box.maxY - f.box.minY));
  }

  faceAt(x: number, y: number): number {
    const faces = this.faces;
    if (!this.index) {
      for (let f = 0; f < faces.length; f++) if (pointInFace(faces[f], x, y)) return f;
      return -1;
    }
    const size = this.size;
    const candidates = this.index.search(x, y, x, y).sort((a, b) => size[a] - size[b]);
    for (const f of candidates) if (pointInFace(faces[f], x, y)) return f;
    return -1;
  }
}

/**
 * A point well inside a polygon with holes: the middle of the widest run of a few horizontal
 * scanlines (at heights that avoid the grid's vertices) inside it. Null for an empty polygon.
 */
export function interiorPoint(f: Footprint): [number, number] | null {
  const b = footprintBox(f);
  const rings = [f.outer, ...f.holes];
  let best: [number, number] | null = null,
    bestWidth = 0;
  for (const frac of [0.5, 0.2718281828, 0.7853981634, 0.1414213562, 0.9142135624, 0.3819660113, 0.6180339887]) {
    const y = b.minY + frac * (b.maxY - b.minY);
    const xs: number[] = [];
    for (const r of rings) {
      const n = r.length / 2;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        const yi = r[2 * i + 1],
          yj = r[2 * j + 1];
        if (yi > y !== yj > y) xs.push(r[2 * i] + ((y - yi) * (r[2 * j] - r[2 * i])) / (yj - yi));
      }
    }
    xs.sort((p, q) => p - q);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const width = xs[k + 1] - xs[k];
      if (width > bestWidth) {
        bestWidth = width;
        best = [(xs[k] + xs[k + 1]) / 2, y];
      }
    }
  }
  return best;
}
