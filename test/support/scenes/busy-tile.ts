/**
 * Busy 500 m tiles for the ground assembly (resolveOverlaps → surfaceMeshes / surfaceOutlines),
 * deterministic from a seed: shared by the benchmark (scripts/bench/lib/assemble-tile-bench.ts, which
 * times each step) and by test/unit/geometry/surfaces/assemble/busy-tiles.test.ts (which checks the result, untimed).
 *
 * - `streetTile`: a street grid — ~2,000 mapped areas (carriageway and pavement strips, junctions,
 *   urban land use per block, footways, parking, parks and gardens of all sizes) and 800 buildings;
 * - `randomTile`: a stress case — ~2,000 long strips and blobs crossing each other everywhere and
 *   800 buildings (far denser than any real city);
 * - `busyTerrain(spacing)`: a rolling synthetic terrain under the tile, on a grid of `spacing` m.
 */
import type { Footprint, Ring } from '../../../src/geometry/types.ts';
import type { SurfaceArea, SurfaceKind } from '../../../src/geometry/surfaces/types.ts';
import { SURFACE_PRIORITY } from '../../../src/geometry/surfaces/priority.ts';
import { createGroundSampler, type GroundSampler } from '../../../src/geometry/terrain/ground-sampler.ts';
import { mulberry32 } from '../generators/prng.ts';

export interface BusyTile {
  areas: SurfaceArea[];
  buildings: Footprint[];
  /** The tile square, 0..500 m both ways. */
  clip: Footprint;
}

export type BusyTileMaker = (seed?: number) => BusyTile;

function box(cx: number, cy: number, length: number, width: number, angle: number): Ring {
  const c = Math.cos(angle),
    s = Math.sin(angle),
    out: Ring = [];
  for (const [u, v] of [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ]) {
    const x = (u * length) / 2,
      y = (v * width) / 2;
    out.push(cx + x * c - y * s, cy + x * s + y * c);
  }
  return out;
}

function blob(random: () => number, cx: number, cy: number, radius: number): Ring {
  const n = 5 + Math.floor(random() * 10),
    out: Ring = [];
  for (let i = 0; i < n; i++) {
    const t = (i / n) * 2 * Math.PI,
      r = radius * (0.6 + 0.4 * random());
    out.push(cx + r * Math.cos(t), cy + r * Math.sin(t));
  }
  return out;
}

const TILE: Footprint = { outer: [0, 0, 500, 0, 500, 500, 0, 500], holes: [] };

function collector(areas: SurfaceArea[]) {
  return (kind: SurfaceKind, outer: Ring, priority = SURFACE_PRIORITY[kind]) =>
    areas.push({ kind, priority, footprints: [{ outer, holes: [] }], descriptor: { type: kind, id: `way/${areas.length + 1}` } });
}

/**
 * A street grid in a 500 m tile: carriageways every 62 m both ways (segments between junctions),
 * a pavement strip on each side, a junction polygon at every crossing, urban land use per block,
 * footways, parking, parks and gardens of all sizes, and buildings in the blocks — 2,000 areas.
 */
export function streetTile(seed = 7): BusyTile {
  const random = mulberry32(seed);
  const areas: SurfaceArea[] = [];
  const add = collector(areas);
  const pitch = 62,
    lines: number[] = [];
  for (let v = -10; v <= 510; v += pitch) lines.push(v + (random() - 0.5) * 8);
  const widths = lines.map(() => 7 + random() * 8);
  for (let i = 0; i < lines.length; i++)
    for (let j = 0; j + 1 < lines.length; j++) {
      const w = widths[i],
        from = lines[j] + widths[j] / 2,
        to = lines[j + 1] - widths[j + 1] / 2,
        mid = (from + to) / 2,
        len = to - from + 1;
      for (const vertical of [false, true]) {
        const place = (c: number, across: number, l: number, width: number) => (vertical ? box(across, c, width, l, 0) : box(c, across, l, width, 0));
        add('asphalt', place(mid, lines[i], len, w));
        add('pavement', place(mid, lines[i] - w / 2 - 1.25, len, 2.5));
        add('pavement', place(mid, lines[i] + w / 2 + 1.25, len, 2.5));
      }
    }
  for (let i = 0; i < lines.length; i++)
    for (let j = 0; j < lines.length; j++) add('roadwayIntersection', box(lines[i], lines[j], widths[j] + 1, widths[i] + 1, 0));
  for (let i = 0; i + 1 < lines.length; i++)
    for (let j = 0; j + 1 < lines.length; j++) {
      const x0 = lines[i] + widths[i] / 2 + 2.5,
        x1 = lines[i + 1] - widths[i + 1] / 2 - 2.5,
        y0 = lines[j] + widths[j] / 2 + 2.5,
        y1 = lines[j + 1] - widths[j + 1] / 2 - 2.5;
      add('pavement', [x0, y0, x1, y0, x1, y1, x0, y1], 10); // urban land use
    }
  const at = () => -20 + random() * 540;
  const cover: SurfaceKind[] = ['grass', 'garden', 'manicuredGrass', 'shrubbery', 'forest', 'pitch', 'sand', 'water', 'construction'];
  while (areas.length < 1700) add(cover[Math.floor(random() * cover.length)], blob(random, at(), at(), 3 + random() * 15));
  while (areas.length < 1850) add('asphalt', box(at(), at(), 10 + random() * 30, 10 + random() * 30, 0), SURFACE_PRIORITY.roadwayArea); // parking
  while (areas.length < 2000) add('pavement', box(at(), at(), 20 + random() * 60, 1.5 + random() * 2, random() * Math.PI)); // footways
  const buildings: Footprint[] = [];
  for (let i = 0; i < 800; i++)
    buildings.push({ outer: box(at(), at(), 8 + random() * 20, 8 + random() * 20, random() < 0.7 ? 0 : random() * Math.PI), holes: [] });
  return { areas, buildings, clip: TILE };
}

/** A stress case: ~2,000 random long strips and blobs crossing each other everywhere (far denser than any real city). */
export function randomTile(seed = 7): BusyTile {
  const random = mulberry32(seed);
  const areas: SurfaceArea[] = [];
  const add = collector(areas);
  const at = () => -20 + random() * 540;
  for (let i = 0; i < 550; i++) {
    const cx = at(),
      cy = at(),
      len = 40 + random() * 260,
      w = 5 + random() * 12,
      a = random() < 0.6 ? Math.round(random() * 2) * (Math.PI / 2) : random() * Math.PI;
    add('asphalt', box(cx, cy, len, w, a));
    const off = w / 2 + 1.2;
    add('pavement', box(cx - off * Math.sin(a), cy + off * Math.cos(a), len, 2.5, a));
    add('pavement', box(cx + off * Math.sin(a), cy - off * Math.cos(a), len, 2.5, a));
  }
  for (let i = 0; i < 150; i++) add('roadwayIntersection', blob(random, at(), at(), 6 + random() * 8));
  const cover: SurfaceKind[] = ['grass', 'forest', 'garden', 'manicuredGrass', 'water', 'sand', 'pitch', 'farmland', 'shrubbery', 'construction'];
  for (let i = 0; i < 150; i++) add(cover[Math.floor(random() * cover.length)], blob(random, at(), at(), 10 + random() * 70));
  for (let i = 0; i < 50; i++) add('pavement', box(at(), at(), 40 + random() * 200, 40 + random() * 200, 0), 10); // urban land use
  const buildings: Footprint[] = [];
  for (let i = 0; i < 800; i++) buildings.push({ outer: box(at(), at(), 8 + random() * 25, 8 + random() * 25, random() * Math.PI), holes: [] });
  return { areas, buildings, clip: TILE };
}

/** Rolling terrain (50 ± 35 m) under the tile and 50 m around it, on a square grid of `spacing` metres. */
export function busyTerrain(spacing: number): GroundSampler {
  const cells = Math.round(600 / spacing),
    columns = cells + 1;
  const heights = new Float32Array(columns * columns);
  for (let r = 0; r < columns; r++)
    for (let c = 0; c < columns; c++) {
      const x = -50 + c * spacing,
        y = 550 - r * spacing;
      heights[r * columns + c] = 50 + 20 * Math.sin(x / 120) + 15 * Math.cos(y / 90);
    }
  return createGroundSampler({ bbox: { minX: -50, minY: 550 - cells * spacing, maxX: -50 + cells * spacing, maxY: 550 }, columns, rows: columns, heights });
}

/** The two busy tiles by name, as the bench prints them. */
export const BUSY_TILES: readonly (readonly [string, BusyTileMaker])[] = [
  ['street grid', streetTile],
  ['random strips (stress)', randomTile],
];
