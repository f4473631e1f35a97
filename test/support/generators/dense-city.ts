/**
 * A synthetic, Manhattan-like dense city extract for the benchmark (issue 7): a square of
 * `sideMetres` (default 3,160 m, ~10 km²) around `centre` (default 43.739 N 7.424 E, inside the
 * bundled SRTM tile N43E007 so terrain works), deterministic from `seed`.
 *
 * Layout, in a street grid turned 29° like Manhattan's: avenues 30 m wide every 250 m, streets 18 m
 * wide every 80 m, so blocks of 220 m × 62 m, each cut along its middle into two rows of lots
 * 9–22 m wide. Along every street and avenue runs a `highway=*` way (intersection nodes shared,
 * some tagged as traffic signals). A lot holds
 * - a plain building (`building=*` rectangle, some L-shaped), with levels/height/colour tags;
 * - or, over 2–4 merged lots, a tower: an outline plus a podium `building:part` on the same nodes
 *   and 1–3 stacked parts above it, each smaller than the one below, `min_height` = the height of
 *   the part below; some towers are also a `type=building` relation (roles outline/part).
 * Some blocks are parks (`leisure=park`), some hold courtyard buildings (multipolygon relations,
 * outer + inner), and a few pairs of blocks are merged into superblocks (the avenue between them
 * dropped) carrying a 300 m long building mapped as a `type=building` relation whose parts are
 * spread along it. About 40% of the parts carry `roof:shape` (flat, gabled, hipped, pyramidal,
 * dome, skillion). Only buildings wholly inside the square are kept.
 *
 * With the defaults: ~9,000 outlines, ~6,000 parts (39% with roof:shape), ~190 type=building
 * relations, ~54,000 nodes, a 390 kB file; generated and written in about half a
 * second. The same options always give the same entities and a byte-identical PBF.
 *
 * CLI: `node --import tsx scripts/bench/write-dense-city.ts out.osm.pbf [--seed N] [--side metres]`.
 */
import { writeFileSync } from 'node:fs';
import { createLocalFrame } from '../../../src/frame/local-frame.ts';
import { writeOsmPbf, type OsmPbfData } from './pbf-writer.ts';
import { CityBuilder, corners, type Pt, type Rect, type Tags } from './city-builder.ts';
import { courtyardBlock, fillRow, longBuilding, LONG_BUILDING, type Row } from './dense-city-buildings.ts';
import { mulberry32 } from './prng.ts';

export interface DenseCityOptions {
  seed: number;
  /** [latitude, longitude] of the square's centre. */
  centre: [number, number];
  /** Side of the square in metres. */
  sideMetres: number;
}

export const DENSE_CITY_DEFAULTS: DenseCityOptions = { seed: 1, centre: [43.739, 7.424], sideMetres: 3160 };

const AVENUE_PITCH = 250,
  AVENUE_WIDTH = 30;
const STREET_PITCH = 80,
  STREET_WIDTH = 18;

function ordinal(n: number): string {
  const t = n % 100;
  const s = t >= 11 && t <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}

/**
 * The dense city as OSM entities, ids in creation order from 1 (nodes, ways and relations each).
 * Pure: the result depends on the options alone.
 */
export function denseCityExtract(options: DenseCityOptions): OsmPbfData {
  const { seed, centre, sideMetres } = options;
  const c = new CityBuilder(createLocalFrame(centre[0], centre[1]), sideMetres, mulberry32(seed));
  const reach = (sideMetres / 2) * Math.SQRT2 + AVENUE_PITCH;
  const offU = c.range(0, AVENUE_PITCH),
    offV = c.range(0, STREET_PITCH);
  const iMin = Math.floor((-reach - offU) / AVENUE_PITCH),
    iMax = Math.ceil((reach - offU) / AVENUE_PITCH);
  const jMin = Math.floor((-reach - offV) / STREET_PITCH),
    jMax = Math.ceil((reach - offV) / STREET_PITCH);
  const avenueU = (i: number) => offU + i * AVENUE_PITCH,
    streetV = (j: number) => offV + j * STREET_PITCH;
  const block = (i: number, j: number, span = 1): Rect => ({
    u0: avenueU(i) + AVENUE_WIDTH / 2,
    u1: avenueU(i + span) - AVENUE_WIDTH / 2,
    v0: streetV(j) + STREET_WIDTH / 2,
    v1: streetV(j + 1) - STREET_WIDTH / 2,
  });

  // superblocks: about one per km², two blocks merged across an avenue; "i,j" of the western block
  const superblocks = new Set<string>();
  const candidates: [number, number][] = [];
  for (let i = iMin; i < iMax - 1; i++) for (let j = jMin; j < jMax; j++) if (c.inside(corners(block(i, j, 2)))) candidates.push([i, j]);
  const wanted = Math.max(1, Math.round((sideMetres * sideMetres) / 1e6));
  const taken = new Set<string>();
  for (let tries = 0; superblocks.size < wanted && candidates.length > 0 && tries < 1000; tries++) {
    const [i, j] = c.pick(candidates);
    if ([-1, 0, 1, 2].some((di) => taken.has(`${i + di},${j}`)) || taken.has(`${i},${j - 1}`) || taken.has(`${i},${j + 1}`)) continue;
    superblocks.add(`${i},${j}`);
    taken.add(`${i},${j}`).add(`${i + 1},${j}`);
  }

  // streets and avenues through the lattice of intersections inside the square
  const lattice = new Map<string, number>();
  const at = (i: number, j: number): number | undefined => {
    const key = `${i},${j}`;
    if (!lattice.has(key)) {
      const p: Pt = [avenueU(i), streetV(j)];
      lattice.set(key, c.inside([p]) ? c.node(p[0], p[1], c.chance(0.3) ? { highway: 'traffic_signals' } : undefined) : -1);
    }
    const id = lattice.get(key)!;
    return id > 0 ? id : undefined;
  };
  /** One way per run of consecutive intersections inside the square (undefined ends a run). */
  const emitRuns = (points: (number | undefined)[], tags: () => Tags, reverse: boolean) => {
    let run: number[] = [];
    for (const id of [...points, undefined]) {
      if (id !== undefined) run.push(id);
      else {
        if (run.length >= 2) c.way(reverse ? run.reverse() : run, tags());
        run = [];
      }
    }
  };
  for (let j = jMin; j <= jMax; j++) {
    const n = j - jMin + 1,
      cross = n % 5 === 0;
    const points = [];
    for (let i = iMin; i <= iMax; i++) points.push(at(i, j));
    emitRuns(
      points,
      () => ({
        highway: cross ? 'secondary' : 'residential',
        name: `${ordinal(n)} Street`,
        ...(cross ? { lanes: '4' } : { oneway: 'yes', lanes: '2' }),
        maxspeed: '40',
        surface: 'asphalt',
        sidewalk: 'both',
        lit: 'yes',
        'parking:lane:both': 'parallel',
      }),
      !cross && n % 2 === 1,
    );
  }
  for (let i = iMin; i <= iMax; i++) {
    const n = i - iMin + 1;
    const points = [];
    for (let j = jMin; j <= jMax; j++) {
      points.push(at(i, j));
      if (superblocks.has(`${i - 1},${j}`)) points.push(undefined); // no avenue through a superblock
    }
    emitRuns(
      points,
      () => ({
        highway: n % 3 === 0 ? 'secondary' : 'primary',
        name: `${ordinal(n)} Avenue`,
        oneway: 'yes',
        lanes: String(c.int(4, 5)),
        maxspeed: '40',
        surface: 'asphalt',
        sidewalk: 'both',
        lit: 'yes',
        cycleway: n % 2 ? 'lane' : 'no',
      }),
      n % 2 === 0,
    );
  }

  // blocks
  const names = { n: 0 };
  for (let i = iMin; i < iMax; i++) {
    for (let j = jMin; j < jMax; j++) {
      if (superblocks.has(`${i - 1},${j}`)) continue; // eastern half of a superblock
      const sup = superblocks.has(`${i},${j}`);
      const b = block(i, j, sup ? 2 : 1);
      if (!corners(b).some((p) => c.inside([p]))) continue; // outside the square (lots are checked one by one)
      const depth = (b.v1 - b.v0) / 2;
      const south: Row = { u0: b.u0, u1: b.u1, front: b.v0, dir: 1, depth };
      const north: Row = { u0: b.u0, u1: b.u1, front: b.v1, dir: -1, depth };
      if (sup) {
        const ua = b.u0 + c.range(0, b.u1 - b.u0 - LONG_BUILDING);
        longBuilding(c, north, ua);
        fillRow(c, { ...north, u1: ua }, names);
        fillRow(c, { ...north, u0: ua + LONG_BUILDING }, names);
        fillRow(c, south, names);
      } else if (c.chance(0.03)) {
        const park = { u0: b.u0 + 2, u1: b.u1 - 2, v0: b.v0 + 2, v1: b.v1 - 2 };
        if (c.inside(corners(park)))
          c.ring(corners(park), { leisure: 'park', name: `${c.pick(['Bryant', 'Madison', 'Union', 'Stuyvesant', 'Tompkins'])} Square` });
      } else if (c.chance(0.05)) courtyardBlock(c, b);
      else {
        fillRow(c, south, names);
        fillRow(c, north, names);
      }
    }
  }
  return { nodes: c.nodes, ways: c.ways, relations: c.relations };
}

/** Counts of what an extract holds, by what it is for the buildings pipeline. */
export function denseCitySummary(data: OsmPbfData) {
  const outlineWays = data.ways.filter((w) => w.tags.building).length;
  const partWays = data.ways.filter((w) => w.tags['building:part']);
  const multipolygons = data.relations.filter((r) => r.tags.type === 'multipolygon' && r.tags.building).length;
  return {
    nodes: data.nodes.length,
    ways: data.ways.length,
    relations: data.relations.length,
    outlines: outlineWays + multipolygons,
    courtyards: multipolygons,
    parts: partWays.length,
    partsWithRoofShape: partWays.filter((w) => w.tags['roof:shape']).length,
    buildingRelations: data.relations.filter((r) => r.tags.type === 'building').length,
    highways: data.ways.filter((w) => w.tags.highway).length,
  };
}

/** The PBF bytes of the dense city (blocks of 8,000 entities, like real extracts). */
export function denseCityPbf(options: DenseCityOptions = DENSE_CITY_DEFAULTS): Buffer {
  return writeOsmPbf(denseCityExtract(options), { blockSize: 8000, writingProgram: 'city-context dense-city' });
}

/** Writes the dense city to `path`; returns the counts of what it holds. */
export function writeDenseCity(path: string, options: DenseCityOptions = DENSE_CITY_DEFAULTS): ReturnType<typeof denseCitySummary> & { bytes: number } {
  const data = denseCityExtract(options);
  const bytes = writeOsmPbf(data, { blockSize: 8000, writingProgram: 'city-context dense-city' });
  writeFileSync(path, bytes);
  return { ...denseCitySummary(data), bytes: bytes.length };
}
