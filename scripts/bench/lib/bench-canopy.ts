/**
 * Part of `npm run bench` (and runnable alone: `node --import tsx scripts/bench/lib/bench-canopy.ts`):
 * tree detection from canopy height models (src/geometry/canopy) on generated closed forests —
 * 1 km² at 0.5 m (4 million cells) and 10 km² at 1 m — in this process on one thread. Each case
 * is timed on the whole grid and as the workers run it, in 500 m tiles each read with its
 * detection margin (the margin is detected twice, so this is the honest per-core cost). Wall
 * time and CPU-seconds (process.cpuUsage: this thread only does the work), per km², beside the
 * target of issue 12: ≤ 1 s per km² per core at 1 m. BENCH_RUNS (default 3) runs, median printed.
 */
import { pathToFileURL } from 'node:url';
import { CANOPY_DETECT_DEFAULTS, detectionMargin, detectTrees, type CanopyGrid, type DetectedTree } from '../../../src/geometry/canopy/index.ts';
import { forestTrees, renderChm } from '../../../test/support/generators/synthetic-chm.ts';
import { timeRuns } from './timing.ts';

const TARGET_S_PER_KM2 = 1;
const TILE_METRES = 500;

interface Case {
  name: string;
  sideMetres: number;
  cellSize: number;
}
const CASES: Case[] = [
  { name: '1 km² at 0.5 m', sideMetres: 1000, cellSize: 0.5 },
  { name: '10 km² at 1 m', sideMetres: 3163, cellSize: 1 },
];

/** A fingerprint of trees (position, height, crown) that does not depend on their order. */
function fingerprint(trees: Iterable<DetectedTree>): string {
  let n = 0,
    a = 0,
    b = 0;
  for (const t of trees) {
    n++;
    a += t.key * 1e-9 + t.crownCells;
    b += t.latticeCol * 1e-3 + t.latticeRow * 1e-3 + t.height;
  }
  return `${n}:${a.toFixed(6)}:${b.toFixed(6)}`;
}

/** Detection tile by tile with the margin, keeping the tops each tile owns (as features/instances/canopy.ts does). */
function detectTiled(grid: CanopyGrid): DetectedTree[] {
  const tile = Math.round(TILE_METRES / grid.cellSize);
  const margin = Math.ceil(detectionMargin(CANOPY_DETECT_DEFAULTS, grid.cellSize) / grid.cellSize);
  const trees: DetectedTree[] = [];
  for (let ty = 0; ty < grid.height; ty += tile) {
    for (let tx = 0; tx < grid.width; tx += tile) {
      const c0 = Math.max(0, tx - margin),
        r0 = Math.max(0, ty - margin);
      const c1 = Math.min(grid.width, tx + tile + margin),
        r1 = Math.min(grid.height, ty + tile + margin);
      const w = c1 - c0,
        h = r1 - r0;
      const data = new Float32Array(w * h);
      for (let r = 0; r < h; r++) data.set(grid.data.subarray((r0 + r) * grid.width + c0, (r0 + r) * grid.width + c0 + w), r * w);
      for (const t of detectTrees({ data, width: w, height: h, cellSize: grid.cellSize, col0: c0, row0: r0 })) {
        const c = t.latticeCol,
          r = t.latticeRow;
        if (c >= tx && c < tx + tile && r >= ty && r < ty + tile) trees.push(t);
      }
    }
  }
  return trees;
}

export interface CanopyBenchRow {
  name: string;
  km2: number;
  trees: number;
  wholeWall: number;
  wholeCpu: number;
  tiledWall: number;
  tiledCpu: number;
  sameTrees: boolean;
}

export async function benchCanopy(runs = Number(process.env.BENCH_RUNS ?? 3)): Promise<CanopyBenchRow[]> {
  console.log('\ncanopy tree detection (generated closed forest, crowns overlapping; one thread):');
  const rows: CanopyBenchRow[] = [];
  // a small case first, so the timed runs are of optimised code
  detectTrees(renderChm(300, 300, 1, forestTrees(300, 300, 6, 1), { noise: 0.05 }));
  for (const c of CASES) {
    const n = Math.round(c.sideMetres / c.cellSize);
    const chm = renderChm(n, n, c.cellSize, forestTrees(c.sideMetres, c.sideMetres, 6, 7), { noise: 0.05, seed: 3 });
    const km2 = (c.sideMetres / 1000) ** 2;
    const whole = await timeRuns(runs, () => detectTrees(chm));
    const tiled = await timeRuns(runs, () => detectTiled(chm));
    const sameTrees = fingerprint(whole.out) === fingerprint(tiled.out);
    const row = {
      name: c.name,
      km2,
      trees: whole.out.length,
      wholeWall: whole.wall,
      wholeCpu: whole.cpu,
      tiledWall: tiled.wall,
      tiledCpu: tiled.cpu,
      sameTrees,
    };
    rows.push(row);
    const perKm2 = tiled.cpu / km2;
    const verdict = c.cellSize === 1 ? ` (target ≤ ${TARGET_S_PER_KM2} s/km²/core: ${perKm2 <= TARGET_S_PER_KM2 ? 'met' : 'MISSED'})` : '';
    console.log(
      `  ${c.name}: ${((n * n) / 1e6).toFixed(1)} M cells, ${whole.out.length} trees; whole grid ${whole.wall.toFixed(2)} s (${whole.cpu.toFixed(2)} CPU-s); ` +
        `in ${TILE_METRES} m tiles with margins ${tiled.wall.toFixed(2)} s (${tiled.cpu.toFixed(2)} CPU-s, ${tiled.out.length} trees, ${sameTrees ? 'the same trees and crowns' : 'NOT the same trees as the whole grid'}) = ${perKm2.toFixed(2)} CPU-s per km²${verdict}`,
    );
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchCanopy();
