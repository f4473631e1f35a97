/**
 * What fills a block of the synthetic downtown (test/support/generators/downtown.ts) besides its
 * buildings (dense-city-buildings.ts): an alley along its middle (`service=alley`), back yards cut
 * into lots of grass, gardens, playgrounds, pools and parking (`amenity=parking`, reached by a
 * driveway through a gap in the row, a `parking_aisle` inside) with fences, walls and hedges
 * between them; through-block passages (`highway=pedestrian`); plazas (`highway=pedestrian
 * area=yes` with a fountain, planters, bollards, steps and footways); parks (`leisure=park`, a
 * fence, paths, lawns, a pond, a playground, steps at the gates); whole-block parking lots; and on
 * the sidewalks, steps up to doors and down to the subway.
 */
import { corners, type Pt, type Rect, type Tags } from './city-builder.ts';
import { fillRow, type Row } from './dense-city-buildings.ts';
import { AVENUE_ROW, STREET_ROW, type DowntownStreets, type Face } from './downtown-streets.ts';

export type BlockKind = 'alley' | 'yards' | 'plain' | 'plaza' | 'park' | 'parking';
const KINDS: [BlockKind, number][] = [
  ['alley', 22],
  ['yards', 30],
  ['plain', 26],
  ['plaza', 7],
  ['park', 7],
  ['parking', 4],
];

interface Sides {
  south: Face;
  north: Face;
  west: Face;
  east: Face;
}

/** Fills the block between avenues i, i + 1 and streets j, j + 1. */
export function downtownBlock(s: DowntownStreets, i: number, j: number, names: { n: number }): void {
  const c = s.c;
  const b: Rect = { u0: s.u(i) + AVENUE_ROW / 2, u1: s.u(i + 1) - AVENUE_ROW / 2, v0: s.v(j) + STREET_ROW / 2, v1: s.v(j + 1) - STREET_ROW / 2 };
  const south: Row = { u0: b.u0, u1: b.u1, front: b.v0, dir: 1, depth: (b.v1 - b.v0) / 2 };
  const north: Row = { u0: b.u0, u1: b.u1, front: b.v1, dir: -1, depth: (b.v1 - b.v0) / 2 };
  const whole = [
    s.avenues.get(i)!.junctions.has(j),
    s.avenues.get(i)!.junctions.has(j + 1),
    s.avenues.get(i + 1)!.junctions.has(j),
    s.avenues.get(i + 1)!.junctions.has(j + 1),
  ];
  if (!c.inside(corners(b)) || whole.includes(false)) {
    fillRow(c, south, names);
    fillRow(c, north, names);
    return;
  }
  const sides: Sides = {
    south: s.face(s.streets.get(j)!, 1, i),
    north: s.face(s.streets.get(j + 1)!, -1, i),
    west: s.face(s.avenues.get(i)!, 1, j),
    east: s.face(s.avenues.get(i + 1)!, -1, j),
  };
  subwayAndDoors(s, sides);
  const kind = c.weighted(KINDS);
  if (kind === 'alley') alleyBlock(s, i, j, b, south, north, names);
  else if (kind === 'yards') yardBlock(s, j, b, south, north, sides, names);
  else if (kind === 'plain') {
    if (c.chance(0.5)) {
      // a through-block passage: a gap in both rows, a pedestrian way from street to street
      const up = c.range(b.u0 + 40, b.u1 - 40);
      for (const row of [south, north]) gapRow(s, row, up, 4, names);
      const a = s.faceNode(sides.south, up, c.chance(0.5)),
        z = s.faceNode(sides.north, up, c.chance(0.5));
      const mid = c.node(up, (b.v0 + b.v1) / 2);
      const tags = { highway: 'pedestrian', covered: c.chance(0.3) ? 'yes' : 'no', surface: 'paving_stones' };
      c.way([...(a ? [a] : []), c.node(up, b.v0), mid], tags);
      c.way([mid, c.node(up, b.v1), ...(z ? [z] : [])], tags);
    } else {
      fillRow(c, south, names);
      fillRow(c, north, names);
    }
  } else if (kind === 'plaza') plazaBlock(s, b, north, sides, names);
  else if (kind === 'park') parkBlock(s, b, sides);
  else parkingBlock(s, j, b, sides);
}

/** Buildings along a row with a gap of `half` each side of u (a driveway or a passage goes through). */
function gapRow(s: DowntownStreets, row: Row, u: number, half: number, names: { n: number }): void {
  fillRow(s.c, { ...row, u1: u - half }, names);
  fillRow(s.c, { ...row, u0: u + half }, names);
}

const rect = (u0: number, v0: number, u1: number, v1: number): Pt[] => corners({ u0, v0, u1, v1 });

/** Steps down to the subway near some corners, steps up to some doors. */
function subwayAndDoors(s: DowntownStreets, sides: Sides): void {
  const c = s.c;
  for (const f of [sides.west, sides.east]) {
    if (!f.exists || !c.chance(0.18)) continue;
    const start = c.chance(0.5),
      t = start ? f.t0 + 6 : f.t1 - 6,
      dir = start ? 1 : -1;
    const top = s.faceNode(f, t, c.chance(0.3))!;
    const out = f.line + f.side * 1.8;
    const p1 = c.node(out, t + dir, { railway: 'subway_entrance', name: `${c.int(14, 59)} St` }),
      p2 = c.node(out, t + dir * 8);
    c.way([top, p1, p2], { highway: 'steps', incline: 'down', step_count: '24', covered: 'no' });
  }
  for (const f of [sides.south, sides.north]) {
    if (!f.exists) continue;
    for (
      let n = c.weighted([
        [0, 3],
        [1, 4],
        [2, 3],
      ]);
      n > 0;
      n--
    ) {
      // a door reached from the sidewalk: a short footway, or steps up to a raised ground floor
      const t = c.range(f.t0 + 20, f.t1 - 20);
      const a = s.faceNode(f, t, c.chance(0.3))!;
      const edge = f.road.at + f.side * (STREET_ROW / 2 - 0.4);
      const steps = c.chance(0.15);
      c.way(
        [a, c.node(t, edge, { entrance: 'yes' })],
        steps ? { highway: 'steps', incline: f.side > 0 ? 'up' : 'down', step_count: String(c.int(3, 8)) } : { highway: 'footway' },
      );
    }
  }
}

/** Two rows of buildings and an alley between them from avenue to avenue. */
function alleyBlock(s: DowntownStreets, i: number, j: number, b: Rect, south: Row, north: Row, names: { n: number }): void {
  const c = s.c,
    w = 3,
    depth = (b.v1 - b.v0 - 2 * w) / 2,
    v = (b.v0 + b.v1) / 2;
  fillRow(c, { ...south, depth }, names);
  fillRow(c, { ...north, depth }, names);
  const west = s.avenues.get(i)!,
    east = s.avenues.get(i + 1)!;
  const ends = [s.roadNode(west, v), s.faceNode(s.face(west, 1, j), v, c.chance(0.7))];
  const far = [s.faceNode(s.face(east, -1, j), v, c.chance(0.7)), s.roadNode(east, v)];
  const tags: Tags = { highway: 'service', service: 'alley', surface: c.pick(['asphalt', 'concrete']) };
  const gate = c.chance(0.3) ? c.node(b.u0 + 1, v, { barrier: 'gate' }) : c.node(b.u0 + 1, v);
  if (c.chance(0.7)) {
    const mid = c.node((b.u0 + b.u1) / 2, v);
    c.way([...ends.filter((x) => x !== undefined), gate, mid], tags);
    c.way([mid, c.node(b.u1 - 1, v), ...far.filter((x) => x !== undefined)], tags);
  } else c.way([...ends.filter((x) => x !== undefined), gate, c.node(b.u1 - 1, v), ...far.filter((x) => x !== undefined)], tags);
  // fences between the back of the lots along the alley
  for (let n = c.int(0, 2); n > 0; n--) {
    const u = c.range(b.u0 + 20, b.u1 - 20);
    c.way([c.node(u, v - w / 2 - 0.3), c.node(u, v - w / 2 - 6)], { barrier: c.pick(['fence', 'wall']) });
  }
}

const YARD_KINDS: [string, number][] = [
  ['grass', 40],
  ['garden', 14],
  ['parking', 19],
  ['playground', 9],
  ['water', 4],
  ['none', 9],
];

/** Two shallower rows and back yards between them, cut into lots of green, parking and play. */
function yardBlock(s: DowntownStreets, j: number, b: Rect, south: Row, north: Row, sides: Sides, names: { n: number }): void {
  const c = s.c,
    depth = c.range(17, 21),
    y0 = b.v0 + depth + 0.5,
    y1 = b.v1 - depth - 0.5;
  const cuts = [b.u0 + 0.5];
  while (b.u1 - 0.5 - cuts[cuts.length - 1] > 45) cuts.push(cuts[cuts.length - 1] + c.range(22, 50));
  cuts.push(b.u1 - 0.5);
  const gaps: { south: number[]; north: number[] } = { south: [], north: [] };
  for (let k = 0; k + 1 < cuts.length; k++) {
    const [ua, ub] = [cuts[k], cuts[k + 1]],
      kind = c.weighted(YARD_KINDS);
    if (k > 0 && c.chance(0.42))
      c.way([c.node(ua, y0), c.node(ua, y1)], {
        barrier: c.weighted<string>([
          ['fence', 5],
          ['wall', 3],
          ['hedge', 2],
        ]),
      });
    if (kind === 'none') continue;
    const ring = rect(ua + 0.5, y0 + 0.5, ub - 0.5, y1 - 0.5);
    if (kind === 'grass') c.ring(ring, { landuse: 'grass' });
    else if (kind === 'garden') c.ring(ring, { leisure: 'garden', garden: 'residential' });
    else if (kind === 'playground') c.ring(ring, { leisure: 'playground', surface: 'rubber' });
    else if (kind === 'water') {
      const m = (ua + ub) / 2,
        half = Math.min(6, (ub - ua) / 2 - 2);
      c.ring(ring, { landuse: 'grass' });
      c.ring(rect(m - half, y0 + 4, m + half, y1 - 4), { natural: 'water', water: 'pond' });
    } else {
      c.ring(ring, { amenity: 'parking', parking: 'surface', access: c.pick(['private', 'customers', 'yes']) });
      const side = c.chance(0.5) ? 'south' : 'north',
        up = (ua + ub) / 2;
      if (ub - ua < 14) continue;
      gaps[side].push(up);
      const street = s.streets.get(side === 'south' ? j : j + 1)!;
      const front = side === 'south' ? b.v0 : b.v1,
        yard = side === 'south' ? y0 : y1;
      const sidewalk = s.faceNode(sides[side], up, c.chance(0.6));
      const road = s.roadNode(street, up),
        edge = c.node(up, yard),
        centre = c.node(up, (y0 + y1) / 2);
      c.way([road, ...(sidewalk ? [sidewalk] : []), c.node(up, front), edge], { highway: 'service', service: 'driveway' });
      if (c.chance(0.8)) c.way([edge, centre, c.node(ua + 2, (y0 + y1) / 2)], { highway: 'service', service: 'parking_aisle' });
      if (c.chance(0.5)) c.way([c.node(ub - 2, y0 + 1), c.node(ub - 2, y1 - 1)], { highway: 'footway', footway: 'access_aisle' });
    }
    if (c.chance(0.12)) c.way([c.node(ua + 0.3, y0 + 0.2), c.node(ub - 0.3, y0 + 0.2)], { barrier: c.pick(['wall', 'fence']) });
  }
  for (const [side, row] of [
    ['south', { ...south, depth }],
    ['north', { ...north, depth }],
  ] as const) {
    let u0 = row.u0;
    for (const g of gaps[side].sort((x, y) => x - y)) {
      fillRow(c, { ...row, u0, u1: g - 4 }, names);
      u0 = g + 4;
    }
    fillRow(c, { ...row, u0 }, names);
  }
}

/** A plaza over the south half of the block (a row of buildings behind it). */
function plazaBlock(s: DowntownStreets, b: Rect, north: Row, sides: Sides, names: { n: number }): void {
  const c = s.c,
    mid = (b.v0 + b.v1) / 2;
  fillRow(c, north, names);
  const [pu0, pu1, pv0, pv1] = [b.u0 + 0.5, b.u1 - 0.5, b.v0 + 0.5, mid - 0.5];
  c.ring(rect(pu0, pv0, pu1, pv1), {
    highway: 'pedestrian',
    area: 'yes',
    surface: 'paving_stones',
    name: `${c.pick(['Times', 'Herald', 'Greeley', 'Father Duffy', 'Pershing'])} Plaza`,
  });
  const m = (pu0 + pu1) / 2;
  c.ring(rect(m - 5, pv0 + 8, m + 5, pv1 - 8), { natural: 'water', water: 'fountain', amenity: 'fountain' });
  for (let k = 0; k < 4; k++) {
    const u = pu0 + 15 + k * ((pu1 - pu0 - 40) / 3);
    if (k % 3 !== 0) continue;
    c.ring(rect(u, pv1 - 6, u + 10, pv1 - 2), { landuse: 'grass' });
    c.way([c.node(u - 0.2, pv1 - 6.2), c.node(u + 10.2, pv1 - 6.2)], { barrier: 'hedge', height: '0.8' });
  }
  // bollards along the street edge, a pedestrian way across, footways and steps from the sidewalk
  for (const [ua, ub] of [
    [pu0 + 2, m - 20],
    [m + 20, pu1 - 2],
  ])
    c.way([c.node(ua, pv0 + 0.6), c.node(ub, pv0 + 0.6)], { barrier: 'bollard' });
  const spine = [c.node(pu0 + 1, (pv0 + pv1) / 2), c.node(m - 8, (pv0 + pv1) / 2), c.node(m + 8, (pv0 + pv1) / 2), c.node(pu1 - 1, (pv0 + pv1) / 2)];
  c.way(spine.slice(0, 2), { highway: 'pedestrian' });
  c.way(spine.slice(2), { highway: 'pedestrian' });
  for (const [k, u] of [
    [1, m - 8],
    [2, m + 8],
  ] as const) {
    const a = s.faceNode(sides.south, u, c.chance(0.5));
    const kerb = c.node(u, pv0 + 1.5);
    if (a) c.way([a, kerb], { highway: 'steps', step_count: '4' });
    c.way([kerb, spine[k]], { highway: 'footway' });
  }
  for (const f of [sides.west, sides.east]) {
    const a = s.faceNode(f, (pv0 + pv1) / 2, true, { barrier: 'bollard' });
    if (a) c.way([a, spine[f === sides.west ? 0 : 3]], { highway: 'footway' });
  }
}

/** A park over the whole block: fence with gates, a path loop and cross paths, lawns, a pond. */
function parkBlock(s: DowntownStreets, b: Rect, sides: Sides): void {
  const c = s.c;
  const [u0, u1, v0, v1] = [b.u0 + 1, b.u1 - 1, b.v0 + 1, b.v1 - 1];
  c.ring(rect(u0, v0, u1, v1), { leisure: 'park', name: `${c.pick(['Bryant', 'Madison', 'Union', 'Stuyvesant', 'Tompkins', 'Gramercy'])} Park` });
  const n = c.int(4, 6),
    step = (u1 - u0) / n,
    vm = (v0 + v1) / 2;
  const gates = Array.from({ length: n - 1 }, (_, k) => u0 + (k + 1) * step);
  const fence = c.pick(['fence', 'fence', 'hedge', 'wall']),
    fenced = c.chance(0.6);
  // the fence along each street side, open at the gates
  for (const v of fenced ? [v0, v1] : []) {
    let from = u0;
    for (const g of gates) {
      c.way([c.node(from, v), c.node(g - 1.5, v)], { barrier: fence });
      from = g + 1.5;
    }
    c.way([c.node(from, v), c.node(u1, v)], { barrier: fence });
  }
  for (const u of fenced ? [u0, u1] : []) c.way([c.node(u, v0), c.node(u, v1)], { barrier: fence });
  const spine = [c.node(u0 + 2, vm), ...gates.map((g) => c.node(g, vm)), c.node(u1 - 2, vm)];
  const pathTags = () => ({ highway: c.chance(0.6) ? 'footway' : 'path', surface: c.pick(['asphalt', 'gravel', 'compacted']) });
  for (let k = 0; k + 1 < spine.length; k++) c.way([spine[k], spine[k + 1]], pathTags());
  for (const f of [sides.west, sides.east]) {
    const a = s.faceNode(f, vm, true);
    if (a) c.way([a, spine[f === sides.west ? 0 : spine.length - 1]], { highway: 'footway' });
  }
  gates.forEach((g, k) => {
    for (const [f, v] of [
      [sides.south, v0],
      [sides.north, v1],
    ] as const) {
      const a = s.faceNode(f, g, c.chance(0.5));
      const gate = c.node(g, v, fenced && c.chance(0.4) ? { barrier: 'gate' } : undefined);
      if (a) c.way([a, gate], c.chance(0.4) ? { highway: 'steps', step_count: '5' } : { highway: 'footway' });
      c.way([gate, spine[k + 1]], pathTags());
    }
  });
  // lawns between the paths, one a pond, one a playground; a plaza at the middle
  const cells = [u0, ...gates, u1];
  const pond = c.int(0, n - 1),
    play = (pond + 1 + c.int(0, n - 2)) % n;
  for (let k = 0; k < n; k++)
    for (const [a, z] of [
      [v0 + 2, vm - 2],
      [vm + 2, v1 - 2],
    ]) {
      const ring = rect(cells[k] + 3, a, cells[k + 1] - 3, z);
      if (k === pond && a < vm) c.ring(ring, { natural: 'water', water: 'pond' });
      else if (k === play && a > vm) {
        c.ring(ring, { leisure: 'playground' });
        c.ring(ring, { barrier: 'fence', height: '1.2' });
      } else {
        c.ring(ring, { landuse: 'grass' });
        // a desire line across the lawn from the path to its far corner
        c.way([spine[k], c.node(cells[k + 1] - 3.5, a < vm ? a + 0.5 : z - 0.5)], { highway: 'path', surface: 'dirt' });
      }
    }
  const gm = gates[Math.floor(gates.length / 2)];
  c.ring(rect(gm - 6, vm - 6, gm + 6, vm + 6), { highway: 'pedestrian', area: 'yes', surface: 'paving_stones' });
}

/** A surface parking lot over the whole block: a fence, driveways from both streets, aisles. */
function parkingBlock(s: DowntownStreets, j: number, b: Rect, sides: Sides): void {
  const c = s.c;
  const [u0, u1, v0, v1] = [b.u0 + 1, b.u1 - 1, b.v0 + 1, b.v1 - 1];
  c.ring(rect(u0, v0 + 3, u1, v1 - 3), { amenity: 'parking', parking: 'surface', fee: 'yes' });
  c.ring(rect(u0, v0, u1, v0 + 2.5), { landuse: 'grass' });
  c.ring(rect(u0, v1 - 2.5, u1, v1), { landuse: 'grass' });
  const ue = c.range(u0 + 30, u1 - 30),
    vm = (v0 + v1) / 2;
  const aisle = [c.node(u0 + 5, vm), c.node(ue, vm), c.node(u1 - 5, vm)];
  c.way(aisle.slice(0, 2), { highway: 'service', service: 'parking_aisle' });
  c.way(aisle.slice(1), { highway: 'service', service: 'parking_aisle' });
  for (const [street, f, v] of [
    [s.streets.get(j)!, sides.south, v0],
    [s.streets.get(j + 1)!, sides.north, v1],
  ] as const) {
    const refs = [s.roadNode(street, ue), s.faceNode(f, ue, true), c.node(ue, v, { barrier: 'lift_gate' }), aisle[1]];
    c.way(
      refs.filter((x) => x !== undefined),
      { highway: 'service', service: 'driveway' },
    );
  }
  for (const [ua, ub] of [
    [u0, ue - 4],
    [ue + 4, u1],
  ])
    for (const v of [v0 + 2.8, v1 - 2.8]) c.way([c.node(ua, v), c.node(ub, v)], { barrier: 'fence' });
}
