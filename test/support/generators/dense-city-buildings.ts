/**
 * The buildings of the synthetic dense city (test/support/generators/dense-city.ts): plain buildings (some L),
 * towers over merged lots (outline, podium part, stacked parts, some as type=building
 * relations), courtyard multipolygons and 300 m long buildings as relations, with the tags a
 * real extract carries (levels, heights, colours, materials, ~40% roof:shape).
 */
import type { RelationInput } from './pbf-writer.ts';
import { corners, fmt, type CityBuilder, type Pt, type Rect, type Tags } from './city-builder.ts';

const LOT_MIN = 9,
  LOT_MAX = 22;
/** Gap left on each side between neighbouring buildings, metres. */
const SIDE_GAP = 0.15;
export const LONG_BUILDING = 300;

const BUILDING_KINDS: [string, number][] = [
  ['apartments', 35],
  ['residential', 15],
  ['commercial', 20],
  ['retail', 10],
  ['office', 10],
  ['yes', 10],
];
const TOWER_KINDS: [string, number][] = [
  ['office', 45],
  ['commercial', 20],
  ['apartments', 25],
  ['hotel', 10],
];
const COLOURS = ['brown', '#8b4513', 'beige', 'grey', '#c0c0c0', 'white', '#a0522d', '#d2b48c'];
const MATERIALS = ['brick', 'concrete', 'glass', 'stone', 'metal'];
const TOP_ROOFS: [string, number][] = [
  ['flat', 20],
  ['hipped', 20],
  ['pyramidal', 20],
  ['gabled', 15],
  ['dome', 10],
  ['skillion', 15],
];

/** Row of lots: grid range [u0, u1], street front at v = front, depth going in direction `dir` (±1). */
export interface Row {
  u0: number;
  u1: number;
  front: number;
  dir: 1 | -1;
  depth: number;
}

/** The rectangle [ua, ub] × [d0, d1] of a row (d measured from the street front). */
export function rowRect(row: Row, ua: number, ub: number, d0: number, d1: number): Rect {
  const va = row.front + row.dir * d0,
    vb = row.front + row.dir * d1;
  return { u0: ua, u1: ub, v0: Math.min(va, vb), v1: Math.max(va, vb) };
}

export function shrink(r: Rect, fu: number, fv: number, c: CityBuilder): Rect {
  const w = (r.u1 - r.u0) * fu,
    d = (r.v1 - r.v0) * fv;
  const u0 = r.u0 + c.range(0, r.u1 - r.u0 - w),
    v0 = r.v0 + c.range(0, r.v1 - r.v0 - d);
  return { u0, v0, u1: u0 + w, v1: v0 + d };
}

/** A roof for the top of a stack: shape tags, the roof height in metres and the footprint to use. */
export function topRoof(c: CityBuilder, r: Rect): { tags: Tags; roofHeight: number; rect: Rect } {
  const shape = c.weighted(TOP_ROOFS);
  const w = r.u1 - r.u0,
    d = r.v1 - r.v0;
  if (shape === 'flat') return { tags: { 'roof:shape': 'flat' }, roofHeight: 0, rect: r };
  if (shape === 'dome' || shape === 'pyramidal') {
    const s = Math.min(w, d),
      square = { u0: r.u0 + (w - s) / 2, v0: r.v0 + (d - s) / 2, u1: r.u0 + (w + s) / 2, v1: r.v0 + (d + s) / 2 };
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
export function plainBuilding(c: CityBuilder, row: Row, ua: number, ub: number): void {
  const depth = row.depth * c.range(0.6, 1) - SIDE_GAP;
  const width = ub - ua;
  let points: Pt[];
  const r = rowRect(row, ua + SIDE_GAP, ub - SIDE_GAP, SIDE_GAP, depth);
  if (width >= 14 && depth >= 16 && c.chance(0.15)) {
    // L: the rear corner on one side is left open (a light well / yard)
    const nw = (width - 2 * SIDE_GAP) * c.range(0.3, 0.6),
      nd = depth * c.range(0.3, 0.6);
    const left = c.chance(0.5);
    const pts: [number, number][] = left // (u, d) in row terms, anticlockwise for dir = +1
      ? [
          [ua + SIDE_GAP, SIDE_GAP],
          [ub - SIDE_GAP, SIDE_GAP],
          [ub - SIDE_GAP, depth],
          [ua + SIDE_GAP + nw, depth],
          [ua + SIDE_GAP + nw, depth - nd],
          [ua + SIDE_GAP, depth - nd],
        ]
      : [
          [ua + SIDE_GAP, SIDE_GAP],
          [ub - SIDE_GAP, SIDE_GAP],
          [ub - SIDE_GAP, depth - nd],
          [ub - SIDE_GAP - nw, depth - nd],
          [ub - SIDE_GAP - nw, depth],
          [ua + SIDE_GAP, depth],
        ];
    points = pts.map(([u, d]) => [u, row.front + row.dir * d]);
  } else points = corners(r);
  if (!c.inside(points)) return;
  const levels = c.weighted([
    [c.int(2, 5), 35],
    [c.int(5, 8), 40],
    [c.int(8, 16), 25],
  ]);
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
export function tower(c: CityBuilder, row: Row, ua: number, ub: number, names: { n: number }): void {
  const outline = rowRect(row, ua + SIDE_GAP, ub - SIDE_GAP, SIDE_GAP, row.depth - SIDE_GAP);
  if (!c.inside(corners(outline))) return;
  const podiumLevels = c.int(3, 8),
    podiumHeight = podiumLevels * 4;
  const stack: { rect: Rect; tags: Tags }[] = [];
  let below = outline,
    minHeight = podiumHeight,
    minLevel = podiumLevels;
  const storeys = c.int(1, 3);
  for (let k = 0; k < storeys; k++) {
    const rect = k === 0 ? shrink(below, c.range(0.5, 0.85), c.range(0.6, 0.9), c) : shrink(below, c.range(0.6, 0.85), c.range(0.6, 0.85), c);
    if (rect.u1 - rect.u0 < 8 || rect.v1 - rect.v0 < 8) break;
    const levels = k === 0 ? c.int(10, 45) : k === 1 ? c.int(5, 25) : c.int(3, 15);
    stack.push({
      rect,
      tags: { 'building:part': c.pick(['yes', 'office', 'apartments']), 'building:levels': String(levels), 'building:min_level': String(minLevel) },
    });
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
  if (c.chance(0.3))
    outlineTags.name = `${names.n++ % 2 ? 'One' : 'Two'} ${c.pick(['Park', 'Hudson', 'Liberty', 'Madison', 'Lexington', 'Union', 'Vanderbilt'])} ${c.pick(['Tower', 'Plaza', 'Center', 'Building'])}`;
  if (c.chance(0.3)) outlineTags['building:material'] = c.pick(['glass', 'concrete', 'steel']);
  const o = c.ring(corners(outline), outlineTags);
  const podiumTags: Tags = { 'building:part': 'retail', 'building:levels': String(podiumLevels), height: fmt(podiumHeight) };
  if (c.chance(0.3)) podiumTags['roof:shape'] = 'flat';
  if (c.chance(0.3)) podiumTags['building:colour'] = c.pick(COLOURS);
  const parts = [c.way([...o.refs, o.refs[0]], podiumTags)];
  for (const s of stack) parts.push(c.ring(corners(s.rect), s.tags).way);
  if (c.chance(0.08)) {
    c.relation({ type: 'building', ...(outlineTags.name ? { name: outlineTags.name } : {}) }, [
      { type: 'way', ref: o.way, role: 'outline' },
      ...parts.map((ref) => ({ type: 'way' as const, ref, role: 'part' })),
    ]);
  }
}

/** Fills a row with lots: plain buildings, and towers over 2–4 merged lots. */
export function fillRow(c: CityBuilder, row: Row, names: { n: number }): void {
  const lots: [number, number][] = [];
  for (let u = row.u0; row.u1 - u >= LOT_MIN; ) {
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
export function courtyardBlock(c: CityBuilder, b: Rect): void {
  const n = c.int(2, 4),
    step = (b.u1 - b.u0) / n;
  for (let k = 0; k < n; k++) {
    const outer: Rect = { u0: b.u0 + k * step + SIDE_GAP, u1: b.u0 + (k + 1) * step - SIDE_GAP, v0: b.v0 + SIDE_GAP, v1: b.v1 - SIDE_GAP };
    if (!c.inside(corners(outer))) continue;
    const t = c.range(9, 14);
    const inner: Rect = { u0: outer.u0 + t, u1: outer.u1 - t, v0: outer.v0 + t, v1: outer.v1 - t };
    const levels = c.int(5, 12);
    const tags: Tags = { type: 'multipolygon', building: c.pick(['apartments', 'apartments', 'office', 'yes']), 'building:levels': String(levels) };
    if (c.chance(0.5)) tags.height = fmt(levels * 3.3);
    if (c.chance(0.3)) tags['building:colour'] = c.pick(COLOURS);
    const outerWay = c.ring(corners(outer), {}).way,
      innerWay = c.ring(corners(inner), {}).way;
    c.relation(tags, [
      { type: 'way', ref: outerWay, role: 'outer' },
      { type: 'way', ref: innerWay, role: 'inner' },
    ]);
  }
}

/** A 300 m building along a superblock row as a type=building relation, parts spread along it. */
export function longBuilding(c: CityBuilder, row: Row, ua: number): void {
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
    const levels = c.int(2, 8),
      height = levels * 4;
    const tags: Tags = { 'building:part': 'yes', 'building:levels': String(levels), height: fmt(height) };
    if (k !== tall && c.chance(0.4))
      Object.assign(tags, c.chance(0.5) ? { 'roof:shape': 'gabled', 'roof:height': fmt(c.range(3, 6)) } : { 'roof:shape': 'flat' });
    members.push({ type: 'way', ref: c.ring(corners(rect), tags).way, role: 'part' });
    if (k === tall) {
      // a tower standing on one of the segments
      const top = shrink(rect, 0.4, 0.6, c),
        roof = topRoof(c, top),
        levelsUp = c.int(6, 12);
      const tt: Tags = {
        'building:part': 'yes',
        min_height: fmt(height),
        height: fmt(height + levelsUp * 3.5 + roof.roofHeight),
        'building:min_level': String(levels),
        'building:levels': String(levelsUp),
        ...roof.tags,
      };
      members.push({ type: 'way', ref: c.ring(corners(roof.rect), tt).way, role: 'part' });
    }
  }
  c.relation({ type: 'building', name }, members);
}
