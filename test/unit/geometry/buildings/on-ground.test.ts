/**
 * Buildings on sloping ground (src/geometry/buildings/on-ground.ts), over random synthetic DEMs:
 * the floor at the lowest ground under the building, walls from there all the way round; an
 * estimated height counted from the highest ground (never buried); a tagged height from the lowest
 * ground, with a note when that buries the uphill side; the parts of one building on one reference.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { buildBuildings, type BuildingMesh } from '../../../../src/geometry/buildings/from-osm.ts';
import { loadRoofs } from '../../../../src/geometry/buildings/roofs/index.ts';
import { inspectMesh } from '../../../../src/geometry/mesh-checks.ts';
import { createGroundSampler, footprintGroundRange, type GroundSampler } from '../../../../src/geometry/terrain/ground-sampler.ts';
import type { ElevationGrid } from '../../../../src/geometry/terrain/elevation-grid.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';
import type { Ring } from '../../../../src/geometry/types.ts';

before(async () => {
  await loadRoofs();
});

const frame = createLocalFrame(43.735, 7.419);
const everywhere = [-1e4, -1e4, 1e4, -1e4, 1e4, 1e4, -1e4, 1e4];
const LEVEL = 3;
/** The footprint comes back through lon/lat and the building's stable frame: a fraction of a millimetre off, times slopes up to 2.7 (a 38 m rise across one 20 m triangle). */
const TOL = 4e-3;

/** A 20 m grid over [0, 100]² (6 × 6 nodes) with the given heights. */
function gridGround(heights: number[]): GroundSampler {
  const grid: ElevationGrid = { bbox: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, columns: 6, rows: 6, heights: Float32Array.from(heights) };
  return createGroundSampler(grid);
}

type Rect = [number, number, number, number];
const ringOf = ([x0, y0, x1, y1]: Rect): Ring => [x0, y0, x1, y0, x1, y1, x0, y1];

function area(id: string, rect: Rect, tags: Record<string, string>): OsmFeature {
  const ring: number[] = [];
  const r = ringOf(rect);
  for (let k = 0; k < r.length; k += 2) ring.push(...frame.toLonLat(r[k], r[k + 1]));
  return { id, layer: tags.building ? 'building' : 'building_part', kind: 'area', tags, polygons: [[ring]] };
}

function build(features: OsmFeature[], ground: GroundSampler, defaultRoofType: 'flat' | 'gabled' | 'hipped' = 'flat'): BuildingMesh[] {
  return buildBuildings(features, { frame, polygon: everywhere, defaultLevels: 2, defaultLevelHeight: LEVEL, defaultRoofType, owns: () => true, ground });
}

function zRange(m: BuildingMesh): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 2; i < m.mesh.positions.length; i += 3) {
    lo = Math.min(lo, m.mesh.positions[i]);
    hi = Math.max(hi, m.mesh.positions[i]);
  }
  return [lo, hi];
}

/** The ground along a ring's edges (every metre) and at its corners. */
function groundAlong(ground: GroundSampler, ring: Ring): number[] {
  const out: number[] = [];
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const steps = Math.max(1, Math.ceil(Math.hypot(ring[2 * j] - ring[2 * i], ring[2 * j + 1] - ring[2 * i + 1])));
    for (let s = 0; s < steps; s++) {
      const t = s / steps;
      out.push(ground(ring[2 * i] + (ring[2 * j] - ring[2 * i]) * t, ring[2 * i + 1] + (ring[2 * j + 1] - ring[2 * i + 1]) * t));
    }
  }
  return out;
}

const heightsArb = fc.array(fc.double({ min: 0, max: 40, noNaN: true }), { minLength: 36, maxLength: 36 });
const rectArb = fc
  .tuple(fc.integer({ min: 2, max: 70 }), fc.integer({ min: 2, max: 70 }), fc.integer({ min: 6, max: 28 }), fc.integer({ min: 6, max: 28 }))
  .map(([x, y, w, d]): Rect => [x, y, x + w, y + d]);

/** The descriptor's `groundElevation` (millimetres; left out at 0) is the lowest ground. */
function assertElevation(b: BuildingMesh, lowest: number): void {
  const e = Number(b.descriptor.groundElevation ?? 0);
  assert.ok(Math.abs(e - lowest) < TOL, `groundElevation ${e}, lowest ground ${lowest}`);
}

const BURIED = /^uphill side buried/;
const buriedNotes = (m: BuildingMesh) => ((m.descriptor.dataNotes as string[] | undefined) ?? []).filter((n) => BURIED.test(n));

test('an estimated height counts from the highest ground: the roof clears it, the walls reach the lowest (property)', () => {
  fc.assert(
    fc.property(
      heightsArb,
      rectArb,
      fc.oneof(
        fc.constant<Record<string, string>>({}),
        fc.integer({ min: 1, max: 6 }).map((l) => ({ 'building:levels': String(l) })),
      ),
      fc.constantFrom('flat' as const, 'gabled' as const, 'hipped' as const),
      (heights, rect, levelTags, roof) => {
        const ground = gridGround(heights);
        const [b] = build([area('way/1', rect, { building: 'yes', ...levelTags })], ground, roof);
        const range = footprintGroundRange(ground, ringOf(rect));
        const wallHeight = LEVEL * Number(levelTags['building:levels'] ?? 2);
        const [bottom, top] = zRange(b);
        assert.ok(Math.abs(bottom - range.min) < TOL, `floor ${bottom}, lowest ground ${range.min}`);
        assert.ok(top >= range.max + wallHeight - TOL, `top ${top}, highest ground ${range.max} + ${wallHeight}`);
        // no gap between the walls and the ground anywhere along the outline
        for (const z of groundAlong(ground, ringOf(rect))) assert.ok(bottom <= z + TOL && z < range.max + wallHeight, `ground ${z}`);
        assertElevation(b, range.min);
        assert.ok(Math.abs(Number(b.descriptor.buildingHeight) - (top - range.min)) < TOL);
        if (range.max - range.min > 1e-3) assert.ok(Math.abs(Number(b.descriptor.heightReferenceElevation) - range.max) < TOL);
        assert.deepEqual(buriedNotes(b), []);
        const r = inspectMesh(b.mesh);
        assert.ok(r.closed && r.volume > 0 && r.degenerate === 0);
      },
    ),
  );
});

test('a tagged height counts from the lowest ground and says when that buries the uphill side (property)', () => {
  fc.assert(
    fc.property(heightsArb, rectArb, fc.integer({ min: 2, max: 60 }), (heights, rect, height) => {
      const ground = gridGround(heights);
      const [b] = build([area('way/1', rect, { building: 'yes', height: String(height), 'building:levels': '2' })], ground);
      const range = footprintGroundRange(ground, ringOf(rect));
      const [bottom, top] = zRange(b);
      assert.ok(Math.abs(bottom - range.min) < TOL);
      assert.ok(Math.abs(top - (range.min + height)) < TOL, `top ${top}, lowest ground ${range.min} + ${height}`);
      assert.equal(b.descriptor.heightReferenceElevation, undefined);
      const buried = range.max - top;
      if (buried > 0.01) assert.equal(buriedNotes(b).length, 1, `buried by ${buried} m`);
      if (buried < -0.01) assert.deepEqual(buriedNotes(b), []);
    }),
  );
});

test('the parts of one building share one reference: stacked parts stay stacked (property)', () => {
  fc.assert(
    fc.property(heightsArb, rectArb, fc.integer({ min: 1, max: 5 }), fc.boolean(), (heights, rect, levels, tagged) => {
      const ground = gridGround(heights);
      const [x0, y0, x1, y1] = rect;
      const xm = (x0 + x1) / 2;
      const podium = levels * LEVEL;
      const lowTags: Record<string, string> = tagged
        ? { 'building:part': 'yes', height: String(podium) }
        : { 'building:part': 'yes', 'building:levels': String(levels) };
      const built = build(
        [
          area('way/1', rect, { building: 'yes' }),
          area('way/2', [x0, y0, xm, y1], lowTags),
          area('way/3', [xm, y0, x1, y1], { 'building:part': 'yes', min_height: String(podium), 'building:levels': String(levels + 2) }),
          area('way/4', [x0, y0, xm, y1], { 'building:part': 'yes', min_height: String(podium), 'building:levels': String(levels + 1) }),
        ],
        ground,
      );
      const by = (id: string) => built.find((b) => b.descriptor.id === id)!;
      assert.equal(built.length, 3, 'the outline is covered by its parts');
      const range = footprintGroundRange(ground, ringOf(rect));
      const reference = tagged ? range.min : range.max;
      const [base2, top2] = zRange(by('way/2'));
      const [base3, top3] = zRange(by('way/3'));
      const [base4] = zRange(by('way/4'));
      assert.ok(Math.abs(base2 - range.min) < TOL, 'the standing part reaches the lowest ground of the whole building');
      assert.ok(Math.abs(top2 - (reference + podium)) < TOL);
      assert.ok(Math.abs(base4 - top2) < TOL, 'a part on top of another sits on its roof');
      assert.ok(Math.abs(base3 - (reference + podium)) < TOL);
      assert.ok(Math.abs(top3 - (reference + (levels + 2) * LEVEL)) < TOL);
      for (const b of built) assertElevation(b, range.min);
      assert.ok(Math.abs(Number(by('way/3').descriptor.buildingMinHeight) - (base3 - Number(by('way/3').descriptor.groundElevation ?? 0))) < TOL);
    }),
  );
});

test('flat ground: nothing changes, heights from z = 0 and no reference or note', () => {
  const [b] = build([area('way/1', [0, 0, 20, 10], { building: 'yes', 'building:levels': '3' })], createGroundSampler(null));
  assert.deepEqual(zRange(b), [0, 9]);
  assert.equal(b.descriptor.groundElevation, undefined);
  assert.equal(b.descriptor.heightReferenceElevation, undefined);
  assert.equal(b.descriptor.dataNotes, undefined);
});
