/**
 * Independent checks of polygons (Footprints) for the ground tests: areas through Clipper2 on the
 * millimetre grid, perimeters, and what makes a polygon valid — written here rather than taken
 * from the code under test, so the tests do not trust what they check.
 */
import assert from 'node:assert/strict';
import Flatbush from 'flatbush';
import { Clipper, FillRule, type Paths64 } from 'clipper2-ts';
import type { Footprint, Ring } from '../../../src/geometry/types.ts';
import { signedArea2 } from '../../../src/geometry/ring.ts';

/** Polygons as Clipper2 paths in millimetres, outer rings counter-clockwise and holes clockwise; rings under 3 points dropped. */
export function mmPaths(fps: readonly Footprint[]): Paths64 {
  const out: Paths64 = [];
  for (const f of fps)
    for (const [k, r] of [f.outer, ...f.holes].entries()) {
      const p = r.length ? Array.from({ length: r.length / 2 }, (_, i) => ({ x: Math.round(r[2 * i] * 1000), y: Math.round(r[2 * i + 1] * 1000) })) : [];
      if (p.length < 3) continue;
      if (Clipper.area(p) > 0 !== (k === 0)) p.reverse();
      out.push(p);
    }
  return out;
}

/** The area of millimetre paths, m². */
export const m2 = (ps: Paths64) => Math.abs(Clipper.areaPaths(ps)) / 1e6;

/** A closed ring's length, m. */
export function ringLength(r: Ring): number {
  let s = 0;
  const n = r.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    s += Math.hypot(r[2 * j] - r[2 * i], r[2 * j + 1] - r[2 * i + 1]);
  }
  return s;
}

/** The summed length of every ring of the polygons, m. */
export const perimeterOf = (fps: readonly Footprint[]) => fps.reduce((s, f) => s + [f.outer, ...f.holes].reduce((t, r) => t + ringLength(r), 0), 0);

function properlyCross(e: number[], f: number[]): boolean {
  const o = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => Math.sign((qx - px) * (ry - py) - (qy - py) * (rx - px));
  const d1 = o(f[0], f[1], f[2], f[3], e[0], e[1]),
    d2 = o(f[0], f[1], f[2], f[3], e[2], e[3]);
  const d3 = o(e[0], e[1], e[2], e[3], f[0], f[1]),
    d4 = o(e[0], e[1], e[2], e[3], f[2], f[3]);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/** Valid polygon: finite, ≥ 3 vertices per ring, outer counter-clockwise, holes clockwise inside it, no two sides crossing. */
export function assertValidPolygon(fp: Footprint, where: string): void {
  const edges: number[][] = [];
  [fp.outer, ...fp.holes].forEach((r, k) => {
    assert.ok(r.length >= 6 && r.length % 2 === 0, `${where}: ring of ${r.length / 2} vertices`);
    assert.ok(r.every(Number.isFinite), `${where}: non-finite vertex`);
    const a2 = signedArea2(r);
    assert.ok(k === 0 ? a2 > 0 : a2 < 0, `${where}: ring ${k} wrongly oriented`);
    const n = r.length / 2;
    for (let i = 0; i < n; i++) edges.push([r[2 * i], r[2 * i + 1], r[(2 * i + 2) % r.length], r[(2 * i + 3) % r.length]]);
  });
  // Sides whose boxes do not meet cannot cross: compare only the pairs an index finds.
  const index = new Flatbush(edges.length);
  for (const e of edges) index.add(Math.min(e[0], e[2]), Math.min(e[1], e[3]), Math.max(e[0], e[2]), Math.max(e[1], e[3]));
  index.finish();
  edges.forEach((e, i) => {
    for (const j of index.search(Math.min(e[0], e[2]), Math.min(e[1], e[3]), Math.max(e[0], e[2]), Math.max(e[1], e[3]))) {
      if (j > i) assert.ok(!properlyCross(e, edges[j]), `${where}: sides cross`);
    }
  });
  if (fp.holes.length) {
    const outside = m2(
      Clipper.difference(mmPaths(fp.holes.map((h) => ({ outer: h, holes: [] }))), mmPaths([{ outer: fp.outer, holes: [] }]), FillRule.NonZero),
    );
    assert.ok(outside < 1e-6, `${where}: a hole outside its outer ring`);
  }
}
