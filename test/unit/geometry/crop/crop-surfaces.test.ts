import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, FillRule, type Paths64 } from 'clipper2-ts';
import { ringPath } from '../../../../src/geometry/planar/clipper-paths.ts';
import { pointInRing, signedArea2 } from '../../../../src/geometry/ring.ts';
import type { Footprint, IndexedMesh, Ring } from '../../../../src/geometry/types.ts';
import { buildTerrainMesh } from '../../../../src/geometry/terrain/terrain-mesh.ts';
import type { ElevationGrid } from '../../../../src/geometry/terrain/elevation-grid.ts';
import {
  clipAreas,
  clipPolylineToPolygon,
  clipSurfaceMesh,
  cropPolygon,
  distanceOutside,
  distanceToBoundary,
  elevationMask,
} from '../../../../src/geometry/crop/index.ts';
import { cropPolygonArbitrary } from '../../../support/arbitraries/crop.ts';

const shift = (ring: Ring, dx: number, dy: number) => ring.map((v, i) => v + (i % 2 === 0 ? dx : dy));
const clipperArea = (paths: Paths64) => paths.reduce((a, p) => a + Clipper.area(p), 0) / 1e6;
/** A ring on a 0.01 mm grid (the cut's), for judging overlaps without millimetre rounding. */
const finePath = (r: Ring) => {
  const out = [];
  for (let i = 0; i < r.length; i += 2) out.push({ x: Math.round(r[i] * 1e5), y: Math.round(r[i + 1] * 1e5) });
  return out;
};
const offset = fc.tuple(fc.double({ min: -40, max: 40, noNaN: true }), fc.double({ min: -40, max: 40, noNaN: true }));

/** A 160 m square of ground cut into 8 × 8 pieces, every other one with a courtyard hole. */
function groundPieces(): { footprints: Footprint[]; descriptor: Record<string, unknown> }[] {
  const out = [];
  for (let i = 0; i < 8; i++)
    for (let j = 0; j < 8; j++) {
      const x = -80 + 20 * i,
        y = -80 + 20 * j;
      const outer = [x, y, x + 20, y, x + 20, y + 20, x, y + 20];
      const holes = (i + j) % 2 === 0 ? [[x + 5, y + 5, x + 5, y + 15, x + 15, y + 15, x + 15, y + 5]] : [];
      out.push({ footprints: [{ outer, holes }], descriptor: { type: 'grass', id: `${i},${j}` } });
    }
  return out;
}

test('ground pieces clipped to concave polygons: inside, still non-overlapping, no area lost', () => {
  fc.assert(
    fc.property(cropPolygonArbitrary, offset, (ring0, [dx, dy]) => {
      const ring = shift(ring0, dx, dy);
      const poly = cropPolygon(ring);
      const pieces = groundPieces();
      const clipped = clipAreas(pieces, poly);
      const paths: Paths64 = [];
      let total = 0;
      for (const piece of clipped) {
        for (const fp of piece.footprints) {
          for (const r of [fp.outer, ...fp.holes])
            for (let i = 0; i < r.length; i += 2)
              assert.ok(distanceOutside(poly, r[i], r[i + 1]) <= 0.0015, `${r[i]},${r[i + 1]} is ${distanceOutside(poly, r[i], r[i + 1])} m outside`);
          total += (Math.abs(signedArea2(fp.outer)) - fp.holes.reduce((a, h) => a + Math.abs(signedArea2(h)), 0)) / 2;
          paths.push(finePath(fp.outer), ...fp.holes.map(finePath));
        }
      }
      // the union of the clipped pieces has the area of their sum (no overlaps) …
      const union = clipperArea(Clipper.union(paths, FillRule.NonZero)) / 1e4;
      assert.ok(Math.abs(union - total) < 0.01, `overlap: union ${union}, sum ${total}`);
      // … and equals the polygon's part of the ground the uncut pieces covered
      const ground = pieces.flatMap((p) => p.footprints.flatMap((f) => [f.outer, ...f.holes].map(ringPath)));
      const expected = clipperArea(Clipper.intersect(Clipper.union(ground, FillRule.EvenOdd), [ringPath(ring)], FillRule.NonZero));
      assert.ok(Math.abs(total - expected) <= 1e-4 * expected + 0.05, `area ${total} ≠ ${expected}`);
      for (const piece of clipped) if (!pieces.includes(piece)) assert.equal(piece.descriptor.cropped, true);
    }),
    { numRuns: 40, seed: 11, endOnFailure: true, includeErrorInReport: true },
  );
});

/** Length of a polyline's parts inside the polygon, by sampling (independent of the clipper). */
function insideLength(points: Ring, poly: Ring): number {
  let len = 0;
  for (let i = 0; i + 3 < points.length; i += 2) {
    const ax = points[i],
      ay = points[i + 1],
      bx = points[i + 2],
      by = points[i + 3];
    const l = Math.hypot(bx - ax, by - ay),
      n = 4000;
    for (let k = 0; k < n; k++) {
      const t = (k + 0.5) / n;
      if (pointInRing(ax + t * (bx - ax), ay + t * (by - ay), poly)) len += l / n;
    }
  }
  return len;
}

const polylineLength = (p: Ring, closed: boolean) => {
  let l = 0;
  const n = p.length / 2;
  for (let i = 0; i < (closed ? n : n - 1); i++) l += Math.hypot(p[(2 * i + 2) % p.length] - p[2 * i], p[(2 * i + 3) % p.length] - p[2 * i + 1]);
  return l;
};

test('polylines clipped at the boundary: parts inside, nothing inside lost, ends on the boundary', () => {
  const walk = fc.array(fc.tuple(fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true })), {
    minLength: 2,
    maxLength: 8,
  });
  fc.assert(
    fc.property(cropPolygonArbitrary, walk, (ring, pts) => {
      const points = pts.flat();
      const poly = cropPolygon(ring);
      const parts = clipPolylineToPolygon(points, false, poly);
      let length = 0;
      for (const part of parts) {
        assert.equal(part.closed, false);
        for (let i = 0; i < part.points.length; i += 2) assert.ok(distanceOutside(poly, part.points[i], part.points[i + 1]) < 1e-9);
        // a part ends at the line's own end or on the boundary
        const ends = [
          [part.points[0], part.points[1]],
          [part.points[part.points.length - 2], part.points[part.points.length - 1]],
        ];
        for (const [x, y] of ends) {
          const isEnd = (x === points[0] && y === points[1]) || (x === points[points.length - 2] && y === points[points.length - 1]);
          assert.ok(isEnd || distanceToBoundary(poly, x, y) < 1e-6, `part ends at ${x}, ${y}`);
        }
        length += polylineLength(part.points, false);
      }
      const expected = insideLength(points, ring);
      assert.ok(Math.abs(length - expected) <= 0.002 * polylineLength(points, false) + 1e-6, `inside ${length} ≠ ${expected}`);
    }),
    { numRuns: 150, seed: 11, endOnFailure: true, includeErrorInReport: true },
  );
});

test('a line through a comb-shaped polygon comes back as one part per tooth; a closed ring inside stays closed', () => {
  const comb = cropPolygon([0, 0, 100, 0, 100, 50, 80, 50, 80, 10, 60, 10, 60, 50, 40, 50, 40, 10, 20, 10, 20, 50, 0, 50]);
  const parts = clipPolylineToPolygon([-10, 30, 110, 30], false, comb);
  assert.deepEqual(
    parts.map((p) => p.points.map((v) => Math.round(v * 1000) / 1000)),
    [
      [0, 30, 20, 30],
      [40, 30, 60, 30],
      [80, 30, 100, 30],
    ],
  );
  const ring = [5, 2, 95, 2, 95, 8, 5, 8];
  assert.deepEqual(clipPolylineToPolygon(ring, true, comb), [{ points: ring, closed: true }]);
  // a closed ring cut by the boundary: one open part, joined across the ring's start
  const cut = clipPolylineToPolygon([10, 5, 10, 40, 30, 40, 30, 5], true, comb);
  assert.deepEqual(
    cut.map((p) => ({ ...p, points: p.points.map((v) => Math.round(v * 1000) / 1000) })),
    [{ points: [30, 10, 30, 5, 10, 5, 10, 40, 20, 40], closed: false }],
  );
});

/** A terrain tile: 17 × 17 samples of a wavy surface, meshed like the service does. */
function terrainTile(minX: number, minY: number, size: number): { mesh: IndexedMesh; height: (x: number, y: number) => number } {
  const n = 16,
    heights = new Float32Array((n + 1) * (n + 1));
  const h = (x: number, y: number) => 50 + 10 * Math.sin(x / 23) + 7 * Math.cos(y / 17);
  for (let r = 0; r <= n; r++) for (let c = 0; c <= n; c++) heights[r * (n + 1) + c] = h(minX + (c * size) / n, minY + size - (r * size) / n);
  const grid: ElevationGrid = { bbox: { minX, minY, maxX: minX + size, maxY: minY + size }, columns: n + 1, rows: n + 1, heights };
  return { mesh: buildTerrainMesh(grid), height: h };
}

function planArea(mesh: IndexedMesh): number {
  let a = 0;
  const p = mesh.positions,
    t = mesh.indices;
  for (let k = 0; k < t.length; k += 3) {
    const ax = p[3 * t[k]],
      ay = p[3 * t[k] + 1],
      bx = p[3 * t[k + 1]],
      by = p[3 * t[k + 1] + 1],
      cx = p[3 * t[k + 2]],
      cy = p[3 * t[k + 2] + 1];
    a += ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / 2;
  }
  return a;
}

/** Height of a mesh under (x, y): the triangle holding it, interpolated. */
function meshHeight(mesh: IndexedMesh, x: number, y: number): number | null {
  const p = mesh.positions,
    t = mesh.indices;
  for (let k = 0; k < t.length; k += 3) {
    const [a, b, c] = [t[k], t[k + 1], t[k + 2]].map((v) => [p[3 * v], p[3 * v + 1], p[3 * v + 2]]);
    const d = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    const u = ((x - a[0]) * (c[1] - a[1]) - (y - a[1]) * (c[0] - a[0])) / d;
    const v = ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])) / d;
    if (u >= -1e-6 && v >= -1e-6 && u + v <= 1 + 1e-6) return a[2] + u * (b[2] - a[2]) + v * (c[2] - a[2]);
  }
  return null;
}

test("terrain meshes clipped along the terrain: inside, the polygon's area, on the surface, no cracks at the tile seam", () => {
  fc.assert(
    fc.property(cropPolygonArbitrary, offset, (ring0, [dx, dy]) => {
      const ring = shift(ring0, dx, dy);
      const poly = cropPolygon(ring);
      const tiles = [terrainTile(-100, -60, 100), terrainTile(0, -60, 100)];
      const clipped = tiles.map((t) => clipSurfaceMesh(t.mesh, poly));
      let area = 0;
      tiles.forEach((tile, n) => {
        const m = clipped[n];
        if (!m) return;
        area += planArea(m);
        const p = m.positions;
        for (let i = 0; i < p.length; i += 3) {
          assert.ok(distanceOutside(poly, p[i], p[i + 1]) <= 0.001);
          // (a vertex snapped onto the boundary may sit a millimetre past its tile's edge: looked up at the edge)
          const z = meshHeight(tile.mesh, Math.min(Math.max(p[i], n === 0 ? -100 : 0), n === 0 ? 0 : 100), Math.min(Math.max(p[i + 1], -60), 40));
          assert.ok(z !== null && Math.abs(z - p[i + 2]) < 0.01, `off the terrain at ${p[i]}, ${p[i + 1]}: ${p[i + 2]} vs ${z}`);
        }
      });
      const tilesRing = [-100, -60, 100, -60, 100, 40, -100, 40];
      const expected = clipperArea(Clipper.intersect([ringPath(tilesRing)], [ringPath(ring)], FillRule.NonZero));
      assert.ok(Math.abs(area - expected) <= 1e-4 * expected + 0.01, `area ${area} ≠ ${expected}`);
      // no T-junction at the seam x = 0: every seam edge of one tile is an edge of the other
      const edges = new Map<string, number>();
      for (const m of clipped) {
        if (!m) continue;
        const p = m.positions;
        const key = (v: number) => `${Math.round(p[3 * v] * 1000)},${Math.round(p[3 * v + 1] * 1000)},${Math.round(p[3 * v + 2] * 1000)}`;
        for (let t = 0; t < m.indices.length; t += 3)
          for (let j = 0; j < 3; j++) {
            const a = key(m.indices[t + j]),
              b = key(m.indices[t + ((j + 1) % 3)]);
            const k = a < b ? `${a}|${b}` : `${b}|${a}`;
            edges.set(k, (edges.get(k) ?? 0) + 1);
          }
      }
      for (const [k, count] of edges) {
        const [x1, y1, , x2, y2] = k.split(/[|,]/).map(Number);
        if (count !== 1 || x1 !== 0 || x2 !== 0) continue;
        assert.ok(distanceToBoundary(poly, 0, (y1 + y2) / 2000) < 0.002, `T-junction on the seam at y = ${(y1 + y2) / 2000}`);
      }
      // and no crack: wherever the seam lies inside the polygon the tiles reach it, at one height
      for (let y = -59.9; y < 40; y += 0.37) {
        if (!pointInRing(0, y, ring) || distanceToBoundary(poly, 0, y) < 0.01) continue;
        const za = meshHeight(clipped[0]!, 0, y),
          zb = meshHeight(clipped[1]!, 0, y);
        // (a seam vertex snapped onto a polygon corner may move it a millimetre: then one tile covers the point)
        assert.ok((za !== null || zb !== null) && (za === null || zb === null || Math.abs(za - zb) < 1e-6), `crack at 0, ${y}: ${za} vs ${zb}`);
      }
    }),
    { numRuns: 60, seed: 11, endOnFailure: true, includeErrorInReport: true },
  );
});

test('the elevation map mask marks exactly the grid nodes inside the polygon', () => {
  fc.assert(
    fc.property(cropPolygonArbitrary, offset, (ring0, [dx, dy]) => {
      const ring = shift(ring0, dx, dy);
      const bbox = { minX: -120, minY: -120, maxX: 120, maxY: 120 },
        n = 33;
      const mask = elevationMask(bbox, n, n, cropPolygon(ring));
      for (let r = 0; r < n; r++)
        for (let c = 0; c < n; c++) {
          const x = bbox.minX + (c * 240) / (n - 1),
            y = bbox.maxY - (r * 240) / (n - 1);
          assert.equal(mask[r * n + c], pointInRing(x, y, cropPolygon(ring).ring) ? 1 : 0, `node ${r}, ${c}`);
        }
    }),
    { numRuns: 50, seed: 11, endOnFailure: true, includeErrorInReport: true },
  );
});
