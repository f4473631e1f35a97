import type { TopCandidate } from './local-maxima.ts';
import { PixelHeap } from './pixel-heap.ts';
import type { CanopyDetectOptions, CanopyGrid } from './types.ts';

const NEIGHBOURS_C = Int32Array.of(-1, 0, 1, -1, 1, -1, 0, 1);
const NEIGHBOURS_R = Int32Array.of(-1, -1, -1, 0, 0, 1, 1, 1);

/**
 * Crowns by seeded region growing, the marker-controlled watershed of the CHM from the treetops:
 * cells are taken highest first (PixelHeap's total order), and each unclaimed neighbour of a taken
 * cell joins that cell's tree when it is at least `crownMinHeight` and `crownHeightShare` of the
 * tree's top high and within `maxCrownRadius` of the top. Two crowns meet in the valley between
 * them. Returns the cell count of each top's crown (same order as `tops`) and, when asked, the
 * label grid (index into `tops`, -1 for no crown).
 */
export function growCrowns(
  grid: CanopyGrid,
  tops: readonly TopCandidate[],
  o: CanopyDetectOptions,
  keepLabels = false,
): { cells: Int32Array; labels?: Int32Array } {
  const { data, width: w, height: h, cellSize } = grid;
  const labels = new Int32Array(w * h).fill(-1);
  const cells = new Int32Array(tops.length);
  const floor = new Float32Array(tops.length);
  const seedC = new Int32Array(tops.length),
    seedR = new Int32Array(tops.length);
  const r2 = (o.maxCrownRadius / cellSize) ** 2;
  const heap = new PixelHeap(Math.min(w * h, 1 << 16));
  tops.forEach((t, n) => {
    floor[n] = Math.max(o.crownMinHeight, o.crownHeightShare * t.cellHeight);
    seedC[n] = t.seed % w;
    seedR[n] = (t.seed - seedC[n]) / w;
    if (labels[t.seed] !== -1) return; // cannot happen for distinct tops; guards a shared plateau seed
    labels[t.seed] = n;
    cells[n]++;
    heap.push(t.seed, data[t.seed]);
  });
  while (heap.size > 0) {
    const i = heap.pop();
    const n = labels[i];
    const c = i % w,
      r = (i - c) / w;
    const sc = seedC[n],
      sr = seedR[n],
      f = floor[n];
    for (let k = 0; k < 8; k++) {
      const nc = c + NEIGHBOURS_C[k],
        nr = r + NEIGHBOURS_R[k];
      if (nc < 0 || nr < 0 || nc >= w || nr >= h) continue;
      const j = nr * w + nc;
      if (labels[j] !== -1) continue;
      const v = data[j];
      if (!(v >= f)) continue;
      const dc = nc - sc,
        dr = nr - sr;
      if (dc * dc + dr * dr > r2) continue;
      labels[j] = n;
      cells[n]++;
      heap.push(j, v);
    }
  }
  return keepLabels ? { cells, labels } : { cells };
}
