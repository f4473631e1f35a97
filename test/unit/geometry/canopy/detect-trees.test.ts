import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CANOPY_DETECT_DEFAULTS, detectionMargin, detectTrees, type CanopyGrid, type DetectedTree } from '../../../../src/geometry/canopy/index.ts';
import { forestTrees, isolatedTrees, renderChm, type SyntheticChm } from '../../../support/generators/synthetic-chm.ts';

/** Matches detected tops to known trees (nearest within `within` metres, one to one). */
function score(chm: SyntheticChm, found: readonly DetectedTree[], within = 1) {
  const cs = chm.cellSize;
  const used = new Set<number>();
  const pairs: { tree: SyntheticChm['trees'][number]; top: DetectedTree; dist: number }[] = [];
  for (const tree of chm.trees) {
    let best = -1,
      bestD = within;
    found.forEach((f, n) => {
      const d = Math.hypot(f.col * cs - tree.x, f.row * cs - tree.y);
      if (d <= bestD && !used.has(n)) {
        bestD = d;
        best = n;
      }
    });
    if (best >= 0) {
      used.add(best);
      pairs.push({ tree, top: found[best], dist: bestD });
    }
  }
  return {
    pairs,
    recall: pairs.length / chm.trees.length,
    precision: found.length ? pairs.length / found.length : 1,
    worstHeight: Math.max(0, ...pairs.map((p) => Math.abs(p.top.height - p.tree.height))),
    worstCrown: Math.max(0, ...pairs.map((p) => Math.abs(p.top.crownDiameter / (2 * p.tree.crownRadius) - 1))),
  };
}

describe('isolated trees: tops, heights and crowns', () => {
  // heights within 0.1 m while the noise is at most ±0.05 m; noisier data moves the measured top by the noise
  for (const [cellSize, noise, seed, heightTol] of [
    [1, 0, 1, 0.1],
    [1, 0.05, 2, 0.1],
    [0.5, 0.05, 3, 0.1],
    [1, 0.1, 4, 0.15],
  ] as const) {
    test(`${cellSize} m cells, noise ±${noise} m: recall and precision ≥ 95% within 1 m, heights within ${heightTol} m, crowns within 20%`, () => {
      const side = 400;
      const trees = isolatedTrees(side, side, 250, seed);
      const chm = renderChm(side / cellSize, side / cellSize, cellSize, trees, { noise, seed });
      const found = detectTrees(chm, { minHeight: 3, minSpacing: 3 });
      const s = score(chm, found);
      assert.ok(trees.length > 150, `${trees.length} trees`);
      assert.ok(s.recall >= 0.95 && s.precision >= 0.95, `recall ${s.recall}, precision ${s.precision}`);
      assert.ok(s.worstHeight <= heightTol, `worst height error ${s.worstHeight} m`);
      assert.ok(s.worstCrown <= 0.2, `worst crown error ${(s.worstCrown * 100).toFixed(1)}%`);
    });
  }
});

describe('the variable window filter', () => {
  test('plateaus of equal height give one top, at their centre (integer-metre CHMs are full of them)', () => {
    const trees = isolatedTrees(300, 300, 150, 9);
    const chm = renderChm(300, 300, 1, trees);
    for (let i = 0; i < chm.data.length; i++) chm.data[i] = Math.floor(chm.data[i]); // whole metres
    const found = detectTrees(chm, { minHeight: 3, minSpacing: 3 });
    const s = score(chm, found, 1.5);
    assert.ok(s.recall >= 0.95 && s.precision >= 0.95, `recall ${s.recall}, precision ${s.precision}`);
    // a flat-topped crown: a 3 × 2 plateau gives one top at its centroid
    const flat = new Float32Array(20 * 20);
    for (let r = 8; r <= 9; r++) for (let c = 8; c <= 10; c++) flat[r * 20 + c] = 12;
    for (let r = 6; r <= 11; r++) for (let c = 6; c <= 12; c++) flat[r * 20 + c] ||= 10;
    const tops = detectTrees({ data: flat, width: 20, height: 20, cellSize: 1 }, { minSpacing: 1 });
    assert.equal(tops.length, 1);
    assert.deepEqual([tops[0].col, tops[0].row, tops[0].height], [9, 8.5, 12]);
    assert.equal(tops[0].crownCells, 7 * 6);
  });

  test('the window grows with height: a shoulder within it is not a top, one beyond it is', () => {
    const grid = (gap: number): CanopyGrid => {
      const data = new Float32Array(40 * 10);
      data[5 * 40 + 5] = 30; // window radius 0.05·30 + 0.6 = 2.1 m
      data[5 * 40 + 5 + gap] = 29;
      return { data, width: 40, height: 10, cellSize: 1 };
    };
    const tops = (gap: number) => detectTrees(grid(gap), { minSpacing: 0.5, crownMinHeight: 100 }).length;
    assert.equal(tops(2), 1, 'the 29 m cell sees the 30 m one within its 2.05 m window');
    assert.equal(tops(3), 2);
  });

  test('canopyMinHeight: nothing lower is a top', () => {
    const chm = renderChm(100, 100, 1, [
      { x: 20, y: 20, height: 4, crownRadius: 2.5 },
      { x: 60, y: 60, height: 15, crownRadius: 4 },
    ]);
    assert.equal(detectTrees(chm, { minHeight: 3 }).length, 2);
    assert.equal(detectTrees(chm, { minHeight: 5 }).length, 1);
  });

  test('canopyMinSpacing: of two tops closer than it the lower goes', () => {
    const chm = renderChm(60, 30, 1, [
      { x: 20, y: 15, height: 20, crownRadius: 4 },
      { x: 26, y: 15, height: 18, crownRadius: 4 },
    ]);
    assert.equal(detectTrees(chm, { minSpacing: 3 }).length, 2);
    const one = detectTrees(chm, { minSpacing: 7 });
    assert.equal(one.length, 1);
    assert.ok(Math.abs(one[0].height - 20) < 0.1);
  });

  test('nodata holes are no data: never a top, never a crown cell, and the trees around them are found', () => {
    const trees = isolatedTrees(300, 300, 150, 11);
    const chm = renderChm(300, 300, 1, trees, { noise: 0.05, seed: 5 });
    const holed = chm.data.slice();
    for (let r = 100; r < 160; r++) for (let c = 100; c < 160; c++) holed[r * 300 + c] = NaN;
    const found = detectTrees({ ...chm, data: holed });
    for (const f of found) assert.ok(!Number.isNaN(holed[Math.round(f.row) * 300 + Math.round(f.col)]));
    const outside = {
      ...chm,
      trees: trees.filter((t) => t.x + t.crownRadius < 100 || t.x - t.crownRadius > 159 || t.y + t.crownRadius < 100 || t.y - t.crownRadius > 159),
    };
    const s = score(outside, found);
    assert.ok(s.recall >= 0.95, `recall outside the hole ${s.recall}`);
    assert.ok(found.length <= chm.trees.length);
  });
});

describe('overlapping crowns', () => {
  test('two touching crowns are two trees whose crowns split in the valley', () => {
    const chm = renderChm(60, 40, 1, [
      { x: 20, y: 20, height: 22, crownRadius: 6 },
      { x: 29, y: 20, height: 18, crownRadius: 6 },
    ]);
    const found = detectTrees(chm);
    assert.equal(found.length, 2);
    let canopy = 0;
    for (const v of chm.data) if (v >= 0.3 * 18) canopy++;
    const cells = found[0].crownCells + found[1].crownCells;
    assert.ok(Math.abs(cells - canopy) / canopy < 0.1, `${cells} crown cells of ${canopy}`);
    assert.ok(
      found.every((f) => f.crownDiameter > 8 && f.crownDiameter < 13),
      found.map((f) => f.crownDiameter).join(' '),
    );
  });

  test('a closed forest: most trees found, no more tops than trees', () => {
    const chm = renderChm(300, 300, 1, forestTrees(300, 300, 7, 3), { noise: 0.05, seed: 1 });
    const found = detectTrees(chm);
    const s = score(chm, found, 1.5);
    assert.ok(s.recall >= 0.7, `recall ${s.recall}`);
    assert.ok(s.precision >= 0.9, `precision ${s.precision}`);
  });
});

describe('tiles: no tree duplicated or dropped at a seam', () => {
  test('detecting tile by tile with the margin gives exactly the trees of the whole grid (random tilings)', () => {
    const side = 240;
    const chm = renderChm(side, side, 1, forestTrees(side, side, 6, 21), { noise: 0.05, seed: 2 });
    const whole = detectTrees(chm);
    const key = (t: DetectedTree) => `${t.key}:${t.latticeCol}:${t.latticeRow}:${t.height}:${t.crownCells}`; // bit for bit
    const expected = whole.map(key).sort();
    const margin = Math.ceil(detectionMargin(CANOPY_DETECT_DEFAULTS, 1));
    fc.assert(
      fc.property(fc.integer({ min: 30, max: 150 }), fc.integer({ min: 0, max: 29 }), fc.integer({ min: 0, max: 29 }), (tile, ox, oy) => {
        const got: string[] = [];
        for (let ty = -oy; ty < side; ty += tile) {
          for (let tx = -ox; tx < side; tx += tile) {
            // read the tile plus the margin, clipped to the raster
            const c0 = Math.max(0, tx - margin),
              r0 = Math.max(0, ty - margin);
            const c1 = Math.min(side, tx + tile + margin),
              r1 = Math.min(side, ty + tile + margin);
            const w = c1 - c0,
              h = r1 - r0;
            const data = new Float32Array(w * h);
            for (let r = 0; r < h; r++) data.set(chm.data.subarray((r0 + r) * side + c0, (r0 + r) * side + c0 + w), r * w);
            for (const t of detectTrees({ data, width: w, height: h, cellSize: 1, col0: c0, row0: r0 })) {
              const c = t.latticeCol,
                r = t.latticeRow; // owned: the top lies in this tile (half-open)
              if (c >= tx && c < tx + tile && r >= ty && r < ty + tile) got.push(key(t));
            }
          }
        }
        assert.deepEqual(got.sort(), expected);
      }),
      { numRuns: 12, seed: 7 },
    );
  });
});
