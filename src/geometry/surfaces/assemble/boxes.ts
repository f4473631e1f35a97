import { Clipper, type Path64, type Paths64, type Point64, type Rect64 } from 'clipper2-ts';
import Flatbush from 'flatbush';

/**
 * Boxes on the millimetre grid (Clipper's Rect64: top is the smaller y) and a Flatbush index of
 * them, for the ground assembly: which cutters, pieces and slivers can meet at all.
 */

export function inside(a: Rect64, b: Rect64): boolean {
  return a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;
}

export function overlaps(a: Rect64, b: Rect64): boolean {
  return a.left <= b.right && a.right >= b.left && a.top <= b.bottom && a.bottom >= b.top;
}

/** The box grown by `d` grid units on every side. */
export function grown(b: Rect64, d: number): Rect64 {
  return { left: b.left - d, top: b.top - d, right: b.right + d, bottom: b.bottom + d };
}

/** A Flatbush index of boxes; a null entry gets a point box at the origin (whatever finds it has nothing to cut). */
export function indexOf(boxes: readonly (Rect64 | null)[]): Flatbush | null {
  if (boxes.length === 0) return null;
  const index = new Flatbush(boxes.length);
  for (const b of boxes) {
    if (b) index.add(b.left, b.top, b.right, b.bottom);
    else index.add(0, 0, 0, 0);
  }
  index.finish();
  return index;
}

export function search(index: Flatbush | null, b: Rect64): number[] {
  return index ? index.search(b.left, b.top, b.right, b.bottom) : [];
}

/** Appends `paths` cut to the box (a cutter outside the box cannot cut what lies inside it). */
export function cutInto(box: Rect64, paths: Paths64, b: Rect64, out: Paths64): void {
  if (paths.length === 0 || !overlaps(b, box)) return;
  if (inside(b, box)) { for (const p of paths) out.push(p); return; }
  clipToBox(paths, box, out);
}

/**
 * Paths cut to a box (Sutherland–Hodgman, each path on its own; appended to `out`): exact up to
 * rounding the crossing points onto the grid, which depends only on the side crossed, not on its
 * direction. A concave path that leaves the box and comes back is joined along the box's side by
 * a doubled stretch of zero width: harmless for Clipper's boolean operations and offsets by the
 * NonZero rule, which is all the results are used for. (Clipper2's own RectClip, in clipper2-ts
 * 2.0.1, loses polygons or parts of them now and then.)
 */
export function clipToBox(paths: Paths64, box: Rect64, out: Paths64 = []): Paths64 {
  for (const path of paths) {
    let p = path;
    p = clipSide(p, box.left, true, false);
    p = clipSide(p, box.right, true, true);
    p = clipSide(p, box.top, false, false);
    p = clipSide(p, box.bottom, false, true);
    if (p.length >= 3 && Clipper.area(p) !== 0) out.push(p === path ? path.slice() : p);
  }
  return out;
}

/** Keeps the part of a closed path on one side of the line x = at (`vertical`) or y = at: below it when `upper`, above it otherwise. */
function clipSide(path: Path64, at: number, vertical: boolean, upper: boolean): Path64 {
  const n = path.length;
  if (n === 0) return path;
  let all = true;
  for (const q of path) if (!keeps(q, at, vertical, upper)) { all = false; break; }
  if (all) return path;
  const out: Path64 = [];
  for (let i = 0; i < n; i++) {
    const a = path[i], b = path[i + 1 < n ? i + 1 : 0];
    const inA = keeps(a, at, vertical, upper), inB = keeps(b, at, vertical, upper);
    if (inA) out.push(a);
    if (inA !== inB) out.push(crossing(a, b, at, vertical));
  }
  return out;
}

function keeps(q: Point64, at: number, vertical: boolean, upper: boolean): boolean {
  const v = vertical ? q.x : q.y;
  return upper ? v <= at : v >= at;
}

/** Where side a–b crosses the line, on the grid; computed from the side's lower end, so the same for b–a. */
function crossing(a: Point64, b: Point64, at: number, vertical: boolean): Point64 {
  const swap = vertical ? a.x > b.x || (a.x === b.x && a.y > b.y) : a.y > b.y || (a.y === b.y && a.x > b.x);
  const p = swap ? b : a, q = swap ? a : b;
  if (vertical) return { x: at, y: Math.round(p.y + ((at - p.x) * (q.y - p.y)) / (q.x - p.x)) };
  return { x: Math.round(p.x + ((at - p.y) * (q.x - p.x)) / (q.y - p.y)), y: at };
}
