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
  if (inside(b, box)) {
    for (const p of paths) out.push(p);
    return;
  }
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
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (const q of path) {
      if (q.x < minX) minX = q.x;
      if (q.x > maxX) maxX = q.x;
      if (q.y < minY) minY = q.y;
      if (q.y > maxY) maxY = q.y;
    }
    if (maxX < box.left || minX > box.right || maxY < box.top || minY > box.bottom) continue;
    let p = path;
    if (minX < box.left) p = clipSide(p, box.left, true, false);
    if (maxX > box.right) p = clipSide(p, box.right, true, true);
    if (minY < box.top) p = clipSide(p, box.top, false, false);
    if (maxY > box.bottom) p = clipSide(p, box.bottom, false, true);
    if (p.length >= 3 && (p === path || Clipper.area(p) !== 0)) out.push(p);
  }
  return out;
}

/** Keeps the part of a closed path on one side of the line x = at (`vertical`) or y = at: below it when `upper`, above it otherwise. */
function clipSide(path: Path64, at: number, vertical: boolean, upper: boolean): Path64 {
  const n = path.length;
  const out: Path64 = [];
  for (let i = 0; i < n; i++) {
    const a = path[i],
      b = path[i + 1 < n ? i + 1 : 0];
    const va = vertical ? a.x : a.y,
      vb = vertical ? b.x : b.y;
    const inA = upper ? va <= at : va >= at,
      inB = upper ? vb <= at : vb >= at;
    if (inA) out.push(a);
    if (inA !== inB) out.push(crossing(a, b, at, vertical));
  }
  return out;
}

/** Where side a–b crosses the line, on the grid; computed from the side's lower end, so the same for b–a. */
function crossing(a: Point64, b: Point64, at: number, vertical: boolean): Point64 {
  const swap = vertical ? a.x > b.x || (a.x === b.x && a.y > b.y) : a.y > b.y || (a.y === b.y && a.x > b.x);
  const p = swap ? b : a,
    q = swap ? a : b;
  if (vertical) return { x: at, y: Math.round(p.y + ((at - p.x) * (q.y - p.y)) / (q.x - p.x)) };
  return { x: Math.round(p.x + ((at - p.y) * (q.x - p.x)) / (q.y - p.y)), y: at };
}

/** Groups of boxes linked by overlapping (touching counts), as lists of their numbers. */
export function overlappingGroups(bounds: readonly Rect64[]): number[][] {
  const parent = new Int32Array(bounds.length);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const index = indexOf(bounds);
  for (let i = 0; i < bounds.length; i++) {
    for (const j of search(index, bounds[i])) {
      if (j <= i) continue;
      const a = root(parent, i),
        b = root(parent, j);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < bounds.length; i++) {
    const r = root(parent, i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  }
  return [...groups.values()];
}

function root(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}
