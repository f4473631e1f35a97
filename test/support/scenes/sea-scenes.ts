/**
 * Coastline scenes for test/surfaces-sea*.test.ts, and the checks that judge seaAreas' output.
 *
 * Scenes are land polygons (united with Clipper on the millimetre grid); their coastline is the
 * boundary of the land, drawn as OSM draws it: outer rings counter-clockwise (land on the left),
 * holes (lakes of sea inside land, a closed harbour basin) clockwise. The expected sea in a square
 * is square − land, in floating point (expectedSea).
 *
 * Tolerance: 1e-3 m² plus the grid wedges. Where the coast crosses a square's edge the cut point is
 * put on the millimetre grid (not at all in the exact expectation, or in the whole region when
 * comparing tiles), which tilts the crossing segment by about a
 * millimetre: a wedge under 1.5 mm × the length of the segment's part in the square. The tolerance
 * adds that for every coast segment crossing the lines where squares are cut (see wedgeTolerance);
 * on a coast drawn with short segments it is tiny.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, FillRule, PolyTree64, ClipType, type Paths64 } from 'clipper2-ts';
import type { BBox, Footprint, Ring } from '../../../src/geometry/types.ts';
import type { SurfaceArea } from '../../../src/geometry/surfaces/types.ts';
import { SURFACE_PRIORITY } from '../../../src/geometry/surfaces/priority.ts';
import { hasCrossingSides, pathsOf, totalArea } from '../../../src/geometry/planar/pieces.ts';
import { ringPath, pathRing } from '../../../src/geometry/planar/clipper-paths.ts';
import { pointInRing, signedArea2 } from '../../../src/geometry/ring.ts';
import { joinCoastlines, extendOpenEnds, SEA_AREAS_DEFAULTS, type Coastline } from '../../../src/geometry/surfaces/sea/index.ts';
import { clipSegment } from '../../../src/geometry/surfaces/sea/clip.ts';
import { distanceToSegment, num, rect } from './shapes.ts';

export const L = 5000; // scenes reach this far, well beyond every square and margin
/** Output is on the millimetre grid: a clip edge off the grid is rounded by up to half a millimetre. */
const GRID = 5e-4 + 1e-9;

function transform(ring: Ring, angle: number, dx: number, dy: number): Ring {
  const c = Math.cos(angle),
    s = Math.sin(angle);
  const out: Ring = [];
  for (let i = 0; i < ring.length; i += 2) out.push(ring[i] * c - ring[i + 1] * s + dx, ring[i] * s + ring[i + 1] * c + dy);
  return out;
}

export function square(cx: number, cy: number, h: number): Footprint {
  return { outer: rect(cx - h, cy - h, cx + h, cy + h), holes: [] };
}

export function boxOfSquare(f: Footprint): BBox {
  const r = f.outer;
  return { minX: Math.min(r[0], r[4]), minY: Math.min(r[1], r[5]), maxX: Math.max(r[0], r[4]), maxY: Math.max(r[1], r[5]) };
}

export interface Scene {
  name: string;
  /** The land, united (NonZero), on the millimetre grid. */
  land: Paths64;
  /** Its boundary as closed coastline rings: outer counter-clockwise, holes clockwise. */
  rings: Ring[];
}

/** A scene from land polygons: their union, and its boundary drawn as OSM draws coastlines. */
export function scene(name: string, landRings: Ring[]): Scene {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(
    ClipType.Union,
    landRings.map((r) => orient(ringPath(r), true)),
    null,
    tree,
    FillRule.NonZero,
  );
  const land: Paths64 = [];
  const rings: Ring[] = [];
  const visit = (node: PolyTree64 | ReturnType<PolyTree64['child']>, depth: number) => {
    for (let i = 0; i < node.count; i++) {
      const child = node.child(i);
      const path = orient(child.polygon ?? [], depth % 2 === 0);
      land.push(path);
      rings.push(pathRing(path));
      visit(child, depth + 1);
    }
  };
  visit(tree, 0);
  return { name, land, rings };
}

function orient<T extends { x: number; y: number }>(path: T[], ccw: boolean): T[] {
  return Clipper.area(path) > 0 === ccw ? path : [...path].reverse();
}

/** Coastline ways of the scene: each ring as one closed way, or cut into open ways at random vertices. */
export function waysOf(s: Scene, cuts: number[], jitter: number[]): Coastline[] {
  const ways: Coastline[] = [];
  s.rings.forEach((ring, r) => {
    const n = ring.length / 2;
    const at = [...new Set(cuts.map((c) => Math.floor(c * n) % n))].sort((a, b) => a - b);
    if (at.length === 0) {
      ways.push({ id: `way/${r}00`, points: [...ring, ring[0], ring[1]] });
      return;
    }
    for (let k = 0; k < at.length; k++) {
      const from = at[k],
        to = k + 1 < at.length ? at[k + 1] : at[0] + n;
      const pts: number[] = [];
      for (let i = from; i <= to; i++) pts.push(ring[2 * (i % n)], ring[2 * (i % n) + 1]);
      // the next way's first point a little off (under the 1 cm snap)
      const j = jitter[k % jitter.length] ?? 0;
      pts[0] += j;
      pts[1] -= j;
      ways.push({ id: `way/${r}${String(k).padStart(2, '0')}`, points: pts });
    }
  });
  return ways;
}

/**
 * square − land, in floating point: the land's rings (outer counter-clockwise, holes clockwise,
 * on the millimetre grid) clipped by the square (Sutherland–Hodgman, exact for a convex clip up to
 * rounding), their signed areas summed. The square is first put on the millimetre grid as
 * seaAreas does. (Clipper would put its own crossing points on the grid, which tilts a whole side
 * of the square by up to a millimetre.)
 */
export function expectedSea(s: Scene, clip: Footprint): number {
  const grid = (v: number) => Math.round(v * 1000) / 1000;
  const b = boxOfSquare(clip);
  const box = { minX: grid(b.minX), minY: grid(b.minY), maxX: grid(b.maxX), maxY: grid(b.maxY) };
  let land = 0;
  for (const ring of s.rings) land += signedArea2(clipToBox(ring, box)) / 2;
  return (box.maxX - box.minX) * (box.maxY - box.minY) - land;
}

/** Sutherland–Hodgman: a ring clipped by an axis-aligned box. */
function clipToBox(ring: Ring, box: BBox): Ring {
  const sides: [(x: number, y: number) => number][] = [[(x) => x - box.minX], [(x) => box.maxX - x], [(_, y) => y - box.minY], [(_, y) => box.maxY - y]];
  let pts = ring;
  for (const [inside] of sides) {
    const out: Ring = [];
    const n = pts.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const ax = pts[2 * i],
        ay = pts[2 * i + 1],
        bx = pts[2 * j],
        by = pts[2 * j + 1];
      const da = inside(ax, ay),
        db = inside(bx, by);
      if (da >= 0) out.push(ax, ay);
      if (da >= 0 !== db >= 0) {
        const t = da / (da - db);
        out.push(ax + t * (bx - ax), ay + t * (by - ay));
      }
    }
    pts = out;
    if (pts.length < 6) return [];
  }
  return pts;
}

/**
 * 1e-3 m² plus, for every coast segment crossing one of the cut lines (x = v or y = v) within the
 * box, 1.5 mm × the length of its part inside the box: the cut point is rounded (≤ 0.71 mm) and
 * the uncut segment's rounded ends put its line ≤ 0.71 mm off, and the wedge between them tapers
 * from there. The same for a part running within 2 mm of a cut line (a quay along a tile edge),
 * which the grid rounds onto either side of the line all along.
 */
export function wedgeTolerance(ways: readonly Coastline[], box: BBox, xs: number[], ys: number[]): number {
  let t = 1e-3;
  for (const w of ways) {
    const p = w.points;
    for (let i = 0; i + 3 < p.length; i += 2) {
      const ax = p[i],
        ay = p[i + 1],
        bx = p[i + 2],
        by = p[i + 3];
      const cut = clipSegment(ax, ay, bx, by, box);
      if (!cut) continue;
      const crosses = xs.some((x) => (ax - x) * (bx - x) <= 0) || ys.some((y) => (ay - y) * (by - y) <= 0);
      // a part running within 2 mm of a cut line is rounded onto either side of it all along
      const along =
        xs.some((x) => Math.abs(cut[0] - x) <= 2e-3 && Math.abs(cut[2] - x) <= 2e-3) ||
        ys.some((y) => Math.abs(cut[1] - y) <= 2e-3 && Math.abs(cut[3] - y) <= 2e-3);
      if (crosses || along) t += 1.5e-3 * Math.hypot(cut[2] - cut[0], cut[3] - cut[1]);
    }
  }
  return t;
}

export function seaOf(areas: readonly SurfaceArea[]): Footprint[] {
  return areas.flatMap((a) => a.footprints);
}

export function inSea(areas: readonly SurfaceArea[], x: number, y: number): boolean {
  return seaOf(areas).some((f) => pointInRing(x, y, f.outer) && !f.holes.some((h) => pointInRing(x, y, h)));
}

/** Every area is sea water as specified and every footprint a valid polygon inside the clip. */
export function assertValid(areas: readonly SurfaceArea[], clip: Footprint): void {
  const b = boxOfSquare(clip);
  for (const a of areas) {
    assert.equal(a.kind, 'water');
    assert.equal(a.priority, SURFACE_PRIORITY.water);
    assert.equal(a.descriptor.type, 'water');
    assert.equal(a.descriptor.natural, 'coastline');
    assert.equal(a.descriptor.sea, true);
    assert.match(String(a.descriptor.id), /^(sea|way\/\d+(;way\/\d+)*)$/);
    for (const f of a.footprints) {
      assert.ok(signedArea2(f.outer) > 0, 'outer counter-clockwise');
      for (const h of f.holes) assert.ok(signedArea2(h) < 0, 'holes clockwise');
      assert.ok(!hasCrossingSides([f.outer, ...f.holes]), 'no crossing sides');
      for (const r of [f.outer, ...f.holes]) {
        for (let i = 0; i < r.length; i += 2) {
          assert.ok(
            r[i] >= b.minX - GRID && r[i] <= b.maxX + GRID && r[i + 1] >= b.minY - GRID && r[i + 1] <= b.maxY + GRID,
            `inside the clip (${r[i]}, ${r[i + 1]})`,
          );
        }
      }
    }
  }
  // the pieces do not overlap one another
  const fps = seaOf(areas);
  const united = Clipper.union(pathsOf(fps), FillRule.NonZero);
  assert.ok(Math.abs(Math.abs(Clipper.areaPaths(united)) / 1e6 - totalArea(fps)) < 1e-3, 'pieces disjoint');
}

/**
 * Self-consistency along the coast: at the middle of every coastline segment inside the square,
 * the point `d` to its left (land) is never in the returned sea; when `both`, the point to its right
 * is in it (consistent data). Segments with other coast within 3·d of the probes are skipped — the
 * other mapped ways and the straight extensions of open ends that seaAreas adds (seaAreas casts no
 * probe within 12 mm of other coast, and leaves such a stretch to the other votes).
 */
export function assertSides(areas: readonly SurfaceArea[], ways: readonly Coastline[], clip: Footprint, both: boolean, d = 0.05): void {
  const b = boxOfSquare(clip);
  const segs: number[][] = [];
  for (const w of ways) for (let i = 0; i + 3 < w.points.length; i += 2) segs.push(w.points.slice(i, i + 4));
  const others: number[][] = [...segs];
  for (const c of extendOpenEnds(joinCoastlines(ways), b, SEA_AREAS_DEFAULTS.extendOpenEnds)) {
    const p = c.points,
      n = p.length / 2;
    c.segmentIds.forEach((id, k) => {
      if (id === null) others.push([p[2 * k], p[2 * k + 1], p[2 * ((k + 1) % n)], p[2 * ((k + 1) % n) + 1]]);
    });
  }
  const clearOf = (x: number, y: number, self: number[]) => others.every((s) => s === self || distanceToSegment(x, y, s) > 3 * d);
  for (const s of segs) {
    const [ax, ay, bx, by] = s;
    const len = Math.hypot(bx - ax, by - ay);
    if (len < 10 * d) continue;
    const mx = (ax + bx) / 2,
      my = (ay + by) / 2;
    const rx = ((by - ay) / len) * d,
      ry = (-(bx - ax) / len) * d;
    const inside = (x: number, y: number) => x > b.minX + d && x < b.maxX - d && y > b.minY + d && y < b.maxY - d;
    if (inside(mx - rx, my - ry) && clearOf(mx - rx, my - ry, s) && clearOf(mx, my, s))
      assert.ok(!inSea(areas, mx - rx, my - ry), `sea on the land side of ${s.map((v) => v.toFixed(2))}`);
    if (both && inside(mx + rx, my + ry) && clearOf(mx + rx, my + ry, s) && clearOf(mx, my, s))
      assert.ok(inSea(areas, mx + rx, my + ry), `no sea on the water side of ${s.map((v) => v.toFixed(2))}`);
  }
}

export function xorArea(a: readonly Footprint[], b: readonly Footprint[]): number {
  return Math.abs(Clipper.areaPaths(Clipper.xor(pathsOf(a), pathsOf(b), FillRule.NonZero))) / 1e6;
}

// ---------- scene generators (around a 600 m region centred on the origin) ----------

const angle = num(0, 2 * Math.PI);
const offset = num(-250, 250);

/** Turned by `a` about the origin, then moved `d` along the turned y axis. */
function place(ring: Ring, a: number, d: number): Ring {
  return transform(ring, a, -Math.sin(a) * d, Math.cos(a) * d);
}

export function reversePoints(r: Ring): Ring {
  const out: Ring = [];
  for (let i = r.length - 2; i >= 0; i -= 2) out.push(r[i], r[i + 1]);
  return out;
}

/** Land below y = 0 (a straight coast drawn westwards), turned and moved. */
export const straightCoast = fc.tuple(angle, offset).map(([a, d]) => scene('straight', [place(rect(-L, -L, L, 0), a, d)]));

/** A straight coast with a bay bitten out of the land (a fan of random radii, west to east through the south). */
export const bay = fc.tuple(angle, offset, fc.array(num(40, 220), { minLength: 3, maxLength: 9 }), num(0.3, 1)).map(([a, d, radii, open]) => {
  const bite: Ring = [];
  const k = radii.length;
  for (let i = 0; i < k; i++) {
    const t = Math.PI + (Math.PI * (i + 0.5)) / k;
    bite.push(Math.cos(t) * radii[i] * open * 1.3, Math.sin(t) * radii[i]);
  }
  return scene('bay', [place([-L, -L, L, -L, L, 0, ...reversePoints(bite), -L, 0], a, d)]);
});

/** A straight coast with a peninsula (a finger of land, maybe crooked) into the sea. */
export const peninsula = fc.tuple(angle, offset, num(4, 60), num(50, 400), num(-0.6, 0.6)).map(([a, d, w, len, bend]) => {
  const finger: Ring = [-w, -1, w, -1, w + Math.tan(bend) * len, len, -w + Math.tan(bend) * len, len];
  return scene(
    'peninsula',
    [rect(-L, -L, L, 0), finger].map((r) => place(r, a, d)),
  );
});

/** Islands (random star polygons) in the open sea, or off a straight coast. */
const star = fc.tuple(num(-300, 300), num(-300, 300), fc.array(num(5, 120), { minLength: 3, maxLength: 10 })).map(([cx, cy, radii]) => {
  const r: Ring = [];
  radii.forEach((rad, i) => {
    const t = (2 * Math.PI * i) / radii.length;
    r.push(cx + Math.cos(t) * rad, cy + Math.sin(t) * rad);
  });
  return r;
});
export const islands = fc
  .tuple(fc.array(star, { minLength: 1, maxLength: 3 }), fc.option(fc.tuple(angle, num(300, 600)), { nil: undefined }))
  .map(([stars, coast]) => {
    const rings = [...stars];
    if (coast) rings.push(place(rect(-L, -L, L, 0), coast[0], -coast[1]));
    return scene('islands', rings);
  });

/** A harbour: a straight quay with two moles (random width, length, gap) sheltering a basin. */
export const harbour = fc
  .tuple(angle, num(-150, 150), num(3, 25), num(80, 300), num(60, 250), num(5, 80), fc.boolean())
  .map(([a, d, w, reach, half, gap, closedBasin]) => {
    const g = closedBasin ? 0 : Math.min(gap, half - w);
    const west: Ring[] = [rect(-half - w, -1, -half, reach), rect(-half - w, reach - w, -g / 2, reach)];
    const east: Ring[] = [rect(half, -1, half + w, reach), rect(g / 2, reach - w, half + w, reach)];
    return scene(
      closedBasin ? 'closed harbour' : 'harbour',
      [rect(-L, -L, L, 0), ...west, ...east].map((r) => place(r, a, d)),
    );
  });

export const anyScene = fc.oneof(straightCoast, bay, peninsula, islands, harbour);
export const squareClip = fc.tuple(num(-300, 300), num(-300, 300), num(5, 300)).map(([x, y, h]) => square(x, y, h));
export const wayCuts = fc.tuple(fc.array(num(0, 1), { maxLength: 5 }), fc.array(num(-0.007, 0.007), { minLength: 1, maxLength: 5 }));
