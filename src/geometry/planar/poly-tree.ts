import { Clipper, ClipType, FillRule, PointInPolygonResult, PolyTree64, type Path64, type Paths64, type PolyPath64, type Point64 } from 'clipper2-ts';
import type { Footprint, Ring } from '../types.ts';
import { pathRing } from './clipper-paths.ts';
import { signedArea2 } from '../ring.ts';

/**
 * Reading Clipper2's poly trees: polygons with their holes as Clipper wrote them (islands inside
 * holes are polygons of their own, one level further down), rings oriented and millimetre specks
 * dropped.
 *
 * clipper2-ts 2.0.1 now and then files a hole as an outer polygon of its own — a path of negative
 * area beside the polygon it belongs to, which then lacks it: read as it stands, the hole becomes a
 * piece overlapping its neighbour and the polygon covers it too. Such a hole is put back into the
 * sibling polygon that contains it (or the tree is read again, see treePolygons).
 */

export interface TreePolygon {
  outer: Path64;
  holes: Paths64;
}

/**
 * The polygons of a poly tree, every level (islands in holes too), misfiled holes put back. When
 * one fits no polygon — clipper2-ts has written the same region once as a polygon and once as a
 * hole, which cancel — the polygons its box overlaps are read again from their union with it
 * (NonZero: the pair cancels, all else stays as it is).
 */
export function treePolygons(tree: PolyPath64): TreePolygon[] {
  const out: TreePolygon[] = [];
  collect(tree, out, true);
  return out;
}

/** The polygons among a node's children and below (see treePolygons; `mend`: rebuild around a misfiled hole that fits none). */
function collect(node: PolyPath64, out: TreePolygon[], mend: boolean): void {
  let level: TreePolygon[] = [];
  let misfiled: PolyPath64[] | null = null;
  const nested: PolyPath64[] = [];
  for (let i = 0; i < node.count; i++) {
    const child = node.child(i);
    const outer = child.polygon ?? [];
    if (outer.length >= 3 && Clipper.area(outer) < 0) {
      (misfiled ??= []).push(child);
      continue;
    }
    const holes: Paths64 = [];
    for (let k = 0; k < child.count; k++) {
      const hole = child.child(k);
      if (hole.polygon) holes.push(hole.polygon);
      nested.push(hole);
    }
    level.push({ outer, holes });
  }
  if (misfiled) {
    for (const hole of misfiled) {
      if (adoptInto(hole.polygon!, level, false) || adoptInto(hole.polygon!, out, true)) {
        nested.push(hole);
        continue;
      }
      if (mend) level = mended(hole, level);
    }
  }
  for (const p of level) out.push(p);
  for (const hole of nested) collect(hole, out, mend);
}

/** The polygons with those that a hole fitting none overlaps (by box) replaced by their union with the hole and what lies in it. */
function mended(hole: PolyPath64, level: TreePolygon[]): TreePolygon[] {
  const b = Clipper.getBounds(hole.polygon!);
  const keep: TreePolygon[] = [];
  const paths: Paths64 = [];
  for (const p of level) {
    const o = Clipper.getBounds(p.outer);
    if (o.left > b.right || o.right < b.left || o.top > b.bottom || o.bottom < b.top) {
      keep.push(p);
      continue;
    }
    paths.push(p.outer);
    for (const h of p.holes) paths.push(h);
  }
  addSubtree(hole, paths);
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, paths, null, tree, FillRule.NonZero);
  collect(tree, keep, false);
  return keep;
}

function addSubtree(node: PolyPath64, out: Paths64): void {
  if (node.polygon) out.push(node.polygon);
  for (let i = 0; i < node.count; i++) addSubtree(node.child(i), out);
}

/**
 * Gives a misfiled hole to the first polygon whose outer ring contains it (a point inside the hole
 * is inside its outer ring) — among its siblings' level, or with `outsideHoles` among the levels
 * above (`out`: collect puts a level there before it walks the levels below), outside that
 * polygon's holes; false when none does. Above, because
 * clipper2-ts can file a hole of the outer polygon under a hole of it that the hole only touches
 * (a building site's corner beside a road's hole in the base ground). Mended instead, the hole's
 * region became a polygon of its own: ground laid over the piece it was cut for.
 */
function adoptInto(path: Path64, polygons: TreePolygon[], outsideHoles: boolean): boolean {
  const inner = pointInside(path);
  if (!inner) return false;
  const b = Clipper.getBounds(path);
  for (const p of polygons) {
    const o = Clipper.getBounds(p.outer);
    if (o.left > b.left || o.right < b.right || o.top > b.top || o.bottom < b.bottom) continue;
    if (Clipper.pointInPolygon(inner, p.outer) !== PointInPolygonResult.IsInside) continue;
    if (outsideHoles && p.holes.some((h) => Clipper.pointInPolygon(inner, h) !== PointInPolygonResult.IsOutside)) continue;
    p.holes.push(path);
    return true;
  }
  return false;
}

/** A grid point strictly inside the ring: the centre of a corner's triangle, the first that is; null when none is. */
function pointInside(path: Path64): Point64 | null {
  const n = path.length,
    sign = Math.sign(Clipper.area(path));
  for (let i = 0; i < n; i++) {
    const a = path[(i + n - 1) % n],
      b = path[i],
      c = path[(i + 1) % n];
    if (Math.sign((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) !== sign) continue;
    const q = { x: Math.round((a.x + b.x + c.x) / 3), y: Math.round((a.y + b.y + c.y) / 3) };
    if (Clipper.pointInPolygon(q, path) === PointInPolygonResult.IsInside) return q;
  }
  return null;
}

/** The polygon as a footprint (outer counter-clockwise, holes clockwise, specks dropped); null when the outer ring collapses. */
export function polygonFootprint(p: TreePolygon): Footprint | null {
  const outer = dropSpecks(orientedRing(p.outer, true));
  if (!outer) return null;
  const holes: Ring[] = [];
  for (const h of p.holes) {
    const hole = dropSpecks(orientedRing(h, false));
    if (hole) holes.push(hole);
  }
  return { outer, holes };
}

/** A hole's path as polygonFootprint reads it (clockwise, specks dropped); null when it collapses. */
export function holeRing(path: Path64): Ring | null {
  return dropSpecks(orientedRing(path, false));
}

/** The polygon's paths, outer first, as Clipper wrote them. */
export function polygonPaths(p: TreePolygon): Paths64 {
  return [p.outer, ...p.holes];
}

/** Outer counter-clockwise, holes clockwise, rings of fewer than three vertices or no area left out. */
export function orientedRing(path: Path64, ccw: boolean): Ring | null {
  if (path.length < 3) return null;
  const a = Clipper.area(path);
  if (a === 0) return null;
  const ring = pathRing(path);
  if (a > 0 !== ccw) {
    const n = ring.length / 2;
    for (let i = 0, j = n - 1; i < j; i++, j--) {
      const x = ring[2 * i],
        y = ring[2 * i + 1];
      ring[2 * i] = ring[2 * j];
      ring[2 * i + 1] = ring[2 * j + 1];
      ring[2 * j] = x;
      ring[2 * j + 1] = y;
    }
  }
  return ring;
}

/** A corner whose triangle with its neighbours is under this (m²) and that has a side under SPECK_SIDE is a speck. */
const SPECK_AREA = 4e-6;
const SPECK_SIDE = 0.01;

/**
 * Drops millimetre specks from a ring: corners with a side shorter than a centimetre whose
 * triangle with their neighbours has (almost) no area — the zigzags and needle tips Clipper's
 * rounding leaves where boundaries nearly coincide. They are below the output's precision, and a
 * mesh could only drop them as degenerate triangles, leaving an outline vertex off the mesh. Longer
 * straight runs keep their vertices (a neighbour's corner may stand there). One pass, never two
 * neighbours: each removal changes the ring by its own triangle only (under SPECK_AREA), so the
 * piece cannot creep into its neighbour. Null when the ring collapses.
 */
function dropSpecks(ring: Ring | null): Ring | null {
  if (!ring || ring.length < 8) return ring;
  const n = ring.length / 2;
  const keep: number[] = [];
  let previousDropped = false,
    firstDropped = false;
  for (let i = 0; i < n; i++) {
    const h = (i + n - 1) % n,
      j = (i + 1) % n;
    const px = ring[2 * h],
      py = ring[2 * h + 1],
      x = ring[2 * i],
      y = ring[2 * i + 1],
      nx = ring[2 * j],
      ny = ring[2 * j + 1];
    const area = Math.abs((x - px) * (ny - py) - (y - py) * (nx - px)) / 2;
    const lastWithFirstDropped = i === n - 1 && firstDropped;
    // (the sides' lengths only where the area is a speck's: most corners are not)
    if (
      !previousDropped &&
      !lastWithFirstDropped &&
      area < SPECK_AREA &&
      Math.min(Math.hypot(x - px, y - py), Math.hypot(nx - x, ny - y)) < SPECK_SIDE &&
      keep.length / 2 + (n - i - 1) >= 3
    ) {
      previousDropped = true;
      if (i === 0) firstDropped = true;
      continue;
    }
    previousDropped = false;
    keep.push(x, y);
  }
  return keep.length >= 6 && signedArea2(keep) !== 0 ? keep : null;
}
