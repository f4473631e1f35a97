/**
 * The merge rule on rectangles whose overlap is known exactly: the share is the overlap's area over
 * the OSM building's; ≥ 50 % replaces, < 10 % keeps, in between cuts, and what the cut leaves is
 * the building minus the premium footprint — unless it is a sliver (narrower than 2 m), then the
 * building counts as replaced. The interior point lies inside the footprint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { footprintInteriorPoint, osmMergeDecision, type LonLatPolygons } from '../../../../src/geometry/buildings/premium-merge.ts';

const LAT0 = 47.37,
  LON0 = 8.54;
const M_LAT = 111_320,
  M_LON = 111_320 * Math.cos((LAT0 * Math.PI) / 180);

/** A rectangle x0..x1, y0..y1 (metres east/north of a point in Zürich) as lon/lat polygons. */
function rect(x0: number, y0: number, x1: number, y1: number): LonLatPolygons {
  const lon = (x: number) => LON0 + x / M_LON,
    lat = (y: number) => LAT0 + y / M_LAT;
  return [[[lon(x0), lat(y0), lon(x1), lat(y0), lon(x1), lat(y1), lon(x0), lat(y1)]]];
}

const AT: [number, number] = [LON0 + 5 / M_LON, LAT0 + 5 / M_LAT];

test('an OSM building under a premium one, shifted by d of its 10 m width: share, decision and what is left', () => {
  fc.assert(
    fc.property(fc.double({ min: 0, max: 10, noNaN: true }), (d) => {
      const osm = rect(0, 0, 10, 10);
      const premium = rect(d, -5, d + 20, 15); // covers x from d to 10
      const share = (10 - d) / 10;
      const decision = osmMergeDecision([osm], [premium], AT);
      assert.ok(Math.abs(decision.share - share) < 1e-3, `share ${decision.share} for ${share}`);
      if (share >= 0.5 + 1e-3) assert.equal(decision.action, 'replace');
      else if (share < 0.1 - 1e-3) assert.equal(decision.action, 'keep');
      else if (share > 0.1 + 1e-3 && share < 0.5 - 1e-3) {
        // what is left: x 0..d, at least 5 m wide, so no sliver
        assert.equal(decision.action, 'cut');
        if (decision.action !== 'cut') return;
        const left = decision.members[0];
        assert.equal(left.length, 1);
        const xs = left[0][0].filter((_, k) => k % 2 === 0).map((lon) => (lon - LON0) * M_LON);
        assert.ok(Math.abs(Math.min(...xs)) < 0.01 && Math.abs(Math.max(...xs) - d) < 0.01, `left x ${Math.min(...xs)}..${Math.max(...xs)}, expected 0..${d}`);
      }
    }),
  );
});

test('a cut that leaves only slivers narrower than 2 m replaces the building; its parts are cut alike', () => {
  // a 30 × 10 m building with a part on its west half, the premium footprint over the middle 12 m (40 %): both 9 m ends stay
  const osm = rect(0, 0, 30, 10);
  const part = rect(0, 0, 15, 10);
  const middle = osmMergeDecision([osm, part], [rect(9, -1, 21, 11)], AT);
  assert.equal(middle.action, 'cut');
  if (middle.action === 'cut') {
    assert.equal(middle.members[0].length, 2, 'the two ends of the outline');
    assert.equal(middle.members[1].length, 1, 'the part keeps its west end');
  }
  // a 1.8 m wide strip of 50 m, 40 % of it under the premium footprint: what is left is narrower than 2 m
  const thin = osmMergeDecision([rect(0, 0, 50, 1.8)], [rect(-1, -1, 20, 3)], AT);
  assert.ok(Math.abs(thin.share - 0.4) < 1e-3, `share ${thin.share}`);
  assert.equal(thin.action, 'replace', 'only a sliver would be left');
});

test('the interior point of a footprint lies inside it, also for an L and a ring with a hole', () => {
  const lShape: LonLatPolygons = [[[...[0, 0, 20, 0, 20, 4, 4, 4, 4, 20, 0, 20].flatMap((v, k) => (k % 2 === 0 ? [LON0 + v / M_LON] : [LAT0 + v / M_LAT]))]]];
  const withHole: LonLatPolygons = [[rect(0, 0, 20, 20)[0][0], rect(2, 2, 18, 18)[0][0]]];
  for (const fp of [lShape, withHole, rect(0, 0, 5, 5)]) {
    const [lon, lat] = footprintInteriorPoint(fp)!;
    const x = (lon - LON0) * M_LON,
      y = (lat - LAT0) * M_LAT;
    const inL = fp === lShape ? (x > 0 && x < 20 && y > 0 && y < 4) || (x > 0 && x < 4 && y > 0 && y < 20) : true;
    const inRing = fp === withHole ? x > 0 && x < 20 && y > 0 && y < 20 && !(x > 2 && x < 18 && y > 2 && y < 18) : true;
    assert.ok(inL && inRing && x > 0 && y > 0, `${x}, ${y}`);
  }
  assert.equal(footprintInteriorPoint([]), null);
});
