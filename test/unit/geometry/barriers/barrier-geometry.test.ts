import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildBarrierMesh, groundLattice } from '../../../../src/geometry/barriers/barrier-mesh.ts';
import { sweepPieces, type SweepPiece } from '../../../../src/geometry/barriers/path.ts';
import { postPieces } from '../../../../src/geometry/barriers/posts.ts';
import { PROFILES } from '../../../../src/geometry/barriers/profiles.ts';
import { sweepPiece } from '../../../../src/geometry/barriers/sweep.ts';
import type { BarrierTags, ProfileName } from '../../../../src/geometry/barriers/types.ts';
import { inspectMesh } from '../../../../src/geometry/mesh-checks.ts';
import { createGroundSampler } from '../../../../src/geometry/terrain/ground-sampler.ts';
import type { ElevationGrid } from '../../../../src/geometry/terrain/elevation-grid.ts';
import type { IndexedMesh } from '../../../../src/geometry/types.ts';

function tags(over: Partial<BarrierTags> = {}): BarrierTags {
  return { kind: 'wall', height: 2, width: 0.4, profile: 'box', shape: 'strip', heightSource: 'default', widthSource: 'default', ...over };
}

/** As a client sees it: millimetre JSON numbers, judged like the acceptance harness (closed, outward, nothing degenerate). */
function sound(mesh: IndexedMesh): string | null {
  const rounded = { positions: mesh.positions.map((v) => Math.round(v * 1000) / 1000), indices: mesh.indices };
  const r = inspectMesh(rounded);
  return r.closed && r.volume > 0 && r.degenerate === 0 && r.nonFinite === 0 ? null : JSON.stringify(r);
}

/** A hilly bilinear ground: 20 m cells, heights from a few sines (steep: up to ~40%). */
function hills(): ReturnType<typeof createGroundSampler> {
  const columns = 41,
    rows = 41;
  const heights = new Float32Array(columns * rows);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) heights[r * columns + c] = 50 + 8 * Math.sin(c * 0.9) * Math.cos(r * 0.7) + 0.5 * r;
  const grid: ElevationGrid = { bbox: { minX: -400, minY: -400, maxX: 400, maxY: 400 }, columns, rows, heights };
  return createGroundSampler(grid);
}

test('a straight wall is a box of length × width × height; its ends are square', () => {
  const built = buildBarrierMesh(tags(), [{ points: [0, 0, 10, 0], closed: false }])!;
  assert.equal(sound(built.mesh), null);
  assert.ok(Math.abs(inspectMesh(built.mesh).volume - 10 * 0.4 * 2) < 1e-9);
  const xs = [...built.mesh.positions].filter((_, i) => i % 3 === 0);
  assert.deepEqual([Math.min(...xs), Math.max(...xs)], [0, 10]);
});

test('a right-angle corner is mitred: one tube, the outer corner at half-width·√2 from the vertex', () => {
  const pieces = sweepPieces([0, 0, 10, 0, 10, 10], false, 0.5);
  assert.equal(pieces.length, 1);
  const corner = pieces[0].stations[1];
  assert.ok(Math.abs(Math.hypot(corner.lx, corner.ly) - Math.SQRT2) < 1e-12);
  const built = buildBarrierMesh(tags({ width: 1 }), [{ points: [0, 0, 10, 0, 10, 10], closed: false }])!;
  // centre line 20 m long, 1 m wide: 20 m² of plan, 2 m tall
  assert.ok(Math.abs(inspectMesh(built.mesh).volume - 40) < 1e-9);
});

test('a closed way is a wall round the ring, not a filled area', () => {
  const ring = [0, 0, 10, 0, 10, 10, 0, 10];
  const pieces = sweepPieces(ring, true, 0.25);
  assert.equal(pieces.length, 1);
  assert.equal(pieces[0].ring, true);
  const built = buildBarrierMesh(tags({ width: 0.5 }), [{ points: ring, closed: true }])!;
  assert.equal(sound(built.mesh), null);
  // (10.5² − 9.5²) × 2 m: hollow
  assert.ok(Math.abs(inspectMesh(built.mesh).volume - (10.5 ** 2 - 9.5 ** 2) * 2) < 1e-9);
});

test('turns sharper than the mitre limit split the line into overlapping pieces', () => {
  assert.equal(sweepPieces([0, 0, 10, 0, 0, 1], false, 0.5).length, 2); // ~174°
  assert.equal(sweepPieces([0, 0, 10, 0, 0, 8], false, 0.5).length, 2); // ~141°
  assert.equal(sweepPieces([0, 0, 10, 0, 15, 8], false, 0.5).length, 1); // 58°
  // a mitre that would reach past the middle of a short segment splits too
  assert.equal(sweepPieces([0, 0, 10, 0, 10, 0.3, 20, 0.3], false, 0.5).length, 3);
});

test('duplicate points are one point; a way of one point builds nothing', () => {
  assert.equal(sweepPieces([0, 0, 0, 0, 5, 0, 5, 0, 5.001, 0], false, 0.2).length, 1);
  assert.equal(sweepPieces([3, 3, 3, 3], false, 0.2).length, 0);
  assert.equal(buildBarrierMesh(tags(), [{ points: [3, 3, 3.001, 3], closed: false }]), null);
});

test('on terrain every base corner stands on the ground, also between lattice lines', () => {
  const ground = hills();
  const built = buildBarrierMesh(tags(), [{ points: [-300, -250, 280, 190, 100, 300], closed: false }], ground)!;
  assert.equal(sound(built.mesh), null);
  const p = built.mesh.positions;
  let onGround = 0;
  for (let k = 0; k < p.length; k += 3) {
    const g = ground(p[k], p[k + 1]);
    assert.ok(p[k + 2] >= g - 1e-9, 'nothing under the ground');
    if (Math.abs(p[k + 2] - g) < 1e-9) onGround++;
  }
  assert.equal(onGround, p.length / 6, 'half the vertices are base corners');
  // stations at most 1/8 cell apart: the base never bows more than 2 cm over the ground
  const lattice = groundLattice(ground)!;
  const stations = sweepPieces([-300, -250, 280, 190], false, 0.2, lattice)[0].stations;
  for (let k = 1; k < stations.length; k++) {
    const a = stations[k - 1],
      b = stations[k];
    assert.ok(Math.hypot(b.x - a.x, b.y - a.y) <= lattice.maxGap + 1e-9);
    const mx = (a.x + b.x) / 2,
      my = (a.y + b.y) / 2;
    assert.ok((ground(a.x, a.y) + ground(b.x, b.y)) / 2 - ground(mx, my) <= 0.02);
  }
});

test('a bollard row is posts 1.5 m apart, each a closed box', () => {
  const pieces = postPieces([0, 0, 15, 0], false, 0.2, 1.5);
  assert.equal(pieces.length, 11);
  const built = buildBarrierMesh(tags({ kind: 'bollard', shape: 'posts', width: 0.2, height: 1, spacing: 1.5 }), [{ points: [0, 0, 15, 0], closed: false }])!;
  assert.equal(sound(built.mesh), null);
  assert.ok(Math.abs(inspectMesh(built.mesh).volume - 11 * 0.2 * 0.2 * 1) < 1e-9);
});

test('an area hedge is a filled solid; a hedge way has a rounded top', () => {
  const square = [0, 0, 6, 0, 6, 4, 0, 4];
  const area = buildBarrierMesh(tags({ kind: 'hedge', shape: 'area', profile: 'rounded', height: 1.5 }), [{ points: square, closed: true }], hills())!;
  assert.equal(sound(area.mesh), null);
  assert.ok(inspectMesh(area.mesh).volume > 6 * 4 * 1.5 * 0.99);
  const line = buildBarrierMesh(tags({ kind: 'hedge', profile: 'rounded', width: 1, height: 1.5 }), [{ points: [0, 0, 10, 0], closed: false }])!;
  const volume = inspectMesh(line.mesh).volume;
  assert.ok(volume < 10 * 1 * 1.5 && volume > 10 * 1 * 1.5 * 0.85, `${volume}`);
});

test('an area hedge of two polygons is two blocks; a hole is left open', () => {
  const t = tags({ kind: 'hedge', shape: 'area', profile: 'rounded', height: 1 });
  const two = buildBarrierMesh(t, [
    { points: [0, 0, 4, 0, 4, 4, 0, 4], closed: true, polygon: 0 },
    { points: [10, 0, 12, 0, 12, 2, 10, 2], closed: true, polygon: 1 },
  ])!;
  assert.equal(sound(two.mesh), null);
  assert.ok(Math.abs(inspectMesh(two.mesh).volume - (16 + 4)) < 1e-9);
  const holed = buildBarrierMesh(t, [
    { points: [0, 0, 4, 0, 4, 4, 0, 4], closed: true, polygon: 0 },
    { points: [1, 1, 1, 3, 3, 3, 3, 1], closed: true, polygon: 0 },
  ])!;
  assert.ok(Math.abs(inspectMesh(holed.mesh).volume - (16 - 4)) < 1e-9);
});

test('ways fast-check once broke: ends meeting their start, a loop back through a vertex', () => {
  const cases: [number[], number, ProfileName][] = [
    [[0, 0, 0, 8.089051797934962, 0.16344821098031662, 8.17077590342512, 0, 0], 0.05, 'box'],
    [[0, 0, 0, 0, 0, 0, 5, -5, 0, 0, 0.15149029102909334, 0.07574514551454667, 5, -5], 0.05, 'rounded'],
  ];
  for (const [points, width, prof] of cases) {
    for (const piece of sweepPieces(points, false, width / 2)) {
      assert.equal(sound(sweepPiece(piece, PROFILES[prof], { halfWidth: width / 2, height: 1.2 })), null, JSON.stringify(points));
    }
  }
});

// --- properties -------------------------------------------------------------------------------

const coord = fc.double({ min: -60, max: 60, noNaN: true });
/** Ways with what breaks strip builders: duplicates, very short segments, hairpins, retraced and self-touching runs. */
const way = fc
  .record({
    base: fc.array(fc.tuple(coord, coord), { minLength: 2, maxLength: 12 }),
    tricks: fc.array(
      fc.record({
        at: fc.nat(),
        kind: fc.constantFrom('duplicate', 'short', 'hairpin', 'retrace', 'revisit', 'nearDuplicate'),
        size: fc.double({ min: 0.005, max: 0.3, noNaN: true }),
      }),
      { maxLength: 4 },
    ),
    closed: fc.boolean(),
  })
  .map(({ base, tricks, closed }) => {
    const pts = base.map(([x, y]) => [x, y] as [number, number]);
    for (const t of tricks) {
      const i = t.at % pts.length,
        [x, y] = pts[i];
      if (t.kind === 'duplicate') pts.splice(i, 0, [x, y]);
      else if (t.kind === 'nearDuplicate') pts.splice(i + 1, 0, [x + t.size / 100, y]);
      else if (t.kind === 'short') pts.splice(i + 1, 0, [x + t.size, y + t.size / 2]);
      else if (t.kind === 'hairpin') pts.splice(i + 1, 0, [x + 10, y + t.size], [x, y + 2 * t.size]);
      else if (t.kind === 'retrace' && i > 0) pts.splice(i + 1, 0, pts[i - 1], [x, y]);
      else if (t.kind === 'revisit') pts.push(pts[0], [pts[0][0] + 5, pts[0][1] - 5]);
    }
    return { points: pts.flat(), closed };
  });
/** Where consecutive cross-sections of a piece cross in plan (a folded strip), as "k: area", else null. */
function folded(piece: SweepPiece, hw: number): string | null {
  const st = piece.stations,
    n = st.length;
  const area = (a: number[], b: number[], c: number[]) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  for (let k = 0; k < (piece.ring ? n : n - 1); k++) {
    const s0 = st[k],
      s1 = st[(k + 1) % n];
    const l0 = [s0.x + hw * s0.lx, s0.y + hw * s0.ly],
      r0 = [s0.x - hw * s0.lx, s0.y - hw * s0.ly];
    const l1 = [s1.x + hw * s1.lx, s1.y + hw * s1.ly],
      r1 = [s1.x - hw * s1.lx, s1.y - hw * s1.ly];
    const a1 = area(r0, r1, l1),
      a2 = area(r0, l1, l0);
    if (!(a1 > 0 && a2 > 0)) return `${k}: ${a1}, ${a2}`;
  }
  return null;
}
const profile = fc.constantFrom<ProfileName>('box', 'rounded', 'trapezoid', 'jersey');

test('property: every piece of every way is a closed, outward, sound tube that never folds over itself (no fallback needed)', () => {
  fc.assert(
    fc.property(way, fc.double({ min: 0.05, max: 3, noNaN: true }), profile, fc.boolean(), (w, width, prof, onHills) => {
      const ground = onHills ? hills() : undefined;
      for (const piece of sweepPieces(w.points, w.closed, width / 2, groundLattice(ground))) {
        const mesh = sweepPiece(piece, PROFILES[prof], { halfWidth: width / 2, height: 1.2 }, ground);
        const bad = sound(mesh) ?? folded(piece, width / 2);
        if (bad) throw new Error(`${prof} ${bad} ${JSON.stringify(piece.stations.map((s) => [s.x, s.y]))}`);
      }
    }),
    { numRuns: 300 },
  );
});

test('property: every barrier mesh is closed and outward, and a way longer than a few centimetres builds one', () => {
  fc.assert(
    fc.property(
      way,
      fc.double({ min: 0.05, max: 3, noNaN: true }),
      profile,
      fc.constantFrom('strip', 'posts'),
      fc.boolean(),
      (w, width, prof, shape, onHills) => {
        const t = tags({ width, profile: prof, shape: shape as 'strip' | 'posts', spacing: 1.5 });
        const built = buildBarrierMesh(t, [w], onHills ? hills() : undefined);
        let longest = 0;
        for (let k = 2; k < w.points.length; k += 2) longest = Math.max(longest, Math.hypot(w.points[k] - w.points[k - 2], w.points[k + 1] - w.points[k - 1]));
        if (longest > 0.05) assert.ok(built, 'something is built');
        if (built) assert.equal(sound(built.mesh), null);
      },
    ),
    { numRuns: 300 },
  );
});
