import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import earcut from 'earcut';
import { triangulateRings } from '../../../../src/geometry/triangulate/rings.ts';

function area2(c: ArrayLike<number>, a: number, b: number, d: number): number {
  return (c[2 * b] - c[2 * a]) * (c[2 * d + 1] - c[2 * a + 1]) - (c[2 * b + 1] - c[2 * a + 1]) * (c[2 * d] - c[2 * a]);
}

/** Directed boundary edges of a triangle set (edges without their reverse). */
function boundary(triangles: number[]): string[] {
  const edges = new Set<string>();
  for (let t = 0; t < triangles.length; t += 3) for (let k = 0; k < 3; k++) edges.add(`${triangles[t + k]}>${triangles[t + ((k + 1) % 3)]}`);
  return [...edges]
    .filter((e) => {
      const [a, b] = e.split('>');
      return !edges.has(`${b}>${a}`);
    })
    .sort();
}

test('vertices on a straight side are kept, where earcut drops them', () => {
  // A 10 × 4 rectangle with two extra vertices on its bottom side and one on a hole side.
  const coords = [0, 0, 3, 0, 7, 0, 10, 0, 10, 4, 0, 4, 2, 1, 2, 3, 5, 3, 8, 3, 8, 1];
  const holes = [6];
  const dropped = new Set(earcut(coords, holes));
  assert.ok(!dropped.has(1) || !dropped.has(2) || !dropped.has(8), 'earcut drops a straight vertex (this is what we guard against)');
  const { triangles, ok } = triangulateRings(coords, holes);
  assert.ok(ok);
  assert.deepEqual(new Set(triangles).size, coords.length / 2);
  // The boundary is walked vertex by vertex: outer ring and (clockwise) hole in ring order.
  assert.deepEqual(boundary(triangles), ['0>1', '1>2', '2>3', '3>4', '4>5', '5>0', '6>7', '7>8', '8>9', '9>10', '10>6'].sort());
  for (let t = 0; t < triangles.length; t += 3) assert.ok(area2(coords, triangles[t], triangles[t + 1], triangles[t + 2]) > 0);
});

test('no zero-area sliver where a vertex lies on a diagonal (way/138588670 of the region extract)', () => {
  const ring = [
    4214.734, 2578.356, 4221.82, 2578.472, 4221.817, 2582.583, 4223.105, 2582.695, 4222.942, 2586.917, 4222.458, 2586.917, 4222.377, 2588.25, 4217.546,
    2588.025, 4217.466, 2586.691, 4214.728, 2586.578, 4214.649, 2583.912,
  ];
  const { triangles, ok } = triangulateRings(ring);
  assert.ok(ok);
  for (let t = 0; t < triangles.length; t += 3) assert.ok(area2(ring, triangles[t], triangles[t + 1], triangles[t + 2]) > 2e-8);
});

test('a self-crossing ring is reported, not silently triangulated', () => {
  assert.equal(triangulateRings([0, 0, 10, 10, 10, 0, 0, 10]).ok, false);
});

test('property: star-shaped rings with extra vertices on their sides triangulate exactly, either orientation', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({ w: fc.double({ min: 1, max: 3, noNaN: true }), r: fc.double({ min: 3, max: 20, noNaN: true }), extra: fc.integer({ min: 0, max: 3 }) }),
        { minLength: 5, maxLength: 14 },
      ),
      fc.boolean(),
      (pts, reverse) => {
        const total = pts.reduce((a, p) => a + p.w, 0);
        let acc = 0;
        const corners = pts.map((p) => {
          const t = (acc / total) * 2 * Math.PI;
          acc += p.w;
          return [p.r * Math.cos(t), p.r * Math.sin(t)];
        });
        const ring: number[] = [];
        corners.forEach(([x, y], i) => {
          const [nx, ny] = corners[(i + 1) % corners.length];
          ring.push(x, y);
          for (let k = 1; k <= pts[i].extra; k++) ring.push(x + ((nx - x) * k) / (pts[i].extra + 1), y + ((ny - y) * k) / (pts[i].extra + 1));
        });
        const coords = reverse ? ring.flatMap((_, i) => (i % 2 === 0 ? [ring[ring.length - 2 - i], ring[ring.length - 1 - i]] : [])) : ring;
        const { triangles, ok } = triangulateRings(coords);
        assert.ok(ok);
        assert.equal(new Set(triangles).size, coords.length / 2);
        let sum = 0;
        for (let t = 0; t < triangles.length; t += 3) sum += area2(coords, triangles[t], triangles[t + 1], triangles[t + 2]);
        let expected = 0;
        const n = coords.length / 2;
        for (let i = 0; i < n; i++) {
          const j = (i + 1) % n;
          expected += coords[2 * i] * coords[2 * j + 1] - coords[2 * j] * coords[2 * i + 1];
        }
        assert.ok(Math.abs(sum - Math.abs(expected)) < 1e-6 * Math.abs(expected));
      },
    ),
    { numRuns: 300 },
  );
});
