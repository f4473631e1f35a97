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
 * CLI: `node --import tsx scripts/dense-city.ts out.osm.pbf [--seed N] [--side metres]`.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createLocalFrame, type LocalFrame } from '../src/frame/local-frame.ts';
import { writeOsmPbf, type NodeInput, type OsmPbfData, type RelationInput, type WayInput } from '../src/sources/osm/pbf-writer.ts';

export interface DenseCityOptions {
  seed: number;
  /** [latitude, longitude] of the square's centre. */
  centre: [number, number];
  /** Side of the square in metres. */
  sideMetres: number;
}

export const DENSE_CITY_DEFAULTS: DenseCityOptions = { seed: 1, centre: [43.739, 7.424], sideMetres: 3160 };

/** mulberry32: a small, fast, well-mixed 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GRID_ANGLE = (29 * Math.PI) / 180;
const AVENUE_PITCH = 250, AVENUE_WIDTH = 30;
const STREET_PITCH = 80, STREET_WIDTH = 18;
const LOT_MIN = 9, LOT_MAX = 22;
/** Gap left on each side between neighbouring buildings, metres. */
const SIDE_GAP = 0.15;
const LONG_BUILDING = 300;

type Tags = Record<string, string>;
/** Axis-aligned rectangle in grid coordinates (u along the streets, v along the avenues). */
interface Rect { u0: number; v0: number; u1: number; v1: number }
type Pt = [number, number];

const fmt = (x: number) => String(Math.round(x * 10) / 10);
const corners = (r: Rect): Pt[] => [[r.u0, r.v0], [r.u1, r.v0], [r.u1, r.v1], [r.u0, r.v1]];

function ordinal(n: number): string {
  const t = n % 100;
  const s = t >= 11 && t <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${s}`;
}

class CityBuilder {
  readonly nodes: NodeInput[] = [];
  readonly ways: WayInput[] = [];
  readonly relations: RelationInput[] = [];
  private readonly cos = Math.cos(GRID_ANGLE);
  private readonly sin = Math.sin(GRID_ANGLE);
  private readonly half: number;

  constructor(private readonly frame: LocalFrame, side: number, readonly rnd: () => number) {
    this.half = side / 2;
  }

  range(a: number, b: number): number { return a + (b - a) * this.rnd(); }
  int(a: number, b: number): number { return a + Math.floor((b - a + 1) * this.rnd()); }
  chance(p: number): boolean { return this.rnd() < p; }
  pick<T>(items: readonly T[]): T { return items[Math.floor(this.rnd() * items.length)]; }
  weighted<T>(items: readonly [T, number][]): T {
    let r = this.rnd() * items.reduce((a, [, w]) => a + w, 0);
    for (const [item, w] of items) if ((r -= w) < 0) return item;
    return items[items.length - 1][0];
  }

  /** Local metres (x east, y north) of a grid point. */
  xy(u: number, v: number): Pt {
    return [u * this.cos - v * this.sin, u * this.sin + v * this.cos];
  }

  inside(points: readonly Pt[]): boolean {
    return points.every(([u, v]) => {
      const [x, y] = this.xy(u, v);
      return Math.abs(x) <= this.half && Math.abs(y) <= this.half;
    });
  }

  node(u: number, v: number, tags?: Tags): number {
    const [x, y] = this.xy(u, v);
    const [lon, lat] = this.frame.toLonLat(x, y);
    const id = this.nodes.length + 1;
    this.nodes.push(tags ? { id, lon, lat, tags } : { id, lon, lat });
    return id;
  }

  way(refs: number[], tags: Tags): number {
    const id = this.ways.length + 1;
    this.ways.push({ id, tags, refs });
    return id;
  }

  /** A closed way over new nodes at `points`; returns the way id and its node ids (open). */
  ring(points: readonly Pt[], tags: Tags): { way: number; refs: number[] } {
    const refs = points.map(([u, v]) => this.node(u, v));
    return { way: this.way([...refs, refs[0]], tags), refs };
  }

  relation(tags: Tags, members: RelationInput['members']): number {
    const id = this.relations.length + 1;
    this.relations.push({ id, tags, members });
    return id;
  }
}

const BUILDING_KINDS: [string, number][] = [['apartments', 35], ['residential', 15], ['commercial', 20], ['retail', 10], ['office', 10], ['yes', 10]];
const TOWER_KINDS: [string, number][] = [['office', 45], ['commercial', 20], ['apartments', 25], ['hotel', 10]];
const COLOURS = ['brown', '#8b4513', 'beige', 'grey', '#c0c0c0', 'white', '#a0522d', '#d2b48c'];
const MATERIALS = ['brick', 'concrete', 'glass', 'stone', 'metal'];
const TOP_ROOFS: [string, number][] = [['flat', 20], ['hipped', 20], ['pyramidal', 20], ['gabled', 15], ['dome', 10], ['skillion', 15]];

/** Row of lots: grid range [u0, u1], street front at v = front, depth going in direction `dir` (±1). */
interface Row { u0: number; u1: number; front: number; dir: 1 | -1; depth: number }

/** The rectangle [ua, ub] × [d0, d1] of a row (d measured from the street front). */
function rowRect(row: Row, ua: number, ub: number, d0: number, d1: number): Rect {
  const va = row.front + row.dir * d0, vb = row.front + row.dir * d1;
  return { u0: ua, u1: ub, v0: Math.min(va, vb), v1: Math.max(va, vb) };
}

function shrink(r: Rect, fu: number, fv: number, c: CityBuilder): Rect {
  const w = (r.u1 - r.u0) * fu, d = (r.v1 - r.v0) * fv;
  const u0 = r.u0 + c.range(0, r.u1 - r.u0 - w), v0 = r.v0 + c.range(0, r.v1 - r.v0 - d);
  return { u0, v0, u1: u0 + w, v1: v0 + d };
}

/** A roof for the top of a stack: shape tags, the roof height in metres and the footprint to use. */
function topRoof(c: CityBuilder, r: Rect): { tags: Tags; roofHeight: number; rect: Rect } {
  const shape = c.weighted(TOP_ROOFS);
  const w = r.u1 - r.u0, d = r.v1 - r.v0;
  if (shape === 'flat') return { tags: { 'roof:shape': 'flat' }, roofHeight: 0, rect: r };
  if (shape === 'dome' || shape === 'pyramidal') {
    const s = Math.min(w, d), square = { u0: r.u0 + (w - s) / 2, v0: r.v0 + (d - s) / 2, u1: r.u0 + (w + s) / 2, v1: r.v0 + (d + s) / 2 };
    const h = shape === 'dome' ? s / 2 : s * c.range(0.3, 0.8);
    return { tags: { 'roof:shape': shape, 'roof:height': fmt(h) }, roofHeight: h, rect: square };
  }
  const h = shape === 'skillion' ? c.range(2, 4) : c.range(3, 6);
  const tags: Tags = { 'roof:shape': shape, 'roof:height': fmt(h) };
  if (shape === 'skillion' && c.chance(0.5)) tags['roof:direction'] = String(c.int(0, 359));
  if (c.chance(0.3)) tags['roof:colour'] = c.pick(['grey', 'black', '#708090', 'green']);
  return { tags, roofHeight: h, rect: r };
}

/** A plain building on one lot: a rectangle or an L, with the usual tags. */
function plainBuilding(c: CityBuilder, row: Row, ua: number, ub: number): void {
  const depth = row.depth * c.range(0.6, 1) - SIDE_GAP;
  const width = ub - ua;
  let points: Pt[];
  const r = rowRect(row, ua + SIDE_GAP, ub - SIDE_GAP, SIDE_GAP, depth);
  if (width >= 14 && depth >= 16 && c.chance(0.15)) {
    // L: the rear corner on one side is left open (a light well / yard)
    const nw = (width - 2 * SIDE_GAP) * c.range(0.3, 0.6), nd = depth * c.range(0.3, 0.6);
    const left = c.chance(0.5);
    const pts: [number, number][] = left // (u, d) in row terms, anticlockwise for dir = +1
      ? [[ua + SIDE_GAP, SIDE_GAP], [ub - SIDE_GAP, SIDE_GAP], [ub - SIDE_GAP, depth], [ua + SIDE_GAP + nw, depth], [ua + SIDE_GAP + nw, depth - nd], [ua + SIDE_GAP, depth - nd]]
      : [[ua + SIDE_GAP, SIDE_GAP], [ub - SIDE_GAP, SIDE_GAP], [ub - SIDE_GAP, depth - nd], [ub - SIDE_GAP - nw, depth - nd], [ub - SIDE_GAP - nw, depth], [ua + SIDE_GAP, depth]];
    points = pts.map(([u, d]) => [u, row.front + row.dir * d]);
  } else points = corners(r);
  if (!c.inside(points)) return;
  const levels = c.weighted([[c.int(2, 5), 35], [c.int(5, 8), 40], [c.int(8, 16), 25]]);
  const tags: Tags = { building: c.weighted(BUILDING_KINDS) };
  const height = levels * c.range(3, 3.5) + (c.chance(0.5) ? 0 : c.range(0.5, 2));
  if (c.chance(0.85)) tags['building:levels'] = String(levels);
  if (c.chance(0.45)) tags.height = c.chance(0.1) ? `${fmt(height)} m` : fmt(height);
  if (levels <= 5 && c.chance(0.25)) {
    tags['roof:shape'] = c.pick(['gabled', 'hipped', 'flat']);
    if (tags['roof:shape'] !== 'flat' && c.chance(0.5)) tags['roof:levels'] = '1';
  } else if (c.chance(0.1)) tags['roof:shape'] = 'flat';
  if (c.chance(0.2)) tags['building:colour'] = c.pick(COLOURS);
  if (c.chance(0.15)) tags['building:material'] = c.pick(MATERIALS);
  if (c.chance(0.05)) tags['addr:housenumber'] = String(c.int(1, 999));
  c.ring(points, tags);
}

/** A tower over [ua, ub] of a row: outline, podium part on the outline's nodes, 1–3 stacked parts. */
function tower(c: CityBuilder, row: Row, ua: number, ub: number, names: { n: number }): void {
  const outline = rowRect(row, ua + SIDE_GAP, ub - SIDE_GAP, SIDE_GAP, row.depth - SIDE_GAP);
  if (!c.inside(corners(outline))) return;
  const podiumLevels = c.int(3, 8), podiumHeight = podiumLevels * 4;
  const stack: { rect: Rect; tags: Tags }[] = [];
  let below = outline, minHeight = podiumHeight, minLevel = podiumLevels;
  const storeys = c.int(1, 3);
  for (let k = 0; k < storeys; k++) {
    const rect = k === 0 ? shrink(below, c.range(0.5, 0.85), c.range(0.6, 0.9), c) : shrink(below, c.range(0.6, 0.85), c.range(0.6, 0.85), c);
    if (rect.u1 - rect.u0 < 8 || rect.v1 - rect.v0 < 8) break;
    const levels = k === 0 ? c.int(10, 45) : k === 1 ? c.int(5, 25) : c.int(3, 15);
    stack.push({ rect, tags: { 'building:part': c.pick(['yes', 'office', 'apartments']), 'building:levels': String(levels), 'building:min_level': String(minLevel) } });
    minLevel += levels;
    const top = minHeight + levels * 3.4;
    stack[k].tags.min_height = fmt(minHeight);
    stack[k].tags.height = fmt(top);
    minHeight = Number(fmt(top));
    below = rect;
  }
  // the top of the stack may get a real roof; lower parts keep theirs flat (sometimes said so)
  const last = stack[stack.length - 1];
  if (last && c.chance(0.55)) {
    const roof = topRoof(c, last.rect);
    last.rect = roof.rect;
    Object.assign(last.tags, roof.tags);
    last.tags.height = fmt(Number(last.tags.height) + roof.roofHeight);
  }
  for (const s of stack.slice(0, -1)) if (c.chance(0.3)) s.tags['roof:shape'] = 'flat';
  const topHeight = last ? Number(last.tags.height) : podiumHeight;
  const kind = c.weighted(TOWER_KINDS);
  const outlineTags: Tags = { building: kind, height: fmt(topHeight), 'building:levels': String(minLevel) };
  if (c.chance(0.3)) outlineTags.name = `${names.n++ % 2 ? 'One' : 'Two'} ${c.pick(['Park', 'Hudson', 'Liberty', 'Madison', 'Lexington', 'Union', 'Vanderbilt'])} ${c.pick(['Tower', 'Plaza', 'Center', 'Building'])}`;
  if (c.chance(0.3)) outlineTags['building:material'] = c.pick(['glass', 'concrete', 'steel']);
  const o = c.ring(corners(outline), outlineTags);
  const podiumTags: Tags = { 'building:part': 'retail', 'building:levels': String(podiumLevels), height: fmt(podiumHeight) };
  if (c.chance(0.3)) podiumTags['roof:shape'] = 'flat';
  if (c.chance(0.3)) podiumTags['building:colour'] = c.pick(COLOURS);
  const parts = [c.way([...o.refs, o.refs[0]], podiumTags)];
  for (const s of stack) parts.push(c.ring(corners(s.rect), s.tags).way);
  if (c.chance(0.08)) {
    c.relation({ type: 'building', ...(outlineTags.name ? { name: outlineTags.name } : {}) }, [
      { type: 'way', ref: o.way, role: 'outline' }, ...parts.map((ref) => ({ type: 'way' as const, ref, role: 'part' })),
    ]);
  }
}

/** Fills a row with lots: plain buildings, and towers over 2–4 merged lots. */
function fillRow(c: CityBuilder, row: Row, names: { n: number }): void {
  const lots: [number, number][] = [];
  for (let u = row.u0; row.u1 - u >= LOT_MIN;) {
    let w = c.range(LOT_MIN, LOT_MAX);
    if (row.u1 - (u + w) < LOT_MIN) w = row.u1 - u;
    lots.push([u, u + w]);
    u += w;
  }
  for (let i = 0; i < lots.length; i++) {
    if (c.chance(0.25) && i + 1 < lots.length) {
      let j = Math.min(lots.length - 1, i + c.int(1, 3));
      while (j > i + 1 && lots[j][1] - lots[i][0] > 75) j--;
      tower(c, row, lots[i][0], lots[j][1], names);
      i = j;
    } else plainBuilding(c, row, lots[i][0], lots[i][1]);
  }
}

/** Courtyard buildings over the whole depth of a block: multipolygons (outer + inner). */
function courtyardBlock(c: CityBuilder, b: Rect): void {
  const n = c.int(2, 4), step = (b.u1 - b.u0) / n;
  for (let k = 0; k < n; k++) {
    const outer: Rect = { u0: b.u0 + k * step + SIDE_GAP, u1: b.u0 + (k + 1) * step - SIDE_GAP, v0: b.v0 + SIDE_GAP, v1: b.v1 - SIDE_GAP };
    if (!c.inside(corners(outer))) continue;
    const t = c.range(9, 14);
    const inner: Rect = { u0: outer.u0 + t, u1: outer.u1 - t, v0: outer.v0 + t, v1: outer.v1 - t };
    const levels = c.int(5, 12);
    const tags: Tags = { type: 'multipolygon', building: c.pick(['apartments', 'apartments', 'office', 'yes']), 'building:levels': String(levels) };
    if (c.chance(0.5)) tags.height = fmt(levels * 3.3);
    if (c.chance(0.3)) tags['building:colour'] = c.pick(COLOURS);
    const outerWay = c.ring(corners(outer), {}).way, innerWay = c.ring(corners(inner), {}).way;
    c.relation(tags, [{ type: 'way', ref: outerWay, role: 'outer' }, { type: 'way', ref: innerWay, role: 'inner' }]);
  }
}

/** A 300 m building along a superblock row as a type=building relation, parts spread along it. */
function longBuilding(c: CityBuilder, row: Row, ua: number): void {
  const ub = ua + LONG_BUILDING;
  const outline = rowRect(row, ua, ub, SIDE_GAP, row.depth - SIDE_GAP);
  const name = `${c.pick(['Central', 'Union', 'Pier', 'Harbour'])} ${c.pick(['Terminal', 'Exchange', 'Market Hall', 'Arcade'])}`;
  const o = c.ring(corners(outline), { building: c.pick(['commercial', 'train_station', 'office']), name, 'building:levels': '4' });
  const cuts = [ua];
  while (ub - cuts[cuts.length - 1] > 60) cuts.push(cuts[cuts.length - 1] + c.range(30, 60));
  cuts.push(ub);
  const members: RelationInput['members'] = [{ type: 'way', ref: o.way, role: 'outline' }];
  const tall = c.int(0, cuts.length - 2);
  for (let k = 0; k + 1 < cuts.length; k++) {
    const rect = rowRect(row, cuts[k], cuts[k + 1], SIDE_GAP, row.depth - SIDE_GAP);
    const levels = c.int(2, 8), height = levels * 4;
    const tags: Tags = { 'building:part': 'yes', 'building:levels': String(levels), height: fmt(height) };
    if (k !== tall && c.chance(0.4)) Object.assign(tags, c.chance(0.5) ? { 'roof:shape': 'gabled', 'roof:height': fmt(c.range(3, 6)) } : { 'roof:shape': 'flat' });
    members.push({ type: 'way', ref: c.ring(corners(rect), tags).way, role: 'part' });
    if (k === tall) {
      // a tower standing on one of the segments
      const top = shrink(rect, 0.4, 0.6, c), roof = topRoof(c, top), levelsUp = c.int(6, 12);
      const tt: Tags = { 'building:part': 'yes', min_height: fmt(height), height: fmt(height + levelsUp * 3.5 + roof.roofHeight), 'building:min_level': String(levels), 'building:levels': String(levelsUp), ...roof.tags };
      members.push({ type: 'way', ref: c.ring(corners(roof.rect), tt).way, role: 'part' });
    }
  }
  c.relation({ type: 'building', name }, members);
}

/**
 * The dense city as OSM entities, ids in creation order from 1 (nodes, ways and relations each).
 * Pure: the result depends on the options alone.
 */
export function denseCityExtract(options: DenseCityOptions): OsmPbfData {
  const { seed, centre, sideMetres } = options;
  const c = new CityBuilder(createLocalFrame(centre[0], centre[1]), sideMetres, mulberry32(seed));
  const reach = (sideMetres / 2) * Math.SQRT2 + AVENUE_PITCH;
  const offU = c.range(0, AVENUE_PITCH), offV = c.range(0, STREET_PITCH);
  const iMin = Math.floor((-reach - offU) / AVENUE_PITCH), iMax = Math.ceil((reach - offU) / AVENUE_PITCH);
  const jMin = Math.floor((-reach - offV) / STREET_PITCH), jMax = Math.ceil((reach - offV) / STREET_PITCH);
  const avenueU = (i: number) => offU + i * AVENUE_PITCH, streetV = (j: number) => offV + j * STREET_PITCH;
  const block = (i: number, j: number, span = 1): Rect => ({
    u0: avenueU(i) + AVENUE_WIDTH / 2, u1: avenueU(i + span) - AVENUE_WIDTH / 2, v0: streetV(j) + STREET_WIDTH / 2, v1: streetV(j + 1) - STREET_WIDTH / 2,
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
    const n = j - jMin + 1, cross = n % 5 === 0;
    const points = [];
    for (let i = iMin; i <= iMax; i++) points.push(at(i, j));
    emitRuns(points, () => ({
      highway: cross ? 'secondary' : 'residential', name: `${ordinal(n)} Street`, ...(cross ? { lanes: '4' } : { oneway: 'yes', lanes: '2' }),
      maxspeed: '40', surface: 'asphalt', sidewalk: 'both', lit: 'yes', 'parking:lane:both': 'parallel',
    }), !cross && n % 2 === 1);
  }
  for (let i = iMin; i <= iMax; i++) {
    const n = i - iMin + 1;
    const points = [];
    for (let j = jMin; j <= jMax; j++) {
      points.push(at(i, j));
      if (superblocks.has(`${i - 1},${j}`)) points.push(undefined); // no avenue through a superblock
    }
    emitRuns(points, () => ({
      highway: n % 3 === 0 ? 'secondary' : 'primary', name: `${ordinal(n)} Avenue`, oneway: 'yes', lanes: String(c.int(4, 5)),
      maxspeed: '40', surface: 'asphalt', sidewalk: 'both', lit: 'yes', cycleway: n % 2 ? 'lane' : 'no',
    }), n % 2 === 0);
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
        if (c.inside(corners(park))) c.ring(corners(park), { leisure: 'park', name: `${c.pick(['Bryant', 'Madison', 'Union', 'Stuyvesant', 'Tompkins'])} Square` });
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const k = args.indexOf(name);
    if (k < 0) return undefined;
    const [, value] = args.splice(k, 2);
    if (value === undefined || !Number.isFinite(Number(value))) throw new Error(`${name} needs a number`);
    return Number(value);
  };
  const seed = flag('--seed') ?? DENSE_CITY_DEFAULTS.seed, side = flag('--side') ?? DENSE_CITY_DEFAULTS.sideMetres;
  if (args.length !== 1) {
    console.error('usage: node --import tsx scripts/dense-city.ts <out.osm.pbf> [--seed N] [--side metres]');
    process.exit(2);
  }
  const t0 = performance.now();
  const summary = writeDenseCity(args[0], { ...DENSE_CITY_DEFAULTS, seed, sideMetres: side });
  console.log(`${args[0]}: ${JSON.stringify(summary)} in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
}
