import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, EndType, FillRule, JoinType, type Paths64 } from 'clipper2-ts';
import type { Footprint, Ring } from '../src/geometry/types.ts';
import type { SurfaceArea, SurfaceKind } from '../src/geometry/surfaces/types.ts';
import { SURFACE_KINDS } from '../src/geometry/surfaces/types.ts';
import { BASE_GROUND_PRIORITY, SURFACE_PRIORITY } from '../src/geometry/surfaces/priority.ts';
import { resolveOverlaps } from '../src/geometry/surfaces/assemble/resolve-overlaps.ts';
import { surfaceMeshes } from '../src/geometry/surfaces/assemble/surface-meshes.ts';
import { drapeLine, surfaceOutlines } from '../src/geometry/surfaces/assemble/surface-outlines.ts';
import { deckHeight, drapeLattice, lowestGroundUnder, splitRing } from '../src/geometry/surfaces/assemble/drape.ts';
import { createGroundSampler, type GroundSampler } from '../src/geometry/terrain/ground-sampler.ts';
import type { ElevationGrid } from '../src/geometry/terrain/elevation-grid.ts';
import { inspectMesh } from '../src/geometry/mesh-checks.ts';
import { signedArea2, pointInRing, reverseRing } from '../src/geometry/ring.ts';

/*
 * Tolerances (documented in resolve-overlaps.ts):
 * - pairwise overlap of two pieces < 1e-3 m² + 0.5 mm × the shorter perimeter, and nowhere 2 mm
 *   wide (shrunk by 1 mm it vanishes): the pieces are
 *   Clipper2 output on the millimetre grid and share their boundaries vertex for vertex, except
 *   where Clipper puts a crossing point of two edges on the grid (it moves by up to 1 mm); the
 *   edges into that point tilt, which leaves a wedge under 1 mm wide along them — its area grows
 *   with the edge's length (0.005 m² along a 100 m edge), its width never reaches a millimetre.
 *   Same tolerance for a piece outside the clip or under a building.
 * - total area within 0.1% of area(clip − buildings): the base ground fills the rest and slivers
 *   are merged, nothing is dropped; what differs is those wedges.
 */
const perimeterOf = (fps: readonly Footprint[]) => fps.reduce((s, f) => s + [f.outer, ...f.holes].reduce((t, r) => t + ringLength(r), 0), 0);
const wedgeTolerance = (a: readonly Footprint[], b: readonly Footprint[]) => 1e-3 + 0.5e-3 * Math.min(perimeterOf(a), perimeterOf(b));
let worstOverlap = 0;

/** fc.assert, with the failing assertion's own message in the report (SURFACES_RUNS=k runs k times as many cases). */
function holds<T>(property: fc.IProperty<T>, numRuns: number): void {
  const details = fc.check(property, { numRuns: numRuns * Number(process.env.SURFACES_RUNS ?? 1) });
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`${cause}\ncounterexample: ${JSON.stringify(details.counterexample)}\nseed ${details.seed}, path ${details.counterexamplePath}`);
}

// ---------- generators ----------

const num = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

function rect(x0: number, y0: number, x1: number, y1: number): Ring {
  return [x0, y0, x1, y0, x1, y1, x0, y1];
}

function rotate(ring: Ring, angle: number, cx: number, cy: number): Ring {
  const c = Math.cos(angle), s = Math.sin(angle);
  const out: Ring = [];
  for (let i = 0; i < ring.length; i += 2) {
    const x = ring[i] - cx, y = ring[i + 1] - cy;
    out.push(cx + x * c - y * s, cy + x * s + y * c);
  }
  return out;
}

/** A rotated rectangle, a star-shaped polygon or a rectangle with a hole, somewhere around a 100 m clip. */
const polygonArb: fc.Arbitrary<Footprint> = fc.oneof(
  fc.record({ x: num(-20, 110), y: num(-20, 110), w: num(1, 60), h: num(1, 60), a: num(0, Math.PI) })
    .map(({ x, y, w, h, a }) => ({ outer: rotate(rect(x, y, x + w, y + h), a, x, y), holes: [] })),
  fc.record({ x: num(-10, 110), y: num(-10, 110), radii: fc.array(num(2, 25), { minLength: 3, maxLength: 9 }), a: num(0, 6) })
    .map(({ x, y, radii, a }) => ({
      outer: radii.flatMap((r, i) => { const t = a + (i / radii.length) * 2 * Math.PI; return [x + r * Math.cos(t), y + r * Math.sin(t)]; }),
      holes: [],
    })),
  fc.record({ x: num(-10, 90), y: num(-10, 90), w: num(8, 50), h: num(8, 50), f: num(0.1, 0.6) })
    .map(({ x, y, w, h, f }) => ({
      outer: rect(x, y, x + w, y + h),
      holes: [reverseRing(rect(x + w * f * 0.5, y + h * f * 0.5, x + w * (1 - f * 0.5), y + h * (1 - f * 0.5)))],
    })),
);

const kindArb = fc.constantFrom<SurfaceKind>(...SURFACE_KINDS);

const areaArb = (withDecks: boolean): fc.Arbitrary<SurfaceArea> => fc.record({
  kind: kindArb,
  footprints: fc.array(polygonArb, { minLength: 1, maxLength: 2 }),
  tie: fc.boolean(),
  id: fc.integer({ min: 1, max: 30 }),
  deck: withDecks ? fc.option(fc.record({ z0: num(0, 20), z1: num(0, 20) }), { freq: 6 }) : fc.constant(null),
}).map(({ kind, footprints, tie, id, deck }) => ({
  kind,
  // some areas share a priority, so ties (smaller area, then id) are exercised
  priority: tie ? 50 : SURFACE_PRIORITY[kind],
  footprints,
  descriptor: { type: kind, id: `way/${id}` },
  ...(deck ? { deck: { start: { x: 0, y: 50, z: deck.z0 }, end: { x: 100, y: 50, z: deck.z1 } } } : {}),
}));

const clipArb: fc.Arbitrary<Footprint> = fc.oneof(
  fc.constant<Footprint>({ outer: rect(0, 0, 100, 100), holes: [] }),
  // tile ∩ polygon: a square cut by a slanted side
  num(20, 80).map((c): Footprint => ({ outer: [0, 0, 100, 0, 100, c, 0, 100 - c / 2], holes: [] })),
);

const sceneArb = (withDecks = false) => fc.record({
  areas: fc.array(areaArb(withDecks), { minLength: 0, maxLength: 14 }),
  buildings: fc.array(fc.record({ x: num(0, 95), y: num(0, 95), w: num(1, 20), h: num(1, 20), a: num(0, 3) })
    .map(({ x, y, w, h, a }) => ({ outer: rotate(rect(x, y, x + w, y + h), a, x, y), holes: [] })), { maxLength: 6 }),
  clip: clipArb,
});

// ---------- checks ----------

function paths(fps: readonly Footprint[]): Paths64 {
  const out: Paths64 = [];
  for (const f of fps) for (const [k, r] of [f.outer, ...f.holes].entries()) {
    const p = r.length ? Array.from({ length: r.length / 2 }, (_, i) => ({ x: Math.round(r[2 * i] * 1000), y: Math.round(r[2 * i + 1] * 1000) })) : [];
    if (p.length < 3) continue;
    if ((Clipper.area(p) > 0) !== (k === 0)) p.reverse();
    out.push(p);
  }
  return out;
}

/** A piece's own area (outer minus holes). */
const shoelace = (f: Footprint) => (Math.abs(signedArea2(f.outer)) - f.holes.reduce((a, h) => a + Math.abs(signedArea2(h)), 0)) / 2;
const m2 = (ps: Paths64) => Math.abs(Clipper.areaPaths(ps)) / 1e6;
const areaOf = (fps: readonly Footprint[]) => m2(Clipper.union(paths(fps), FillRule.NonZero));
const intersection = (a: readonly Footprint[], b: readonly Footprint[]) => m2(Clipper.intersect(paths(a), paths(b), FillRule.NonZero));
const minus = (a: readonly Footprint[], b: readonly Footprint[]) => m2(Clipper.difference(paths(a), paths(b), FillRule.NonZero));

function properlyCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const o = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => Math.sign((qx - px) * (ry - py) - (qy - py) * (rx - px));
  const d1 = o(cx, cy, dx, dy, ax, ay), d2 = o(cx, cy, dx, dy, bx, by), d3 = o(ax, ay, bx, by, cx, cy), d4 = o(ax, ay, bx, by, dx, dy);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/** Valid piece: finite, ≥ 3 vertices per ring, outer CCW, holes CW inside the outer, no two edges crossing. */
function assertValidPiece(fp: Footprint, where: string): void {
  const rings = [fp.outer, ...fp.holes];
  const edges: number[][] = [];
  rings.forEach((r, k) => {
    assert.ok(r.length >= 6 && r.length % 2 === 0, `${where}: ring of ${r.length / 2} vertices`);
    assert.ok(r.every(Number.isFinite), `${where}: non-finite vertex`);
    const a2 = signedArea2(r);
    assert.ok(k === 0 ? a2 > 0 : a2 < 0, `${where}: ring ${k} wrongly oriented`);
    const n = r.length / 2;
    for (let i = 0; i < n; i++) { const j = (i + 1) % n; edges.push([r[2 * i], r[2 * i + 1], r[2 * j], r[2 * j + 1]]); }
  });
  for (let i = 0; i < edges.length; i++) for (let j = i + 1; j < edges.length; j++) {
    assert.ok(!properlyCross(...(edges[i] as [number, number, number, number]), ...(edges[j] as [number, number, number, number])), `${where}: edges cross`);
  }
  for (const h of fp.holes) assert.ok(minus([{ outer: h.slice(), holes: [] }], [{ outer: fp.outer, holes: [] }]) < 1e-6, `${where}: hole outside its outer ring`);
}

// ---------- resolveOverlaps ----------

test('resolveOverlaps: pieces tile clip − buildings without overlaps; every piece valid (fast-check)', () => {
  holds(fc.property(sceneArb(true), ({ areas, buildings, clip }) => {
    const out = resolveOverlaps(areas, { cutOut: buildings, clip });
    const groundPieces = out.filter((a) => !a.deck);
    // pairwise: pieces of different areas, and polygons of one area
    for (let i = 0; i < groundPieces.length; i++) {
      const fi = groundPieces[i].footprints;
      for (let p = 0; p < fi.length; p++) for (let q = p + 1; q < fi.length; q++) assert.ok(intersection([fi[p]], [fi[q]]) < wedgeTolerance([fi[p]], [fi[q]]), 'polygons of one area overlap');
      for (let j = i + 1; j < groundPieces.length; j++) {
        const overlap = Clipper.intersect(paths(fi), paths(groundPieces[j].footprints), FillRule.NonZero);
        const o = m2(overlap);
        worstOverlap = Math.max(worstOverlap, o);
        assert.ok(o < wedgeTolerance(fi, groundPieces[j].footprints), `areas ${i} and ${j} overlap by ${o} m²`);
        // and whatever overlap there is, is nowhere 2 mm wide: shrunk by 1 mm it is gone
        assert.ok(m2(Clipper.inflatePaths(overlap, -1, JoinType.Miter, EndType.Polygon)) === 0, `areas ${i} and ${j} overlap by more than a hairline`);
      }
    }
    const expected = m2(Clipper.difference(paths([clip]), paths(buildings), FillRule.NonZero));
    const total = groundPieces.reduce((a, g) => a + g.footprints.reduce((s, f) => s + areaOf([f]), 0), 0);
    assert.ok(Math.abs(total - expected) <= 1e-3 * expected + 1e-6, `total ${total} vs clip − buildings ${expected}`);
    for (const a of out) {
      for (const fp of a.footprints) assertValidPiece(fp, String(a.descriptor.id ?? a.descriptor.type));
      assert.ok(minus(a.footprints, [clip]) < wedgeTolerance(a.footprints, [clip]), 'piece outside the clip');
      if (!a.deck) assert.ok(intersection(a.footprints, buildings) < wedgeTolerance(a.footprints, buildings), 'piece under a building');
    }
    // at most one base ground, last, as specified
    const base = out.filter((a) => a.priority === BASE_GROUND_PRIORITY && a.descriptor.inferred === true);
    assert.ok(base.length <= 1, 'check at line 158');
    if (base.length) { assert.equal(out[out.length - 1], base[0]); assert.equal(base[0].kind, 'grass'); }
    // decks: clipped only — they keep all of their area inside the clip
    for (const a of areas.filter((x) => x.deck)) {
      const got = out.find((x) => x.descriptor === a.descriptor || (x.deck === a.deck && x.descriptor.id === a.descriptor.id && x.kind === a.kind));
      const want = intersection(a.footprints, [clip]);
      if (want > 0.5) assert.ok(got && Math.abs(areaOf(got.footprints) - want) < 0.01 * want + 0.05, 'deck lost area');
    }
  }), 150);
  console.log(`worst pairwise overlap of two pieces: ${worstOverlap.toExponential(2)} m²`);
});

test('resolveOverlaps: an area never keeps ground that a higher one covers (beyond merged slivers) (fast-check)', () => {
  holds(fc.property(sceneArb(false), ({ areas, buildings, clip }) => {
    const out = resolveOverlaps(areas, { cutOut: buildings, clip });
    const rankKey = (a: SurfaceArea) => [a.priority, -areaOf(a.footprints)];
    for (const lower of out) {
      if (lower.descriptor.inferred) continue;
      for (const higher of areas) {
        if (higher.descriptor === lower.descriptor) continue;
        const [hp, ha] = rankKey(higher), [lp] = rankKey(lower);
        if (!(hp > lp)) continue;
        // slivers (< 5 cm wide) may be merged into a neighbour: bound the overlap by 5 cm × perimeter
        const perimeter = higher.footprints.reduce((s, f) => s + [f.outer, ...f.holes].reduce((t, r) => t + ringLength(r), 0), 0);
        assert.ok(intersection(lower.footprints, higher.footprints) <= 0.05 * perimeter + 1e-3, `priority ${lp} piece covers priority ${hp} ground (${ha})`);
      }
    }
  }), 100);
});

function ringLength(r: Ring): number {
  let s = 0;
  const n = r.length / 2;
  for (let i = 0; i < n; i++) { const j = (i + 1) % n; s += Math.hypot(r[2 * j] - r[2 * i], r[2 * j + 1] - r[2 * i + 1]); }
  return s;
}

const area = (kind: SurfaceKind, outer: Ring, id: string, extra: Partial<SurfaceArea> = {}): SurfaceArea =>
  ({ kind, priority: SURFACE_PRIORITY[kind], footprints: [{ outer, holes: [] }], descriptor: { type: kind, id }, ...extra });
const tile: Footprint = { outer: rect(0, 0, 100, 100), holes: [] };

test('resolveOverlaps: a road crosses a park; a building is cut out; the base ground fills the rest', () => {
  const road = area('asphalt', rect(-10, 40, 110, 48), 'way/1');
  const park = area('grass', rect(10, 10, 90, 90), 'way/2');
  const building: Footprint = { outer: rect(20, 60, 30, 70), holes: [] };
  const out = resolveOverlaps([park, road], { cutOut: [building], clip: tile });
  assert.deepEqual(out.map((a) => a.descriptor.id ?? 'base'), ['way/2', 'way/1', 'base']);
  const [p, r, base] = out;
  assert.ok(Math.abs(areaOf(r.footprints) - 800) < 1e-6, 'road clipped to the tile');
  assert.ok(Math.abs(areaOf(p.footprints) - (6400 - 80 * 8 - 100)) < 1e-6, 'park minus road minus building');
  assert.equal(p.footprints.length, 2, 'the road splits the park in two');
  assert.ok(p.footprints.some((f) => f.holes.length === 1), 'the building is a hole in the park');
  assert.deepEqual(base.descriptor, { type: 'grass', inferred: true });
  assert.equal(base.priority, BASE_GROUND_PRIORITY);
  assert.ok(Math.abs(areaOf(base.footprints) - (10000 - 800 - 6400 + 640)) < 1e-6, 'check at line 211');
});

test('resolveOverlaps: ties go to the smaller area, then to the lower id', () => {
  const big = area('grass', rect(0, 0, 60, 60), 'way/1');
  const small = area('grass', rect(40, 40, 80, 80), 'way/9');
  let out = resolveOverlaps([big, small], { cutOut: [], clip: tile });
  assert.ok(Math.abs(areaOf(out.find((a) => a.descriptor.id === 'way/9')!.footprints) - 1600) < 1e-6, 'smaller keeps all');
  const a = area('grass', rect(0, 0, 50, 50), 'way/2');
  const b = area('grass', rect(25, 25, 75, 75), 'way/10'); // same size; 'way/10' < 'way/2' as strings
  out = resolveOverlaps([a, b], { cutOut: [], clip: tile });
  assert.ok(Math.abs(areaOf(out.find((x) => x.descriptor.id === 'way/10')!.footprints) - 2500) < 1e-6);
  // the input order does not matter
  const again = resolveOverlaps([b, a], { cutOut: [], clip: tile });
  assert.ok(Math.abs(areaOf(again.find((x) => x.descriptor.id === 'way/10')!.footprints) - 2500) < 1e-6);
});

test('resolveOverlaps: a thin leftover is merged into its neighbour, not left as a hairline or a crack', () => {
  const road = area('asphalt', rect(0, 40, 100, 46), 'way/1');
  // land use drawn 2 cm past the road's far edge: landuse − road leaves a 2 cm strip above the road,
  // between the road and a park: too thin for either, it goes to the road
  const landuse = area('grass', rect(0, 0, 100, 46.02), 'way/2');
  const park = area('garden', rect(0, 46.02, 100, 100), 'way/3');
  const out = resolveOverlaps([landuse, road, park], { cutOut: [], clip: tile });
  assert.deepEqual(out.map((a) => a.descriptor.id), ['way/2', 'way/1', 'way/3'], 'no base ground: nothing is left uncovered');
  assert.ok(Math.abs(areaOf(out[0].footprints) - 4000) < 1e-6, 'strip opened away from the land use');
  assert.ok(Math.abs(areaOf(out[1].footprints) - 602) < 1e-6, 'the strip went to the road');
  assert.ok(Math.abs(areaOf(out[2].footprints) - 5398) < 1e-6, 'park untouched');
  // without the park the strip is simply part of the base ground beside the road
  const open = resolveOverlaps([landuse, road], { cutOut: [], clip: tile });
  assert.ok(Math.abs(areaOf(open[2].footprints) - 5400) < 1e-6, 'base ground from the road up');
});

test('resolveOverlaps: bridge decks are clipped only, ground areas underneath are untouched', () => {
  const deck = area('asphalt', rect(-20, 45, 120, 55), 'way/5', { deck: { start: { x: -20, y: 50, z: 10 }, end: { x: 120, y: 50, z: 12 } } });
  const river = area('water', rect(0, 30, 100, 70), 'way/6');
  const out = resolveOverlaps([deck, river], { cutOut: [], clip: tile });
  assert.ok(Math.abs(areaOf(out.find((a) => a.descriptor.id === 'way/5')!.footprints) - 1000) < 1e-6);
  assert.ok(Math.abs(areaOf(out.find((a) => a.descriptor.id === 'way/6')!.footprints) - 4000) < 1e-6);
  assert.equal(out.find((a) => a.descriptor.id === 'way/5')!.deck, deck.deck);
});

test('resolveOverlaps: a clip that is tile ∩ polygon; nothing at all gives the base ground alone', () => {
  const clip: Footprint = { outer: [0, 0, 100, 0, 100, 30, 0, 100], holes: [] };
  const out = resolveOverlaps([], { cutOut: [{ outer: rect(10, 10, 20, 20), holes: [] }], clip });
  assert.equal(out.length, 1);
  // a slanted clip side: crossings on it are rounded to the millimetre grid, which shaves off
  // wedges under a millimetre wide (here 0.03 m² along the 122 m side)
  assert.ok(Math.abs(areaOf(out[0].footprints) - (6500 - 100)) < wedgeTolerance(out[0].footprints, [clip]), 'base ground = clip − building');
});

// ---------- terrain ----------

/** A gentle synthetic terrain over [-60, 160]² with `spacing` between samples (metres). */
function syntheticGround(spacing = 10, f = (x: number, y: number) => 40 + 6 * Math.sin(x / 35) + 4 * Math.cos(y / 28) + 0.03 * x): GroundSampler {
  const minX = -60, maxY = 160, cells = Math.round(220 / spacing);
  const columns = cells + 1, rows = cells + 1;
  const heights = new Float32Array(columns * rows);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) heights[r * columns + c] = f(minX + c * spacing, maxY - r * spacing);
  const grid: ElevationGrid = { bbox: { minX, minY: maxY - cells * spacing, maxX: minX + cells * spacing, maxY }, columns, rows, heights };
  return createGroundSampler(grid);
}

interface MeshStats { maxVertexError: number; maxCentroidError: number; minArea: number; downward: number; area: number; maxEdge: number }

function meshStats(mesh: { positions: Float64Array; indices: Uint32Array }, ground?: GroundSampler): MeshStats {
  const p = mesh.positions, idx = mesh.indices;
  const s: MeshStats = { maxVertexError: 0, maxCentroidError: 0, minArea: Infinity, downward: 0, area: 0, maxEdge: 0 };
  if (ground) for (let i = 0; i < p.length; i += 3) s.maxVertexError = Math.max(s.maxVertexError, Math.abs(p[i + 2] - ground(p[i], p[i + 1])));
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2];
    const a2 = (p[b] - p[a]) * (p[c + 1] - p[a + 1]) - (p[b + 1] - p[a + 1]) * (p[c] - p[a]);
    if (a2 <= 0) s.downward++;
    s.area += a2 / 2;
    s.minArea = Math.min(s.minArea, a2 / 2);
    for (const [u, v] of [[a, b], [b, c], [c, a]]) s.maxEdge = Math.max(s.maxEdge, Math.hypot(p[v] - p[u], p[v + 1] - p[u + 1]));
    if (ground) {
      const cx = (p[a] + p[b] + p[c]) / 3, cy = (p[a + 1] + p[b + 1] + p[c + 1]) / 3, cz = (p[a + 2] + p[b + 2] + p[c + 2]) / 3;
      s.maxCentroidError = Math.max(s.maxCentroidError, Math.abs(cz - ground(cx, cy)));
    }
  }
  return s;
}

// ---------- surfaceMeshes ----------

test('surfaceMeshes: upward, non-degenerate, consistently wound triangles covering each piece; z = 0 without terrain (fast-check)', () => {
  holds(fc.property(sceneArb(false), ({ areas, buildings, clip }) => {
    const pieces = resolveOverlaps(areas, { cutOut: buildings, clip });
    const meshes = surfaceMeshes(pieces, { drape: true });
    assert.equal(meshes.length, pieces.length);
    meshes.forEach((m, k) => {
      const s = meshStats(m.mesh);
      assert.equal(s.downward, 0, 'a triangle faces down');
      assert.ok(s.minArea >= 1e-6, `degenerate triangle ${s.minArea}`);
      const want = pieces[k].footprints.reduce((a, f) => a + shoelace(f), 0);
      assert.ok(Math.abs(s.area - want) <= 1e-6 * want + 1e-4, `triangulated ${s.area} vs piece ${want}`);
      assert.ok(m.mesh.positions.every((v, i) => i % 3 !== 2 || v === 0), 'check at line 304');
      const report = inspectMesh(m.mesh, 1e-6);
      assert.equal(report.repeatedEdges, 0, 'inconsistent winding');
      assert.equal(report.degenerate, 0);
      assert.equal(m.descriptor.type, pieces[k].descriptor.type);
    });
  }), 120);
});

test('surfaceMeshes: draped pieces sit on the ground (every vertex within 1 cm) and follow it (centroids within 0.5 m) (fast-check)', () => {
  const ground = syntheticGround(10);
  const lattice = drapeLattice({ ground, drape: true });
  let worstCentroid = 0;
  holds(fc.property(sceneArb(false), ({ areas, buildings, clip }) => {
    const pieces = resolveOverlaps(areas, { cutOut: buildings, clip });
    const meshes = surfaceMeshes(pieces, { ground, drape: true });
    meshes.forEach((m, k) => {
      const s = meshStats(m.mesh, ground);
      assert.ok(s.maxVertexError < 0.01, `vertex ${s.maxVertexError} m off the ground`);
      assert.ok(s.maxCentroidError < 0.5, `centroid ${s.maxCentroidError} m off the ground`);
      worstCentroid = Math.max(worstCentroid, s.maxCentroidError);
      assert.equal(s.downward, 0);
      assert.ok(s.minArea >= 1e-6, 'check at line 325');
      // the piece as draped: its rings with the split points (on the millimetre grid, so a hair off the straight side)
      const want = pieces[k].footprints.reduce((a, f) => a + shoelace({ outer: splitRing(f.outer, lattice), holes: f.holes.map((h) => splitRing(h, lattice)) }), 0);
      assert.ok(Math.abs(s.area - want) <= 1e-6 * want + 1e-4, `draped triangulation ${s.area} vs ${want}`);
      assert.equal(inspectMesh(m.mesh, 1e-6).repeatedEdges, 0);
    });
  }), 80);
  console.log(`draped meshes: worst centroid distance to the ground ${worstCentroid.toFixed(3)} m (grid spacing 10 m)`);
});

test('surfaceMeshes: a draped square is subdivided at the grid lines and its nodes; a flat-ground sampler is not', () => {
  const ground = syntheticGround(10);
  const square = area('grass', rect(3, 3, 97, 97), 'way/1');
  const [m] = surfaceMeshes([square], { ground, drape: true });
  const s = meshStats(m.mesh, ground);
  assert.ok(s.maxEdge < 10 * Math.SQRT2 + 0.5, `edges up to ${s.maxEdge} m`);
  assert.ok(m.mesh.positions.length / 3 >= 81 + 4 * 10, 'grid nodes inside and crossings on the sides are vertices');
  // maxEdge: a finer lattice on the same terrain
  const [fine] = surfaceMeshes([square], { ground, drape: true, maxEdge: 5 });
  assert.ok(meshStats(fine.mesh, ground).maxEdge < 5 * Math.SQRT2 + 0.5, 'check at line 343');
  const flatGround = createGroundSampler(null, 7);
  const [flat] = surfaceMeshes([square], { ground: flatGround, drape: true });
  assert.equal(flat.mesh.positions.length / 3, 4);
  assert.ok(flat.mesh.positions.every((v, i) => i % 3 !== 2 || v === 7), 'check at line 347');
});

test('surfaceMeshes: with drape false each polygon is flat at the lowest ground under it', () => {
  const ground = syntheticGround(10);
  holds(fc.property(sceneArb(false), ({ areas, buildings, clip }) => {
    const pieces = resolveOverlaps(areas, { cutOut: buildings, clip });
    for (const piece of pieces) {
      for (const fp of piece.footprints) {
        const [m] = surfaceMeshes([{ ...piece, footprints: [fp] }], { ground, drape: false });
        if (!m) continue;
        const zs = new Set<number>();
        for (let i = 2; i < m.mesh.positions.length; i += 3) zs.add(m.mesh.positions[i]);
        assert.equal(zs.size, 1, 'flat');
        const z = [...zs][0];
        assert.equal(z, lowestGroundUnder(ground, fp));
        // brute force: no sample of the ground under the polygon is lower (nothing hangs in the air)
        const low = bruteLowest(ground, fp);
        assert.ok(z <= low + 1e-9, `flat at ${z}, ground under it reaches ${low}`);
        assert.ok(low - z < 0.05, `flat at ${z}, far below the sampled lowest ${low}`);
      }
    }
  }), 40);
});

function bruteLowest(ground: GroundSampler, fp: Footprint): number {
  let min = Infinity;
  const rings = [fp.outer, ...fp.holes];
  for (const r of rings) {
    const n = r.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      for (let k = 0; k <= 40; k++) min = Math.min(min, ground(r[2 * i] + ((r[2 * j] - r[2 * i]) * k) / 40, r[2 * i + 1] + ((r[2 * j + 1] - r[2 * i + 1]) * k) / 40));
    }
  }
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < fp.outer.length; i += 2) {
    minX = Math.min(minX, fp.outer[i]); maxX = Math.max(maxX, fp.outer[i]); minY = Math.min(minY, fp.outer[i + 1]); maxY = Math.max(maxY, fp.outer[i + 1]);
  }
  for (let x = minX; x <= maxX; x += 1) for (let y = minY; y <= maxY; y += 1) {
    if (pointInRing(x, y, fp.outer) && !fp.holes.some((h) => pointInRing(x, y, h))) min = Math.min(min, ground(x, y));
  }
  return min;
}

test('surfaceMeshes: a bridge deck runs linearly from abutment to abutment, never draped', () => {
  const ground = syntheticGround(10);
  const deck = area('asphalt', rect(-5, 46, 105, 54), 'way/7', { deck: { start: { x: 0, y: 50, z: 60 }, end: { x: 100, y: 50, z: 70 } } });
  for (const drape of [true, false]) {
    const [m] = surfaceMeshes([deck], { ground, drape });
    const p = m.mesh.positions;
    assert.equal(p.length / 3, 4, 'not subdivided');
    for (let i = 0; i < p.length; i += 3) {
      const t = Math.min(Math.max(p[i] / 100, 0), 1);
      assert.ok(Math.abs(p[i + 2] - (60 + 10 * t)) < 1e-9, 'check at line 401');
      assert.equal(p[i + 2], deckHeight(deck.deck!, p[i], p[i + 1]));
    }
    assert.equal(meshStats(m.mesh).downward, 0);
  }
  // without terrain the deck heights are used as given
  const [m] = surfaceMeshes([deck], { drape: true });
  assert.ok(m.mesh.positions.some((v, i) => i % 3 === 2 && v === 70), 'check at line 408');
});

// ---------- outlines ----------

test('surfaceOutlines: every ring of every piece, closed, on the ground, on its mesh\'s vertices (but dropped specks) (fast-check)', () => {
  const ground = syntheticGround(10);
  holds(fc.property(sceneArb(true), ({ areas, buildings, clip }) => {
    const pieces = resolveOverlaps(areas, { cutOut: buildings, clip });
    for (const drape of [true, false]) {
      const lines = surfaceOutlines(pieces, { ground, drape });
      assert.equal(lines.length, pieces.reduce((a, p) => a + p.footprints.reduce((s, f) => s + 1 + f.holes.length, 0), 0));
      let k = 0;
      for (const piece of pieces) {
        const [mesh] = surfaceMeshes([piece], { ground, drape });
        const vertexKeys = new Set<string>();
        for (let i = 0; i < mesh.mesh.positions.length; i += 3) vertexKeys.add(Array.from(mesh.mesh.positions.subarray(i, i + 3)).join(','));
        for (const fp of piece.footprints) for (let r = 0; r <= fp.holes.length; r++) {
          const line = lines[k++];
          assert.equal(line.closed, true);
          assert.equal(line.descriptor.kind, 'outline');
          assert.equal(line.descriptor.type, piece.descriptor.type);
          for (let i = 0; i < line.vertices.length; i += 3) {
            const [x, y, z] = [line.vertices[i], line.vertices[i + 1], line.vertices[i + 2]];
            if (drape && !piece.deck) assert.ok(Math.abs(z - ground(x, y)) < 0.01, 'check at line 432');
            if (vertexKeys.has(`${x},${y},${z}`)) continue;
            // the one exception: a corner of a hairline slit or speck, which the mesh can only drop
            // as degenerate triangles (under 1 mm² each) — it is then within millimetres of the mesh
            const p = mesh.mesh.positions;
            let nearest = Infinity;
            for (let v = 0; v < p.length; v += 3) nearest = Math.min(nearest, Math.hypot(p[v] - x, p[v + 1] - y, p[v + 2] - z));
            assert.ok(nearest < 0.005, `outline vertex ${nearest} m from the mesh`);
          }
        }
      }
    }
  }), 40);
});

test('drapeLine: a centerline is split at the grid lines and lies on the ground; a deck line is interpolated', () => {
  const ground = syntheticGround(10);
  const line = drapeLine({ points: [1, 1, 99, 57], closed: false, descriptor: { type: 'asphalt', kind: 'centerline' } }, { ground, drape: true });
  assert.equal(line.closed, false);
  assert.ok(line.vertices.length / 3 > 10, 'check at line 445');
  for (let i = 0; i < line.vertices.length; i += 3) assert.ok(Math.abs(line.vertices[i + 2] - ground(line.vertices[i], line.vertices[i + 1])) < 1e-9, 'check at line 446');
  for (let i = 3; i < line.vertices.length; i += 3) assert.ok(Math.hypot(line.vertices[i] - line.vertices[i - 3], line.vertices[i + 1] - line.vertices[i - 2]) <= 10 * Math.SQRT2 + 0.1, 'check at line 447');
  const flat = drapeLine({ points: [1, 1, 99, 57], closed: false, descriptor: {} }, { ground, drape: false });
  assert.equal(flat.vertices.length, 6);
  assert.ok(flat.vertices[2] === flat.vertices[5] && flat.vertices[2] <= Math.min(ground(1, 1), ground(99, 57)), 'check at line 450');
  const deck = drapeLine({ points: [0, 0, 50, 0, 100, 0], closed: false, descriptor: {}, deck: { start: { x: 0, y: 0, z: 5 }, end: { x: 100, y: 0, z: 15 } } }, { ground, drape: true });
  assert.deepEqual(Array.from(deck.vertices), [0, 0, 5, 50, 0, 10, 100, 0, 15]);
});
