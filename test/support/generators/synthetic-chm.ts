/**
 * Generated canopy height models with known trees, for the canopy tests and the bench: each tree is
 * a crown-shaped bump (a half-ellipsoid of radius R from a crown base at `baseShare` of the
 * height up to the top), the canopy is the highest bump at each cell, the ground is 0 plus noise.
 * Deterministic from a seed.
 */
import { mulberry32 } from './prng.ts';

export interface SyntheticTree {
  /** Position of the top in metres from the centre of cell (0, 0): x east (columns), y south (rows). */
  x: number;
  y: number;
  height: number;
  crownRadius: number;
  /** Crown base as a share of the height (default 0.45). */
  baseShare?: number;
}

export interface SyntheticChm {
  data: Float32Array;
  width: number;
  height: number;
  cellSize: number;
  trees: SyntheticTree[];
}

/** Rasterises trees into a CHM; `noise` is the amplitude of uniform noise added to every cell (canopy and ground). */
export function renderChm(
  width: number,
  height: number,
  cellSize: number,
  trees: SyntheticTree[],
  options: { noise?: number; seed?: number } = {},
): SyntheticChm {
  const data = new Float32Array(width * height);
  for (const t of trees) {
    const base = (t.baseShare ?? 0.45) * t.height,
      cap = t.height - base;
    const R = t.crownRadius;
    const c0 = Math.max(0, Math.floor((t.x - R) / cellSize)),
      c1 = Math.min(width - 1, Math.ceil((t.x + R) / cellSize));
    const r0 = Math.max(0, Math.floor((t.y - R) / cellSize)),
      r1 = Math.min(height - 1, Math.ceil((t.y + R) / cellSize));
    for (let r = r0; r <= r1; r++) {
      const dy = r * cellSize - t.y;
      for (let c = c0; c <= c1; c++) {
        const dx = c * cellSize - t.x;
        const q = 1 - (dx * dx + dy * dy) / (R * R);
        if (q < 0) continue;
        const v = base + cap * Math.sqrt(q);
        const i = r * width + c;
        if (v > data[i]) data[i] = v;
      }
    }
  }
  const noise = options.noise ?? 0;
  if (noise > 0) {
    const rand = mulberry32(options.seed ?? 1);
    for (let i = 0; i < data.length; i++) data[i] = Math.max(0, data[i] + noise * (2 * rand() - 1));
  }
  return { data, width, height, cellSize, trees };
}

/**
 * Trees scattered over a w × h metre area with no two crowns touching (isolated trees): heights
 * 6–30 m, crown radius 0.2–0.3 × height (at least 2.5 m), `count` attempts by dart throwing.
 */
export function isolatedTrees(widthM: number, heightM: number, count: number, seed: number, gap = 2): SyntheticTree[] {
  const rand = mulberry32(seed);
  const out: SyntheticTree[] = [];
  for (let n = 0; n < count * 20 && out.length < count; n++) {
    const height = 6 + 24 * rand();
    const crownRadius = Math.max(2.5, height * (0.2 + 0.1 * rand()));
    const x = crownRadius + rand() * (widthM - 2 * crownRadius),
      y = crownRadius + rand() * (heightM - 2 * crownRadius);
    if (out.some((t) => Math.hypot(t.x - x, t.y - y) < t.crownRadius + crownRadius + gap)) continue;
    out.push({ x, y, height, crownRadius });
  }
  return out;
}

/**
 * A closed forest: trees on a jittered grid of `spacing` metres whose crowns overlap their
 * neighbours', heights 8–35 m. Fast for large areas (the bench's 10 km²).
 */
export function forestTrees(widthM: number, heightM: number, spacing: number, seed: number): SyntheticTree[] {
  const rand = mulberry32(seed);
  const out: SyntheticTree[] = [];
  for (let y = spacing / 2; y < heightM; y += spacing) {
    for (let x = spacing / 2; x < widthM; x += spacing) {
      const height = 8 + 27 * rand();
      out.push({ x: x + (rand() - 0.5) * spacing * 0.5, y: y + (rand() - 0.5) * spacing * 0.5, height, crownRadius: spacing * (0.55 + 0.2 * rand()) });
    }
  }
  return out;
}
