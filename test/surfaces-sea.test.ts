import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, FillRule, PolyTree64, ClipType, type Paths64 } from 'clipper2-ts';
import type { BBox, Footprint, Ring } from '../src/geometry/types.ts';
import type { SurfaceArea } from '../src/geometry/surfaces/types.ts';
import { SURFACE_PRIORITY } from '../src/geometry/surfaces/priority.ts';
import { hasCrossingSides, pathsOf, totalArea } from '../src/geometry/surfaces/assemble/pieces.ts';
import { ringPath, pathRing } from '../src/geometry/clipper-paths.ts';
import { pointInRing, signedArea2 } from '../src/geometry/ring.ts';
import { seaAreas, joinCoastlines, extendOpenEnds, SEA_AREAS_DEFAULTS, type Coastline } from '../src/geometry/surfaces/sea/index.ts';
import { clipChainToBox, clipSegment } from '../src/geometry/surfaces/sea/clip.ts';

/*
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

const L = 5000; // scenes reach this far, well beyond every square and margin
/** Output is on the millimetre grid: a clip edge off the grid is rounded by up to half a millimetre. */
const GRID = 5e-4 + 1e-9;

function holds<T>(property: fc.IProperty<T>, numRuns: number): void {
  const details = fc.check(property, { numRuns: numRuns * Number(process.env.SEA_RUNS ?? 1) });
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`${cause}\ncounterexample: ${JSON.stringify(details.counterexample)}\nseed ${details.seed}, path ${details.counterexamplePath}`);
}

const num = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

function rect(x0: number, y0: number, x1: number, y1: number): Ring {
  return [x0, y0, x1, y0, x1, y1, x0, y1];
}

function transform(ring: Ring, angle: number, dx: number, dy: number): Ring {
  const c = Math.cos(angle), s = Math.sin(angle);
  const out: Ring = [];
  for (let i = 0; i < ring.length; i += 2) out.push(ring[i] * c - ring[i + 1] * s + dx, ring[i] * s + ring[i + 1] * c + dy);
  return out;
}

function square(cx: number, cy: number, h: number): Footprint {
  return { outer: rect(cx - h, cy - h, cx + h, cy + h), holes: [] };
}

function boxOfSquare(f: Footprint): BBox {
  const r = f.outer;
  return { minX: Math.min(r[0], r[4]), minY: Math.min(r[1], r[5]), maxX: Math.max(r[0], r[4]), maxY: Math.max(r[1], r[5]) };
}

interface Scene {
  name: string;
  /** The land, united (NonZero), on the millimetre grid. */
  land: Paths64;
  /** Its boundary as closed coastline rings: outer counter-clockwise, holes clockwise. */
  rings: Ring[];
}

/** A scene from land polygons: their union, and its boundary drawn as OSM draws coastlines. */
function scene(name: string, landRings: Ring[]): Scene {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, landRings.map((r) => orient(ringPath(r), true)), null, tree, FillRule.NonZero);
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
function waysOf(s: Scene, cuts: number[], jitter: number[]): Coastline[] {
  const ways: Coastline[] = [];
  s.rings.forEach((ring, r) => {
    const n = ring.length / 2;
    const at = [...new Set(cuts.map((c) => Math.floor(c * n) % n))].sort((a, b) => a - b);
    if (at.length === 0) {
      ways.push({ id: `way/${r}00`, points: [...ring, ring[0], ring[1]] });
      return;
    }
    for (let k = 0; k < at.length; k++) {
      const from = at[k], to = k + 1 < at.length ? at[k + 1] : at[0] + n;
      const pts: number[] = [];
      for (let i = from; i <= to; i++) pts.push(ring[2 * (i % n)], ring[2 * (i % n) + 1]);
      // the next way's first point a little off (under the 1 cm snap)
      const j = jitter[k % jitter.length] ?? 0;
      pts[0] += j; pts[1] -= j;
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
function expectedSea(s: Scene, clip: Footprint): number {
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
      const ax = pts[2 * i], ay = pts[2 * i + 1], bx = pts[2 * j], by = pts[2 * j + 1];
      const da = inside(ax, ay), db = inside(bx, by);
      if (da >= 0) out.push(ax, ay);
      if ((da >= 0) !== (db >= 0)) { const t = da / (da - db); out.push(ax + t * (bx - ax), ay + t * (by - ay)); }
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
function wedgeTolerance(ways: readonly Coastline[], box: BBox, xs: number[], ys: number[]): number {
  let t = 1e-3;
  for (const w of ways) {
    const p = w.points;
    for (let i = 0; i + 3 < p.length; i += 2) {
      const ax = p[i], ay = p[i + 1], bx = p[i + 2], by = p[i + 3];
      const cut = clipSegment(ax, ay, bx, by, box);
      if (!cut) continue;
      const crosses = xs.some((x) => (ax - x) * (bx - x) <= 0) || ys.some((y) => (ay - y) * (by - y) <= 0);
      // a part running within 2 mm of a cut line is rounded onto either side of it all along
      const along = xs.some((x) => Math.abs(cut[0] - x) <= 2e-3 && Math.abs(cut[2] - x) <= 2e-3) || ys.some((y) => Math.abs(cut[1] - y) <= 2e-3 && Math.abs(cut[3] - y) <= 2e-3);
      if (crosses || along) t += 1.5e-3 * Math.hypot(cut[2] - cut[0], cut[3] - cut[1]);
    }
  }
  return t;
}

function seaOf(areas: readonly SurfaceArea[]): Footprint[] {
  return areas.flatMap((a) => a.footprints);
}

function inSea(areas: readonly SurfaceArea[], x: number, y: number): boolean {
  return seaOf(areas).some((f) => pointInRing(x, y, f.outer) && !f.holes.some((h) => pointInRing(x, y, h)));
}

/** Every area is sea water as specified and every footprint a valid polygon inside the clip. */
function assertValid(areas: readonly SurfaceArea[], clip: Footprint): void {
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
          assert.ok(r[i] >= b.minX - GRID && r[i] <= b.maxX + GRID && r[i + 1] >= b.minY - GRID && r[i + 1] <= b.maxY + GRID, `inside the clip (${r[i]}, ${r[i + 1]})`);
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
function assertSides(areas: readonly SurfaceArea[], ways: readonly Coastline[], clip: Footprint, both: boolean, d = 0.05): void {
  const b = boxOfSquare(clip);
  const segs: number[][] = [];
  for (const w of ways) for (let i = 0; i + 3 < w.points.length; i += 2) segs.push(w.points.slice(i, i + 4));
  const others: number[][] = [...segs];
  for (const c of extendOpenEnds(joinCoastlines(ways), b, SEA_AREAS_DEFAULTS.extendOpenEnds)) {
    const p = c.points, n = p.length / 2;
    c.segmentIds.forEach((id, k) => { if (id === null) others.push([p[2 * k], p[2 * k + 1], p[2 * ((k + 1) % n)], p[2 * ((k + 1) % n) + 1]]); });
  }
  const clearOf = (x: number, y: number, self: number[]) => others.every((s) => s === self || distToSeg(x, y, s) > 3 * d);
  for (const s of segs) {
    const [ax, ay, bx, by] = s;
    const len = Math.hypot(bx - ax, by - ay);
    if (len < 10 * d) continue;
    const mx = (ax + bx) / 2, my = (ay + by) / 2;
    const rx = ((by - ay) / len) * d, ry = (-(bx - ax) / len) * d;
    const inside = (x: number, y: number) => x > b.minX + d && x < b.maxX - d && y > b.minY + d && y < b.maxY - d;
    if (inside(mx - rx, my - ry) && clearOf(mx - rx, my - ry, s) && clearOf(mx, my, s)) assert.ok(!inSea(areas, mx - rx, my - ry), `sea on the land side of ${s.map((v) => v.toFixed(2))}`);
    if (both && inside(mx + rx, my + ry) && clearOf(mx + rx, my + ry, s) && clearOf(mx, my, s)) assert.ok(inSea(areas, mx + rx, my + ry), `no sea on the water side of ${s.map((v) => v.toFixed(2))}`);
  }
}

function distToSeg(x: number, y: number, [ax, ay, bx, by]: number[]): number {
  const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2)) : 0;
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}

function xorArea(a: readonly Footprint[], b: readonly Footprint[]): number {
  return Math.abs(Clipper.areaPaths(Clipper.xor(pathsOf(a), pathsOf(b), FillRule.NonZero))) / 1e6;
}

// ---------- scene generators (around a 600 m region centred on the origin) ----------

const angle = num(0, 2 * Math.PI);
const offset = num(-250, 250);

/** Turned by `a` about the origin, then moved `d` along the turned y axis. */
function place(ring: Ring, a: number, d: number): Ring {
  return transform(ring, a, -Math.sin(a) * d, Math.cos(a) * d);
}

function reversePoints(r: Ring): Ring {
  const out: Ring = [];
  for (let i = r.length - 2; i >= 0; i -= 2) out.push(r[i], r[i + 1]);
  return out;
}

/** Land below y = 0 (a straight coast drawn westwards), turned and moved. */
const straightCoast = fc.tuple(angle, offset).map(([a, d]) => scene('straight', [place(rect(-L, -L, L, 0), a, d)]));

/** A straight coast with a bay bitten out of the land (a fan of random radii, west to east through the south). */
const bay = fc.tuple(angle, offset, fc.array(num(40, 220), { minLength: 3, maxLength: 9 }), num(0.3, 1)).map(([a, d, radii, open]) => {
  const bite: Ring = [];
  const k = radii.length;
  for (let i = 0; i < k; i++) {
    const t = Math.PI + (Math.PI * (i + 0.5)) / k;
    bite.push(Math.cos(t) * radii[i] * open * 1.3, Math.sin(t) * radii[i]);
  }
  return scene('bay', [place([-L, -L, L, -L, L, 0, ...reversePoints(bite), -L, 0], a, d)]);
});

/** A straight coast with a peninsula (a finger of land, maybe crooked) into the sea. */
const peninsula = fc.tuple(angle, offset, num(4, 60), num(50, 400), num(-0.6, 0.6)).map(([a, d, w, len, bend]) => {
  const finger: Ring = [-w, -1, w, -1, w + Math.tan(bend) * len, len, -w + Math.tan(bend) * len, len];
  return scene('peninsula', [rect(-L, -L, L, 0), finger].map((r) => place(r, a, d)));
});

/** Islands (random star polygons) in the open sea, or off a straight coast. */
const star = fc.tuple(num(-300, 300), num(-300, 300), fc.array(num(5, 120), { minLength: 3, maxLength: 10 })).map(([cx, cy, radii]) => {
  const r: Ring = [];
  radii.forEach((rad, i) => { const t = (2 * Math.PI * i) / radii.length; r.push(cx + Math.cos(t) * rad, cy + Math.sin(t) * rad); });
  return r;
});
const islands = fc.tuple(fc.array(star, { minLength: 1, maxLength: 3 }), fc.option(fc.tuple(angle, num(300, 600)), { nil: undefined })).map(([stars, coast]) => {
  const rings = [...stars];
  if (coast) rings.push(place(rect(-L, -L, L, 0), coast[0], -coast[1]));
  return scene('islands', rings);
});

/** A harbour: a straight quay with two moles (random width, length, gap) sheltering a basin. */
const harbour = fc.tuple(angle, num(-150, 150), num(3, 25), num(80, 300), num(60, 250), num(5, 80), fc.boolean()).map(([a, d, w, reach, half, gap, closedBasin]) => {
  const g = closedBasin ? 0 : Math.min(gap, half - w);
  const west: Ring[] = [rect(-half - w, -1, -half, reach), rect(-half - w, reach - w, -g / 2, reach)];
  const east: Ring[] = [rect(half, -1, half + w, reach), rect(g / 2, reach - w, half + w, reach)];
  return scene(closedBasin ? 'closed harbour' : 'harbour', [rect(-L, -L, L, 0), ...west, ...east].map((r) => place(r, a, d)));
});

const anyScene = fc.oneof(straightCoast, bay, peninsula, islands, harbour);
const squareClip = fc.tuple(num(-300, 300), num(-300, 300), num(5, 300)).map(([x, y, h]) => square(x, y, h));
const wayCuts = fc.tuple(fc.array(num(0, 1), { maxLength: 5 }), fc.array(num(-0.007, 0.007), { minLength: 1, maxLength: 5 }));

// ---------- examples ----------

test('a straight coast: sea on the right of its direction, land on the left', () => {
  const clip = square(0, 0, 50);
  const east = seaAreas([{ id: 'way/1', points: [-2000, 10, 2000, 10] }], clip);
  assert.equal(totalArea(seaOf(east)), 100 * 60);
  assert.ok(inSea(east, 0, -40) && !inSea(east, 0, 40));
  assert.equal(east[0].descriptor.id, 'way/1');
  assertValid(east, clip);
  const west = seaAreas([{ id: 'way/1', points: [2000, 10, -2000, 10] }], clip);
  assert.equal(totalArea(seaOf(west)), 100 * 40);
  assert.ok(inSea(west, 0, 40) && !inSea(west, 0, -40));
});

test('an island inside the square is a hole of the sea; a lake ring (clockwise) is sea inside land', () => {
  const clip = square(0, 0, 50);
  const island = seaAreas([{ id: 'way/7', points: [-10, -10, 10, -10, 10, 10, -10, 10, -10, -10] }], clip);
  assert.equal(island.length, 1);
  assert.equal(island[0].footprints[0].holes.length, 1);
  assert.equal(totalArea(seaOf(island)), 10000 - 400);
  assert.equal(island[0].descriptor.id, 'way/7');
  const lake = seaAreas([{ id: 'way/8', points: [-10, -10, -10, 10, 10, 10, 10, -10, -10, -10] }], clip);
  assert.equal(totalArea(seaOf(lake)), 400);
});

test('a square no coastline crosses: the nearest coastline within reach decides, none near means land', () => {
  const clip = square(0, 0, 250);
  // coast 600 m north of the square's edge, drawn eastwards: the square is on its water side
  const south = seaAreas([{ id: 'way/1', points: [-3000, 850, 3000, 850] }], clip);
  assert.equal(totalArea(seaOf(south)), 500 * 500);
  assert.equal(south[0].descriptor.id, 'sea');
  // drawn westwards: land
  assert.deepEqual(seaAreas([{ id: 'way/1', points: [3000, 850, -3000, 850] }], clip), []);
  // 1.1 km from the square's edge: we cannot tell, land (what inland tiles are)
  assert.deepEqual(seaAreas([{ id: 'way/1', points: [-3000, 1350, 3000, 1350] }], clip), []);
  // reach counts from the square's edge, not its centre: 900 m from the edge, 1150 m from the centre
  assert.equal(totalArea(seaOf(seaAreas([{ id: 'way/1', points: [-3000, 1150, 3000, 1150] }], clip))), 250000);
  // no coastline at all
  assert.deepEqual(seaAreas([], clip), []);
  // an island 300 m away, nothing else: the square is sea
  assert.equal(totalArea(seaOf(seaAreas([{ id: 'way/2', points: [600, 0, 620, 0, 620, 20, 600, 0] }], clip))), 250000);
  // next to a quay corner: the land's angle decides (a point beyond a convex corner of the land is sea)
  // west along y = -300, then north along x = -300 (a right turn): the sea is the quadrant x, y > -300
  const quay: Coastline = { id: 'way/3', points: [2000, -300, -300, -300, -300, 2000] };
  const nearCorner = seaAreas([quay], square(-350, -350, 10));
  assert.equal(totalArea(seaOf(nearCorner)), 0, 'the corner square lies in the land quadrant');
  assert.equal(totalArea(seaOf(seaAreas([quay], square(0, 0, 10)))), 400, 'the square beyond lies in the sea quadrant');
});

test('a coast through a corner of the square, or touching its edge from inside, cuts nothing wrong', () => {
  const clip = square(0, 0, 50);
  // the diagonal through the corners (-50,-50) and (50,50), drawn north-east: sea south-east
  const diag = seaAreas([{ id: 'way/1', points: [-1000, -1000, 1000, 1000] }], clip);
  assert.ok(Math.abs(totalArea(seaOf(diag)) - 5000) < 1e-6);
  // touching only the corner (50, 50) from outside, land inside the square
  const corner = seaAreas([{ id: 'way/1', points: [1000, 50, 50, 50, 50, 1000] }], clip);
  assert.deepEqual(corner, [], 'the square is on the land side');
  const cornerSea = seaAreas([{ id: 'way/1', points: [50, 1000, 50, 50, 1000, 50] }], clip);
  assert.equal(totalArea(seaOf(cornerSea)), 10000);
  // a coast whose corner touches the north edge from inside (Λ): sea under it, land in the two
  // corners above it, which meet the sea only at the touching point
  const v = seaAreas([{ id: 'way/1', points: [-1000, -20, 0, 50, 1000, -20] }], clip);
  assertValid(v, clip);
  assert.ok(inSea(v, 0, -40) && inSea(v, 0, 30) && !inSea(v, -45, 49) && !inSea(v, 45, 49));
  assert.ok(Math.abs(totalArea(seaOf(v)) - (10000 - 2 * (50 * 50 * 0.07) / 2)) < 1e-3);
  // a coast running along the square's edge for a stretch
  const along = seaAreas([{ id: 'way/1', points: [-1000, 0, -50, 0, -50, 20, 1000, 20] }], clip);
  assertValid(along, clip);
  assert.equal(totalArea(seaOf(along)), 100 * 70);
});

test('ways meeting within 1 cm are one coast; an open end is extended straight on', () => {
  const clip = square(0, 0, 50);
  const joined = seaAreas([{ id: 'way/1', points: [-2000, 0, 10, 0] }, { id: 'way/2', points: [10.006, 0.004, 2000, 0] }], clip);
  assert.ok(Math.abs(totalArea(seaOf(joined)) - 5000) < 1e-3);
  assert.equal(joined[0].descriptor.id, 'way/1;way/2');
  assert.equal(joinCoastlines([{ id: 'way/1', points: [-2000, 0, 10, 0] }, { id: 'way/2', points: [10.006, 0.004, 2000, 0] }]).length, 1);
  // the extract cut the coast inside the square: it goes on straight
  const cut = seaAreas([{ id: 'way/1', points: [-2000, 0, 10, 0] }], clip);
  assert.equal(totalArea(seaOf(cut)), 5000);
  const cutBoth = seaAreas([{ id: 'way/1', points: [-20, 0, 10, 0] }], clip);
  assert.equal(totalArea(seaOf(cutBoth)), 5000);
  // a hook at the cut end does not turn the extension back across the land
  const hooked = seaAreas([{ id: 'way/1', points: [-2000, 0, 20, 0, 20, -3, 17, -3] }], clip);
  assertValid(hooked, clip);
  assert.ok(!inSea(hooked, 0, 20) && inSea(hooked, 0, -20));
});

test('a zero-width spike (a way out and back along the same nodes) leaves the sea sea', () => {
  const clip = square(0, 0, 50);
  // the coast runs west along y = 0 (sea north) with a spike out to (10, 30) and back
  const spike = seaAreas([{ id: 'way/1', points: [2000, 0, 10, 0, 10, 30, 10, 0, -2000, 0] }], clip);
  assertValid(spike, clip);
  assert.equal(totalArea(seaOf(spike)), 5000);
  // the same with the spike's return a millimetre off
  const near = seaAreas([{ id: 'way/1', points: [2000, 0, 10, 0, 10, 30, 10.001, 0, -2000, 0] }], clip);
  assertValid(near, clip);
  assert.ok(Math.abs(totalArea(seaOf(near)) - 5000) < 0.1);
});

test('broken data never puts sea on the land side of a coastline', () => {
  const clip = square(0, 0, 100);
  // two coasts crossing in an X, one of them drawn the wrong way round
  const ways: Coastline[] = [{ id: 'way/1', points: [-1000, -1000, 1000, 1000] }, { id: 'way/2', points: [-1000, 1000, 1000, -1000] }];
  const x = seaAreas(ways, clip);
  assertValid(x, clip);
  assertSides(x, ways, clip, false);
  // a mole drawn the wrong way round inside a harbour
  const s = scene('harbour', [rect(-L, -L, L, 0), rect(-40, -1, -30, 80)]);
  const bad = waysOf(s, [], [0]).map((w) => ({ ...w, points: w.points }));
  bad.push({ id: 'way/999', points: [30, 0, 30, 80, 40, 80, 40, 0] });
  const out = seaAreas(bad, clip);
  assertValid(out, clip);
  assertSides(out, bad, clip, false);
});

test('a clip that is not a square: the sea is cut to it', () => {
  const clip: Footprint = { outer: [0, 0, 100, 0, 0, 100], holes: [] };
  const out = seaAreas([{ id: 'way/1', points: [-2000, 50, 2000, 50] }], clip);
  assertValid(out, { outer: rect(0, 0, 100, 100), holes: [] });
  assert.ok(Math.abs(totalArea(seaOf(out)) - (5000 - 1250)) < 1e-6);
});

test('clipChainToBox keeps runs whole through vertices inside the box', () => {
  // the cut of a segment ending inside is its end exactly, so consecutive segments stay one run
  const pts = [250.5, -77.35, 227.83225760528669, -59.182845923298196, 216.01974742760422, 1.6923219461436303, 177.4708845329799, -5.719655456128514, 180.8, -24.8, 300, -30];
  const runs = clipChainToBox(pts, false, { minX: -250, minY: -250, maxX: 250, maxY: 250 });
  assert.equal(runs.length, 1);
  assert.equal(runs[0].points.length, 12);
});

// ---------- properties ----------

test('property: the sea in a random square is exactly square − land (straight coast, bay, peninsula, islands, harbour)', () => {
  const seen = new Set<string>();
  let worstError = 0;
  holds(fc.property(anyScene, squareClip, wayCuts, (s, clip, [cuts, jitter]) => {
    seen.add(s.name);
    const ways = waysOf(s, cuts, jitter);
    const out = seaAreas(ways, clip);
    assertValid(out, clip);
    const got = totalArea(seaOf(out)), want = expectedSea(s, clip);
    worstError = Math.max(worstError, Math.abs(got - want));
    const b = boxOfSquare(clip);
    const tol = wedgeTolerance(ways, b, [b.minX, b.maxX], [b.minY, b.maxY]); // joints keep the earlier way's point: the jitter moves nothing
    assert.ok(Math.abs(got - want) <= tol, `${s.name}: sea ${got} m², expected ${want} m² (tolerance ${tol})`);
    assertSides(out, ways, clip, true);
  }), 300);
  assert.ok(seen.size >= 5, `scenes seen: ${[...seen]}`);
  console.log(`exact sea: worst |sea − (square − land)| ${worstError.toExponential(2)} m² over scenes ${[...seen].sort().join(', ')}`);
});

test('property: neighbouring tiles agree — the sea of four quarter squares unites to the sea of the whole', () => {
  let worst = 0;
  holds(fc.property(anyScene, squareClip, wayCuts, num(0.2, 0.8), num(0.2, 0.8), (s, clip, [cuts, jitter], fx, fy) => {
    const ways = waysOf(s, cuts, jitter);
    const b = boxOfSquare(clip);
    const mx = b.minX + fx * (b.maxX - b.minX), my = b.minY + fy * (b.maxY - b.minY);
    const quarters = [
      { outer: rect(b.minX, b.minY, mx, my), holes: [] }, { outer: rect(mx, b.minY, b.maxX, my), holes: [] },
      { outer: rect(b.minX, my, mx, b.maxY), holes: [] }, { outer: rect(mx, my, b.maxX, b.maxY), holes: [] },
    ];
    const whole = seaOf(seaAreas(ways, clip));
    const parts = quarters.flatMap((q) => seaOf(seaAreas(ways, q)));
    const diff = xorArea(whole, parts);
    const tol = wedgeTolerance(ways, b, [mx], [my]);
    worst = Math.max(worst, diff / tol);
    assert.ok(diff <= tol, `${s.name}: the quarters differ from the whole by ${diff} m² (tolerance ${tol})`);
  }), 150);
  console.log(`tiling: worst difference between quarters and whole ${(100 * worst).toFixed(1)}% of its tolerance`);
});

test('property: tiling on a finely drawn coast: quarters and whole agree within 1e-3 m²', () => {
  // coast segments of at most 0.5 m: the grid wedges at the cut lines are far below 1e-3 m²
  const near: BBox = { minX: -700, minY: -700, maxX: 700, maxY: 700 };
  const densify = (ways: Coastline[]) => ways.map((w) => {
    const p = w.points, out: number[] = [p[0], p[1]];
    for (let i = 0; i + 3 < p.length; i += 2) {
      const cut = clipSegment(p[i], p[i + 1], p[i + 2], p[i + 3], near);
      if (cut) {
        const [, , , , t0, t1] = cut;
        const k = Math.ceil((Math.hypot(p[i + 2] - p[i], p[i + 3] - p[i + 1]) * (t1 - t0)) / 0.5);
        for (let j = 0; j <= k; j++) {
          const t = t0 + ((t1 - t0) * j) / k;
          if (t > 0 && t < 1) out.push(p[i] + (p[i + 2] - p[i]) * t, p[i + 1] + (p[i + 3] - p[i + 1]) * t);
        }
      }
      out.push(p[i + 2], p[i + 3]);
    }
    return { id: w.id, points: out };
  });
  let worst = 0;
  holds(fc.property(fc.oneof(bay, harbour, peninsula), fc.tuple(num(-150, 150), num(-150, 150), num(20, 120)), ( s, [cx, cy, h]) => {
    const ways = densify(waysOf(s, [], [0]));
    const whole = seaOf(seaAreas(ways, square(cx, cy, h)));
    const parts = [[-1, -1], [1, -1], [-1, 1], [1, 1]].flatMap(([sx, sy]) => seaOf(seaAreas(ways, square(cx + (sx * h) / 2, cy + (sy * h) / 2, h / 2))));
    const diff = xorArea(whole, parts);
    worst = Math.max(worst, diff);
    assert.ok(diff <= 1e-3, `${s.name}: quarters differ from the whole by ${diff} m²`);
  }), 25);
  console.log(`tiling (fine coast): worst difference ${worst.toExponential(2)} m²`);
});

test('property: broken coastlines (ways missing, one drawn the wrong way round) give valid sea, never on the land side of any way', () => {
  let agree = 0, runs = 0;
  holds(fc.property(anyScene, squareClip, fc.array(num(0, 1), { minLength: 2, maxLength: 6 }), fc.nat(), fc.option(fc.nat(), { nil: undefined }), (s, clip, cuts, drop, reverse) => {
    const all = waysOf(s, cuts, [0]);
    const ways = all.filter((_, i) => all.length < 2 || i !== drop % all.length);
    if (reverse !== undefined && ways.length > 0) {
      const k = reverse % ways.length;
      ways[k] = { id: ways[k].id, points: reversePoints(ways[k].points) };
    }
    const out = seaAreas(ways, clip);
    assertValid(out, clip);
    assertSides(out, ways, clip, false);
    // neighbouring tiles: reported, not required (contradicting data is decided face by face)
    const b = boxOfSquare(clip), mx = (b.minX + b.maxX) / 2, my = (b.minY + b.maxY) / 2;
    const parts = [rect(b.minX, b.minY, mx, my), rect(mx, b.minY, b.maxX, my), rect(b.minX, my, mx, b.maxY), rect(mx, my, b.maxX, b.maxY)]
      .flatMap((r) => seaOf(seaAreas(ways, { outer: r, holes: [] })));
    runs++;
    if (xorArea(seaOf(out), parts) <= wedgeTolerance(ways, b, [mx], [my])) agree++;
  }), 300);
  console.log(`broken coastlines: quarters agree with the whole in ${agree} of ${runs} cases`);
});
