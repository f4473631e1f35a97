/**
 * Checks of road surfaces for tests and probes (like src/geometry/mesh-checks.ts for meshes): footprint
 * validity, overlap areas, coverage of centerlines, the length of boundary two areas share.
 * Slow and exact enough; not used on the request path.
 */
import { Clipper, FillRule } from 'clipper2-ts';
import type { Footprint, Ring } from '../../../src/geometry/types.ts';
import type { SurfaceArea } from '../../../src/geometry/surfaces/types.ts';
import { CLIPPER_SCALE, footprintPaths } from '../../../src/geometry/planar/clipper-paths.ts';
import { isCounterClockwise, pointInRing, polylineLength, ringArea } from '../../../src/geometry/ring.ts';
import { holesInsideOuter } from '../../../src/geometry/planar/polygon-checks.ts';
import { isSimpleFootprint } from '../../../src/geometry/planar/footprint-repair.ts';

/** Why a footprint is not valid, or null: outer counter-clockwise, holes clockwise and inside, no crossing, finite, ≥ minArea. */
export function footprintProblem(fp: Footprint, minArea = 0.01): string | null {
  const rings = [fp.outer, ...fp.holes];
  if (rings.some((r) => r.length < 6 || r.length % 2 !== 0 || r.some((v) => !Number.isFinite(v)))) return 'degenerate ring';
  if (!isCounterClockwise(fp.outer)) return 'outer ring not counter-clockwise';
  if (fp.holes.some((h) => isCounterClockwise(h))) return 'hole not clockwise';
  if (!isSimpleFootprint(fp)) return 'rings cross or touch';
  if (!holesInsideOuter(fp)) return 'hole outside the outer ring';
  if (footprintArea(fp) < minArea) return 'sliver';
  return null;
}

export function footprintArea(fp: Footprint): number {
  let a = ringArea(fp.outer);
  for (const h of fp.holes) a -= ringArea(h);
  return a;
}

export function ringPerimeter(ring: Ring): number {
  return polylineLength(ring, true);
}

interface Boxed {
  fp: Footprint;
  area: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function boxed(areas: readonly SurfaceArea[]): Boxed[] {
  const out: Boxed[] = [];
  areas.forEach((a, area) => {
    for (const fp of a.footprints) {
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
      for (let i = 0; i < fp.outer.length; i += 2) {
        minX = Math.min(minX, fp.outer[i]);
        maxX = Math.max(maxX, fp.outer[i]);
        minY = Math.min(minY, fp.outer[i + 1]);
        maxY = Math.max(maxY, fp.outer[i + 1]);
      }
      out.push({ fp, area, minX, minY, maxX, maxY });
    }
  });
  return out;
}

export interface Overlap {
  a: number;
  b: number;
  area: number;
  /** Perimeter of the smaller footprint, metres. */
  perimeter: number;
}

/** Every pair of footprints (of different areas, or two of one area) sharing more than `minArea` m². */
export function overlaps(areas: readonly SurfaceArea[], minArea = 0): Overlap[] {
  const items = boxed(areas);
  items.sort((p, q) => p.minX - q.minX);
  const out: Overlap[] = [];
  for (let i = 0; i < items.length; i++) {
    const p = items[i];
    for (let j = i + 1; j < items.length && items[j].minX < p.maxX; j++) {
      const q = items[j];
      if (q.maxX <= p.minX || q.minY >= p.maxY || q.maxY <= p.minY) continue;
      const inter = Clipper.intersect(footprintPaths(p.fp), footprintPaths(q.fp), FillRule.NonZero);
      const area = Clipper.areaPaths(inter) / (CLIPPER_SCALE * CLIPPER_SCALE);
      if (area > minArea) {
        out.push({ a: p.area, b: q.area, area, perimeter: Math.min(ringPerimeter(p.fp.outer), ringPerimeter(q.fp.outer)) });
      }
    }
  }
  return out;
}

/** Distance from a point to a ring's boundary. */
function distanceToRing(x: number, y: number, ring: Ring): number {
  let best = Infinity;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const ax = ring[2 * j],
      ay = ring[2 * j + 1],
      bx = ring[2 * i],
      by = ring[2 * i + 1];
    const dx = bx - ax,
      dy = by - ay;
    const l = dx * dx + dy * dy;
    const t = l > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l)) : 0;
    best = Math.min(best, Math.hypot(x - ax - t * dx, y - ay - t * dy));
  }
  return best;
}

/** True when the point is inside the footprint or within `tolerance` of its boundary. */
export function footprintCovers(fp: Footprint, x: number, y: number, tolerance: number): boolean {
  const inside = pointInRing(x, y, fp.outer) && !fp.holes.some((h) => pointInRing(x, y, h));
  if (inside) return true;
  if (distanceToRing(x, y, fp.outer) <= tolerance) return true;
  for (const h of fp.holes) if (distanceToRing(x, y, h) <= tolerance) return true;
  return inside;
}

/** Points every `step` metres along a polyline (both ends included; `closed` adds the closing edge). */
export function samplePolyline(points: readonly number[], step: number, closed = false): [number, number][] {
  const out: [number, number][] = [];
  const n = points.length / 2;
  const edges = closed ? n : n - 1;
  for (let e = 0; e < edges; e++) {
    const f = (e + 1) % n;
    const ax = points[2 * e],
      ay = points[2 * e + 1],
      bx = points[2 * f],
      by = points[2 * f + 1];
    const l = Math.hypot(bx - ax, by - ay);
    const k = Math.max(1, Math.ceil(l / step));
    for (let i = 0; i < k; i++) out.push([ax + ((bx - ax) * i) / k, ay + ((by - ay) * i) / k]);
  }
  if (!closed && n > 0) out.push([points[2 * n - 2], points[2 * n - 1]]);
  return out;
}

/** Sampled points of the polyline no footprint of `areas` covers (within `tolerance`). */
export function uncoveredPoints(points: readonly number[], closed: boolean, areas: readonly SurfaceArea[], step = 0.5, tolerance = 0.02): [number, number][] {
  const fps = boxed(areas);
  const out: [number, number][] = [];
  for (const [x, y] of samplePolyline(points, step, closed)) {
    const hit = fps.some(
      (b) => x >= b.minX - tolerance && x <= b.maxX + tolerance && y >= b.minY - tolerance && y <= b.maxY + tolerance && footprintCovers(b.fp, x, y, tolerance),
    );
    if (!hit) out.push([x, y]);
  }
  return out;
}

function ringsOf(area: SurfaceArea): Ring[] {
  return area.footprints.flatMap((fp) => [fp.outer, ...fp.holes]);
}

/**
 * Length of boundary two areas share: the total length over which an edge of one lies on an edge
 * of the other (collinear within `tolerance` metres, overlapping).
 */
export function sharedBoundaryLength(a: SurfaceArea, b: SurfaceArea, tolerance = 0.002): number {
  let total = 0;
  const ra = ringsOf(a),
    rb = ringsOf(b);
  for (const p of ra) {
    const n = p.length / 2;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const ax = p[2 * j],
        ay = p[2 * j + 1],
        bx = p[2 * i],
        by = p[2 * i + 1];
      const l = Math.hypot(bx - ax, by - ay);
      if (l === 0) continue;
      const ux = (bx - ax) / l,
        uy = (by - ay) / l;
      for (const q of rb) {
        const m = q.length / 2;
        for (let s = 0, t = m - 1; s < m; t = s++) {
          const cx = q[2 * t],
            cy = q[2 * t + 1],
            dx = q[2 * s],
            dy = q[2 * s + 1];
          // both ends of cd on the line of ab
          if (Math.abs((cx - ax) * uy - (cy - ay) * ux) > tolerance || Math.abs((dx - ax) * uy - (dy - ay) * ux) > tolerance) continue;
          const t1 = (cx - ax) * ux + (cy - ay) * uy,
            t2 = (dx - ax) * ux + (dy - ay) * uy;
          const lo = Math.max(0, Math.min(t1, t2)),
            hi = Math.min(l, Math.max(t1, t2));
          if (hi > lo) total += hi - lo;
        }
      }
    }
  }
  return total;
}

/**
 * For each place where a road's centerline leaves `junction`: the first centerline point (walking
 * in 5 cm steps) the junction no longer covers, with the unit normal of the road there.
 */
export function junctionExits(points: readonly number[], junction: SurfaceArea): [number, number, number, number][] {
  const inJ = (x: number, y: number) => junction.footprints.some((f) => footprintCovers(f, x, y, 0));
  const pts = samplePolyline(points, 0.05);
  const out: [number, number, number, number][] = [];
  const at = (k: number, a: number, b: number): [number, number, number, number] => {
    const dx = pts[b][0] - pts[a][0],
      dy = pts[b][1] - pts[a][1];
    const l = Math.hypot(dx, dy) || 1;
    return [pts[k][0], pts[k][1], -dy / l, dx / l];
  };
  for (let i = 1; i < pts.length; i++) {
    const a = inJ(pts[i - 1][0], pts[i - 1][1]),
      b = inJ(pts[i][0], pts[i][1]);
    if (a && !b) out.push(at(Math.min(i + 1, pts.length - 1), i - 1, i));
    if (!a && b) out.push(at(Math.max(i - 2, 0), i - 1, i));
  }
  return out;
}

/**
 * Junction/way pairs where the way's carriageway neither shares part of its boundary with the
 * junction (more than 1 cm) nor finds another area where it should begin (on its axis or across
 * it, just past the junction): a strip that ends short of its junction with nothing in between.
 */
export function stripsOffTheirJunctions(roads: readonly { id: string; points: readonly number[] }[], areas: readonly SurfaceArea[]): string[] {
  const bad: string[] = [];
  const byId = new Map(roads.map((r) => [r.id, r]));
  for (const j of areas) {
    if (j.descriptor.junction !== true) continue;
    for (const id of j.descriptor.ways as string[]) {
      const strip = areas.find((a) => a.descriptor.id === id && a.descriptor.sidewalk === undefined);
      const road = byId.get(id);
      if (!strip || !road || sharedBoundaryLength(j, strip) > 0.01) continue;
      const half = Number(strip.descriptor.width) / 2;
      for (const [x, y, nx, ny] of junctionExits(road.points, j)) {
        const owned = [0, 0.5, -0.5, 0.9, -0.9].some((f) =>
          areas.some((a) => a !== j && a !== strip && a.footprints.some((fp) => footprintCovers(fp, x + f * half * nx, y + f * half * ny, 0))),
        );
        if (!owned) bad.push(`${id} at ${j.descriptor.id} (${x.toFixed(2)}, ${y.toFixed(2)})`);
      }
    }
  }
  return bad;
}
