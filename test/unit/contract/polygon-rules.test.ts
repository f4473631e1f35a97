import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { area } from '@turf/turf';
import { ringAreaKm2, type LatLon } from '../../../src/contract/polygon-measures.ts';
import { checkLatLon, checkPolygon } from '../../../src/contract/polygon-rules.ts';
import { findRingSelfIntersection } from '../../../src/contract/ring-self-intersection.ts';
import { MAX_POLYGON_POINTS } from '../../../src/contract/limits.ts';
import { close, MONACO, offset, rectangle, starRing } from '../../support/arbitraries/contract.ts';

/** Port Hercule and the Rocher, Monaco: a real harbour outline (hand-traced, clockwise). */
const PORT_HERCULE: LatLon[] = close([
  [43.73771, 7.42118],
  [43.7368, 7.42376],
  [43.73515, 7.42524],
  [43.7332, 7.42471],
  [43.73205, 7.42282],
  [43.73253, 7.42052],
  [43.73418, 7.41924],
  [43.73618, 7.41955],
]);

function codeOf(value: unknown): string {
  const verdict = checkPolygon(value);
  return verdict.ok ? 'ok' : verdict.violation.code;
}

test('a real Monaco outline passes and reports its area', () => {
  const verdict = checkPolygon(PORT_HERCULE);
  assert.ok(verdict.ok);
  assert.deepEqual(verdict.ring, PORT_HERCULE);
  assert.ok(verdict.areaKm2 > 0.1 && verdict.areaKm2 < 0.3, `area ${verdict.areaKm2}`);
  // Both windings are the same polygon.
  const reversed = checkPolygon([...PORT_HERCULE].reverse());
  assert.ok(reversed.ok);
  assert.ok(Math.abs(reversed.areaKm2 - verdict.areaKm2) < 1e-12);
});

test('area: turf on a lat/lon rectangle equals the closed spherical form, close to the WGS84 ellipsoid', () => {
  const ring: LatLon[] = close([
    [43.73, 7.42],
    [43.73, 7.43],
    [43.74, 7.43],
    [43.74, 7.42],
  ]);
  const R = 6_371_008.8; // turf's mean Earth radius
  const d = Math.PI / 180;
  const sphere = R * R * 0.01 * d * (Math.sin(43.74 * d) - Math.sin(43.73 * d));
  assert.ok(Math.abs(ringAreaKm2(ring) * 1e6 - sphere) < 0.01, `${ringAreaKm2(ring) * 1e6} vs ${sphere}`);
  // Reference: GDAL 3.6.2 `ogrinfo -dialect sqlite -sql "SELECT ST_Area(geometry, 1)"` (SpatiaLite, WGS84 ellipsoid)
  // on the same square gives 895104.313 m²; turf's sphere stays within 0.5% of it.
  const ellipsoid = 895_104.313;
  assert.ok(Math.abs(ringAreaKm2(ring) * 1e6 - ellipsoid) / ellipsoid < 0.005);
});

test('the area limit sits exactly at 10 km² of turf area', () => {
  // Rectangles 3 km wide at Monaco, solved in closed form for 9.999 and 10.001 km².
  const R = 6_371_008.8,
    d = Math.PI / 180;
  const lat1 = 43.7,
    dLon = 0.04;
  const latFor = (m2: number) => Math.asin(Math.sin(lat1 * d) + m2 / (R * R * dLon * d)) / d;
  const rect = (lat2: number): LatLon[] =>
    close([
      [lat1, 7.4],
      [lat1, 7.4 + dLon],
      [lat2, 7.4 + dLon],
      [lat2, 7.4],
    ]);
  const under = checkPolygon(rect(latFor(9.999e6)));
  assert.ok(under.ok, 'just under 10 km² passes');
  const over = checkPolygon(rect(latFor(10.001e6)));
  assert.ok(!over.ok);
  assert.equal(over.violation.code, 'polygon_too_large');
  const areaKm2 = over.violation.details[0].areaKm2 as number;
  assert.ok(Math.abs(areaKm2 - 10.001) < 1e-4, `reported ${areaKm2}`);
  assert.match(over.violation.message, /10\.00 km².*10 km²/);
});

test('property: the area check accepts exactly when turf area ≤ 10 km²', () => {
  fc.assert(
    fc.property(starRing({ minRadius: 1500, maxRadius: 2600, maxCorners: 24 }), (ring) => {
      const m2 = area({ type: 'Polygon', coordinates: [ring.map(([lat, lon]) => [lon, lat])] });
      const verdict = checkPolygon(ring);
      if (m2 <= 10e6) {
        assert.ok(verdict.ok, `area ${m2} should pass`);
        assert.equal(verdict.areaKm2, m2 / 1e6);
      } else {
        assert.ok(!verdict.ok);
        assert.equal(verdict.violation.code, 'polygon_too_large');
        assert.equal(verdict.violation.details[0].areaKm2, m2 / 1e6);
      }
    }),
    { numRuns: 200 },
  );
});

test('pair shape: every item must be two finite numbers; the index is in the details', () => {
  const good = rectangle(MONACO, 100, 100);
  for (const bad of [[43.7], [43.7, 7.4, 0], [], ['43.7', 7.4], [43.7, 'NaN'], [NaN, 7.4], [43.7, Infinity], null, 'x', { lat: 1, lon: 2 }]) {
    const polygon = [...good];
    polygon[2] = bad as never;
    const verdict = checkPolygon(polygon);
    assert.ok(!verdict.ok);
    assert.equal(verdict.violation.code, 'invalid_coordinate', JSON.stringify(bad));
    assert.deepEqual(verdict.violation.details[0].path, ['polygon', 2]);
    assert.equal(verdict.violation.details[0].index, 2);
  }
});

test('many bad points: all counted in the message, at most 10 details', () => {
  const polygon = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? [1] : [43.7, 7.4]));
  const verdict = checkPolygon(polygon);
  assert.ok(!verdict.ok);
  assert.equal(verdict.violation.details.length, 10);
  assert.match(verdict.violation.message, /^Polygon point 0 and 24 others are not/);
});

test('latitude and longitude ranges', () => {
  const ring = rectangle(MONACO, 100, 100);
  const withPoint = (p: LatLon) => ring.map((q, i) => (i === 1 ? p : q));
  assert.equal(codeOf(withPoint([90.0001, 7.4])), 'invalid_coordinate');
  assert.equal(codeOf(withPoint([-91, 7.4])), 'invalid_coordinate');
  assert.equal(codeOf(withPoint([43.7, 180.5])), 'invalid_coordinate');
  assert.equal(codeOf(withPoint([43.7, -1e9])), 'invalid_coordinate');
  const lat = checkPolygon(withPoint([95, 7.4]));
  assert.ok(!lat.ok);
  assert.deepEqual(lat.violation.details[0].path, ['polygon', 1, 0]);
  const lon = checkPolygon(withPoint([43.7, 200]));
  assert.ok(!lon.ok);
  assert.deepEqual(lon.violation.details[0].path, ['polygon', 1, 1]);
  // The boundaries themselves are valid coordinates.
  assert.equal(checkLatLon([90, 180], ['origin'], 'origin'), null);
  assert.equal(checkLatLon([-90, -180], ['origin'], 'origin'), null);
});

test('rules apply in order: shape, latitude, longitude, count, closed, max count', () => {
  // A bad pair wins over a bad latitude, a bad latitude over a bad longitude, and so on.
  assert.equal(codeOf([[95, 7.4], [1]]), 'invalid_coordinate');
  assert.deepEqual(
    (
      checkPolygon([
        [43, 200],
        [95, 7],
      ]) as { violation: { details: { path: unknown }[] } }
    ).violation.details[0].path,
    ['polygon', 1, 0],
  );
  assert.equal(
    codeOf([
      [43.7, 7.4],
      [43.8, 7.4],
    ]),
    'polygon_too_few_points',
  ); // not closed either
  assert.equal(codeOf([]), 'polygon_too_few_points');
  const open = Array.from({ length: MAX_POLYGON_POINTS + 5 }, (_, i) => offset(MONACO, i, (i * 7) % 13));
  assert.equal(codeOf(open), 'polygon_not_closed'); // too many points, but not closed comes first
  assert.equal(codeOf(undefined), 'invalid_request');
  assert.equal(codeOf({ 0: [1, 2] }), 'invalid_request');
});

test('closed means first and last points identical', () => {
  const ring = rectangle(MONACO, 100, 100);
  const nearly = ring.map((p, i): LatLon => (i === ring.length - 1 ? [p[0] + 1e-12, p[1]] : p));
  const verdict = checkPolygon(nearly);
  assert.ok(!verdict.ok);
  assert.equal(verdict.violation.code, 'polygon_not_closed');
  assert.deepEqual(verdict.violation.details[0].path, ['polygon', 4]);
});

test(`${MAX_POLYGON_POINTS} points pass, one more is too many`, () => {
  const star = (n: number) =>
    close(
      Array.from({ length: n }, (_, i) => {
        const a = (2 * Math.PI * i) / n;
        const r = i % 2 === 0 ? 900 : 1000;
        return offset(MONACO, r * Math.cos(a), r * Math.sin(a));
      }),
    );
  const most = star(MAX_POLYGON_POINTS - 1);
  assert.equal(most.length, MAX_POLYGON_POINTS);
  assert.equal(codeOf(most), 'ok');
  const verdict = checkPolygon(star(MAX_POLYGON_POINTS));
  assert.ok(!verdict.ok);
  assert.equal(verdict.violation.code, 'polygon_too_many_points');
  assert.equal(verdict.violation.details[0].maxPoints, MAX_POLYGON_POINTS);
});

test('a crossing hidden in a 10,000-point ring is found', () => {
  const n = MAX_POLYGON_POINTS - 1;
  const ring = Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return offset(MONACO, 1000 * Math.cos(a), 1000 * Math.sin(a));
  });
  [ring[5000], ring[5001]] = [ring[5001], ring[5000]];
  const verdict = checkPolygon(close(ring));
  assert.ok(!verdict.ok);
  assert.equal(verdict.violation.code, 'polygon_self_intersecting');
  assert.deepEqual(verdict.violation.details[0].edges, [
    [4999, 5000],
    [5001, 5002],
  ]);
});

test('self-intersection: bow-tie, touching vertex, overlap, spike, figure eight', () => {
  const p = (e: number, n: number) => offset(MONACO, e, n);
  const cases: Record<string, LatLon[]> = {
    bowTie: close([p(0, 0), p(100, 100), p(100, 0), p(0, 100)]),
    vertexOnEdge: close([p(0, 0), p(200, 0), p(200, 200), p(100, 0.0), p(0, 200)]),
    collinearOverlap: close([p(0, 0), p(300, 0), p(300, 100), p(200, 100), p(200, 0), p(100, 0), p(100, -100), p(0, -100)]),
    spike: close([p(0, 0), p(100, 0), p(100, 100), p(100, 200), p(100, 150), p(0, 100)]),
    figureEight: close([p(0, 0), p(100, 0), p(100, 100), p(200, 100), p(200, 200), p(100, 200), p(100, 100), p(0, 100)]),
  };
  for (const [name, ring] of Object.entries(cases)) {
    const verdict = checkPolygon(ring);
    assert.ok(!verdict.ok, name);
    assert.equal(verdict.violation.code, 'polygon_self_intersecting', name);
    assert.match(
      verdict.violation.message,
      /^The polygon intersects itself: its edges from point \d+ to \d+ and from point \d+ to \d+ (cross|touch|overlap) each other\.$/,
    );
  }
});

test('zero area: repeated or collinear points are reported as self-intersecting', () => {
  const a = offset(MONACO, 0, 0),
    b = offset(MONACO, 100, 0),
    c = offset(MONACO, 200, 0);
  for (const ring of [
    [a, a, a, a],
    [a, b, a, a],
    [a, b, b, a],
    [a, b, c, a],
    [a, c, b, a],
  ] as LatLon[][]) {
    const verdict = checkPolygon(ring);
    assert.ok(!verdict.ok);
    assert.equal(verdict.violation.code, 'polygon_self_intersecting');
  }
  const noArea = checkPolygon([a, b, a, a]);
  assert.ok(!noArea.ok);
  assert.equal(noArea.violation.details[0].reason, 'no_area');
});

test('consecutive repeated points are tolerated and the ring is returned as given', () => {
  const [a, b, c, d] = rectangle(MONACO, 100, 100);
  const ring: LatLon[] = [a, a, b, c, c, c, d, a];
  const verdict = checkPolygon(ring);
  assert.ok(verdict.ok);
  assert.deepEqual(verdict.ring, ring);
});

test('antimeridian crossings are rejected with a clear message', () => {
  const ring: LatLon[] = close([
    [-16.5, 179.999],
    [-16.5, -179.999],
    [-16.49, -179.999],
    [-16.49, 179.999],
  ]);
  const verdict = checkPolygon(ring);
  assert.ok(!verdict.ok);
  assert.equal(verdict.violation.code, 'invalid_request');
  assert.match(verdict.violation.message, /antimeridian/);
  assert.equal(verdict.violation.details[0].reason, 'crosses_antimeridian');
  // Touching 180° from one side is fine.
  assert.equal(
    codeOf(
      close([
        [-16.5, 179.99],
        [-16.5, 180],
        [-16.49, 180],
        [-16.49, 179.99],
      ]),
    ),
    'ok',
  );
});

test('origin must be a valid pair', () => {
  for (const bad of [[1], [1, 2, 3], ['1', 2], [NaN, 1], [91, 0], [0, -181], 'x', {}, 5]) {
    const violation = checkLatLon(bad, ['origin'], 'origin');
    assert.equal(violation?.code, 'invalid_coordinate', JSON.stringify(bad));
  }
  assert.equal(checkLatLon(MONACO, ['origin'], 'origin'), null);
});

// ---- self-intersection against an exact brute force on integer grids -------------------------

type P = [number, number];
const orient = (a: P, b: P, c: P) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
const onSeg = (a: P, b: P, c: P) =>
  Math.min(a[0], b[0]) <= c[0] && c[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= c[1] && c[1] <= Math.max(a[1], b[1]);
function segmentsMeet(a: P, b: P, c: P, d: P): boolean {
  const o1 = orient(a, b, c),
    o2 = orient(a, b, d),
    o3 = orient(c, d, a),
    o4 = orient(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 === 0 && onSeg(a, b, c)) || (o2 === 0 && onSeg(a, b, d)) || (o3 === 0 && onSeg(c, d, a)) || (o4 === 0 && onSeg(c, d, b));
}
/** O(n²), exact in integers: non-adjacent edges may not meet, adjacent edges may not fold back. */
function bruteForceBad(open: P[]): boolean {
  const v = open.filter((p, i) => i === 0 || p[0] !== open[i - 1][0] || p[1] !== open[i - 1][1]);
  while (v.length > 1 && v[v.length - 1][0] === v[0][0] && v[v.length - 1][1] === v[0][1]) v.pop();
  if (new Set(v.map((p) => p.join())).size < 3) return true;
  const n = v.length;
  const edge = (e: number): [P, P] => [v[e], v[(e + 1) % n]];
  for (let e = 0; e < n; e++) {
    for (let f = e + 1; f < n; f++) {
      const [a, b] = edge(e),
        [c, d] = edge(f);
      if (f === e + 1 || (e === 0 && f === n - 1)) {
        const [p, q, r] = f === e + 1 ? [a, b, d] : [c, d, b];
        if (orient(p, q, r) === 0 && (q[0] - p[0]) * (r[0] - q[0]) + (q[1] - p[1]) * (r[1] - q[1]) < 0) return true;
      } else if (segmentsMeet(a, b, c, d)) return true;
    }
  }
  return false;
}

test('property: the Flatbush self-intersection test agrees with an exact brute force', () => {
  const grid = fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), { minLength: 3, maxLength: 12 });
  const seen = { ok: 0, bad: 0 };
  fc.assert(
    fc.property(grid, (open) => {
      const ring = close(open.map(([x, y]): LatLon => [MONACO[0] + y * 1e-4, MONACO[1] + x * 1e-4]));
      const verdict = checkPolygon(ring);
      const expectBad = bruteForceBad(open as P[]);
      seen[expectBad ? 'bad' : 'ok']++;
      assert.equal(verdict.ok ? 'ok' : verdict.violation.code, expectBad ? 'polygon_self_intersecting' : 'ok', JSON.stringify(open));
    }),
    { numRuns: 3000 },
  );
  // Both outcomes must be well represented, or the property proves little.
  assert.ok(seen.ok > 200 && seen.bad > 200, JSON.stringify(seen));
});

test('a crafted sunburst that would make the check quadratic is refused as too intricate', () => {
  const n = MAX_POLYGON_POINTS - 1;
  const ring = close(
    Array.from({ length: n }, (_, i) => {
      const a = (2 * Math.PI * i) / n;
      const r = i % 2 === 0 ? 1000 : 100; // 5,000 long spikes around one centre
      return offset(MONACO, r * Math.cos(a), r * Math.sin(a));
    }),
  );
  const verdict = checkPolygon(ring);
  assert.ok(!verdict.ok);
  assert.equal(verdict.violation.code, 'polygon_too_many_points');
  assert.equal(verdict.violation.details[0].reason, 'too_complex');
  // The same shape with 1,000 points is an ordinary valid polygon.
  const small = close(
    Array.from({ length: 1000 }, (_, i) => {
      const a = (2 * Math.PI * i) / 1000;
      const r = i % 2 === 0 ? 1000 : 100;
      return offset(MONACO, r * Math.cos(a), r * Math.sin(a));
    }),
  );
  assert.equal(codeOf(small), 'ok');
});

test('findRingSelfIntersection works on raw planar rings', () => {
  assert.deepEqual(findRingSelfIntersection(new Float64Array([0, 0, 1, 1, 1, 0, 0, 1])), { status: 'intersecting', edgeA: 0, edgeB: 2, kind: 'crossing' });
  assert.deepEqual(findRingSelfIntersection(new Float64Array([0, 0, 1, 0, 1, 1, 0, 1])), { status: 'simple' });
});

test("the area written out is turf's area to the bit, for any ring", () => {
  // ringAreaKm2 replaced an import of @turf/turf (all of turf loaded into every thread): prices must not move.
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.double({ min: -89, max: 89, noNaN: true }), fc.double({ min: -179, max: 179, noNaN: true })), { minLength: 0, maxLength: 40 }),
      (corners) => {
        const ring: LatLon[] = corners.length ? close(corners as LatLon[]) : [];
        const turf = ring.length ? area({ type: 'Polygon', coordinates: [ring.map(([lat, lon]) => [lon, lat])] }) / 1e6 : 0;
        const ours = ringAreaKm2(ring);
        assert.equal(ours, turf);
      },
    ),
  );
});
