import type { Footprint } from '../types.ts';
import { signedArea2 } from '../ring.ts';
import type { FootprintSkeleton } from './types.ts';
import { polygonArea2, polygonIsSimple } from '../planar/polygon-checks.ts';

/**
 * Whether a skeleton is a straight skeleton of the footprint, as far as cheap checks can tell:
 * one simple counter-clockwise face per side, starting and ending at that side's corners, the
 * faces tiling the footprint (areas add up), every node of a face exactly as high (offset time)
 * as its distance from that face's side line (so each face is a plane at unit slope), and no node
 * higher than its distance from the footprint's outline. Used to accept the fast double-precision
 * skeletons before falling back to CGAL.
 */
export function skeletonIsPlausible(footprint: Footprint, skeleton: FootprintSkeleton, tolerance = 1e-5): boolean {
  const rings = [footprint.outer, ...footprint.holes];
  const x: number[] = [],
    y: number[] = [];
  const starts: number[] = [];
  for (const ring of rings) {
    starts.push(x.length);
    for (let i = 0; i < ring.length; i += 2) {
      x.push(ring[i]);
      y.push(ring[i + 1]);
    }
  }
  const n0 = x.length;
  if (skeleton.ringVertexCount !== n0 || skeleton.faces.length !== n0) return false;
  for (let k = 0; k < skeleton.nodeX.length; k++) {
    x.push(skeleton.nodeX[k]);
    y.push(skeleton.nodeY[k]);
  }
  const t = (v: number) => (v < n0 ? 0 : skeleton.nodeT[v - n0]);
  // Faces come in any order: find each side's face by its last vertex (the side's start).
  const faceOf = new Map<number, number[]>();
  for (const face of skeleton.faces) {
    const p = face[face.length - 1];
    if (faceOf.has(p)) return false;
    faceOf.set(p, face);
  }

  let expected = 0;
  for (const ring of rings) expected += signedArea2(ring);
  let total = 0;
  for (let r = 0; r < rings.length; r++) {
    const n = rings[r].length / 2;
    for (let i = 0; i < n; i++) {
      const p = starts[r] + i,
        q = starts[r] + ((i + 1) % n);
      const face = faceOf.get(p);
      if (!face || face.length < 3 || face[0] !== q || face[face.length - 1] !== p) return false;
      if (face.slice(1, -1).some((v) => v < n0)) return false;
      if (!polygonIsSimple(face, x, y)) return false;
      const area2 = polygonArea2(face, x, y);
      if (!(area2 > 0)) return false;
      total += area2;
      const dx = x[q] - x[p],
        dy = y[q] - y[p];
      const len = Math.hypot(dx, dy);
      for (const v of face) {
        const distance = (dx * (y[v] - y[p]) - dy * (x[v] - x[p])) / len;
        if (Math.abs(distance - t(v)) > tolerance * Math.max(1, t(v))) return false;
      }
    }
  }
  if (Math.abs(total - expected) > 1e-7 * Math.abs(expected) + 1e-7) return false;
  for (let k = 0; k < skeleton.nodeX.length; k++) {
    if (!(skeleton.nodeT[k] <= distanceToOutline(rings, skeleton.nodeX[k], skeleton.nodeY[k]) + tolerance)) return false;
  }
  return true;
}

function distanceToOutline(rings: number[][], px: number, py: number): number {
  let best = Infinity;
  for (const ring of rings) {
    const n = ring.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const ax = ring[2 * i],
        ay = ring[2 * i + 1],
        dx = ring[2 * j] - ax,
        dy = ring[2 * j + 1] - ay;
      const len2 = dx * dx + dy * dy;
      const u = len2 > 0 ? Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
      best = Math.min(best, Math.hypot(px - ax - u * dx, py - ay - u * dy));
    }
  }
  return best;
}
