/**
 * Generated road graphs for fast-check (test/surfaces-roads*.test.ts): star junctions with 3–6 arms
 * down to 10° apart (some ways passing through), jittered grids with dead ends and a footway
 * crossing them, roundabouts as closed ways, dual carriageways crossed by a road; random classes,
 * widths, lanes, one-way, sidewalks, bridges and tunnels. Local metres around (0, 0).
 */
import fc from 'fast-check';
import type { RoadInput } from '../../../src/geometry/surfaces/roads/road-surfaces.ts';

const CLASSES = ['primary', 'secondary', 'tertiary', 'residential', 'service', 'living_street', 'unclassified', 'trunk', 'track'];

/** `arb` in `percent` of the draws, else undefined. */
const sometimes = <T>(arb: fc.Arbitrary<T>, percent: number) =>
  fc.oneof({ arbitrary: arb, weight: percent }, { arbitrary: fc.constant(undefined), weight: 100 - percent });

/** Random tags of a carriageway: class, width or lanes, one-way, sidewalks, sometimes a bridge or a tunnel. */
const roadTags = fc
  .record({
    highway: fc.constantFrom(...CLASSES),
    width: sometimes(
      fc.double({ min: 3, max: 16, noNaN: true }).map((w) => w.toFixed(1)),
      25,
    ),
    lanes: sometimes(fc.integer({ min: 1, max: 4 }).map(String), 30),
    oneway: sometimes(fc.constant('yes'), 25),
    sidewalk: sometimes(fc.constantFrom('both', 'left', 'right', 'separate', 'no'), 50),
    'sidewalk:both:width': sometimes(
      fc.double({ min: 1, max: 4, noNaN: true }).map((w) => w.toFixed(1)),
      20,
    ),
    bridge: sometimes(fc.constant('yes'), 10),
    tunnel: sometimes(fc.constant('yes'), 8),
  })
  .map((t) => Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined)) as Record<string, string>);

const pathTags = fc.constantFrom<Record<string, string>>(
  { highway: 'footway' },
  { highway: 'cycleway' },
  { highway: 'path', width: '3' },
  { highway: 'steps' },
);

export const len = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/** Gaps (radians) around a node, each at least `minGap`, summing to a full turn. */
const gaps = (k: number, minGap: number) =>
  fc.array(len(0, 1), { minLength: k, maxLength: k }).map((w) => {
    const sum = w.reduce((a, b) => a + b, 0) || 1;
    const spare = 2 * Math.PI - k * minGap;
    return w.map((v) => minGap + (spare * v) / sum);
  });

export interface Scene {
  name: string;
  roads: RoadInput[];
}

/** A node with 3–6 arms 10° or more apart, bent, some joined into ways passing through. */
const star = fc
  .record({
    k: fc.integer({ min: 3, max: 6 }),
    rot: len(0, 2 * Math.PI),
    seed: fc.array(fc.record({ length: len(4, 80), bend: len(-0.8, 0.8), bendAt: len(0.2, 0.8), tags: roadTags }), { minLength: 6, maxLength: 6 }),
    through: fc.boolean(),
  })
  .chain(({ k, rot, seed, through }) =>
    gaps(k, (10 * Math.PI) / 180).map((g) => {
      let angle = rot;
      const arms = seed.slice(0, k).map((s, i) => {
        angle += g[i];
        const d1 = s.length * s.bendAt,
          d2 = s.length - d1;
        const x1 = d1 * Math.cos(angle),
          y1 = d1 * Math.sin(angle);
        const a2 = angle + s.bend;
        return { pts: [0, 0, x1, y1, x1 + d2 * Math.cos(a2), y1 + d2 * Math.sin(a2)], tags: s.tags };
      });
      const roads: RoadInput[] = [];
      let start = 0;
      if (through) {
        // arms 0 and 1 as one way through the node
        const a = arms[0].pts,
          b = arms[1].pts;
        roads.push({ id: 'way/100', tags: arms[0].tags, points: [a[4], a[5], a[2], a[3], 0, 0, b[2], b[3], b[4], b[5]] });
        start = 2;
      }
      for (let i = start; i < k; i++) roads.push({ id: `way/${101 + i}`, tags: arms[i].tags, points: arms[i].pts });
      return { name: 'star', roads } satisfies Scene;
    }),
  );

/** A jittered grid of rows and columns passing through shared nodes, some pieces left out. */
const grid = fc
  .record({
    nx: fc.integer({ min: 2, max: 4 }),
    ny: fc.integer({ min: 2, max: 4 }),
    spacing: len(25, 70),
    jitter: fc.array(len(-8, 8), { minLength: 50, maxLength: 50 }),
    tags: fc.array(roadTags, { minLength: 8, maxLength: 8 }),
    cut: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    path: pathTags,
  })
  .map(({ nx, ny, spacing, jitter, tags, cut, path }) => {
    const P = (i: number, j: number): [number, number] => [i * spacing + jitter[(i * 5 + j) % 50], j * spacing + jitter[(i * 7 + j * 3 + 11) % 50]];
    const roads: RoadInput[] = [];
    let id = 200;
    for (let j = 0; j <= ny; j++) {
      const pts: number[] = [];
      for (let i = 0; i <= nx; i++) pts.push(...P(i, j));
      // a row may stop short of the last node: a dead end before the grid edge
      if (cut[j % 8] && pts.length > 4)
        pts.splice(pts.length - 2, 2, (pts[pts.length - 4] + pts[pts.length - 2]) / 2, (pts[pts.length - 3] + pts[pts.length - 1]) / 2);
      roads.push({ id: `way/${id++}`, tags: tags[j % 8], points: pts });
    }
    for (let i = 0; i <= nx; i++) {
      const pts: number[] = [];
      for (let j = 0; j <= ny; j++) pts.push(...P(i, j));
      roads.push({ id: `way/${id++}`, tags: tags[(i + 4) % 8], points: pts });
    }
    // a footway across the grid, crossing roads without shared nodes
    roads.push({ id: `way/${id++}`, tags: path, points: [...P(0, 0).map((v) => v + 3), ...P(nx, ny).map((v) => v - 3)] });
    return { name: 'grid', roads } satisfies Scene;
  });

/** A roundabout (closed way) with 2–5 roads attached at distinct vertices. */
const roundabout = fc
  .record({
    radius: len(8, 30),
    n: fc.integer({ min: 12, max: 32 }),
    width: len(5, 10),
    arms: fc.uniqueArray(fc.integer({ min: 0, max: 31 }), { minLength: 2, maxLength: 5 }),
    tags: fc.array(roadTags, { minLength: 5, maxLength: 5 }),
    lengths: fc.array(len(10, 60), { minLength: 5, maxLength: 5 }),
    skew: fc.array(len(-0.5, 0.5), { minLength: 5, maxLength: 5 }),
  })
  .map(({ radius, n, width, arms, tags, lengths, skew }) => {
    const ring: number[] = [];
    for (let i = 0; i <= n; i++) ring.push(radius * Math.cos((2 * Math.PI * (i % n)) / n), radius * Math.sin((2 * Math.PI * (i % n)) / n));
    const roads: RoadInput[] = [{ id: 'way/300', tags: { highway: 'primary', junction: 'roundabout', width: width.toFixed(1) }, points: ring }];
    const used = [...new Set(arms.map((a) => a % n))];
    used.forEach((v, i) => {
      const a = (2 * Math.PI * v) / n + skew[i];
      const x = ring[2 * v],
        y = ring[2 * v + 1];
      const t = { ...tags[i] };
      delete t.tunnel;
      roads.push({ id: `way/${301 + i}`, tags: t, points: [x, y, x + lengths[i] * Math.cos(a), y + lengths[i] * Math.sin(a)] });
    });
    return { name: 'roundabout', roads } satisfies Scene;
  });

/** Two one-way carriageways side by side, crossed by a road through nodes on both. */
const dual = fc
  .record({
    gap: len(6, 20),
    angle: len((40 * Math.PI) / 180, (140 * Math.PI) / 180),
    main: roadTags,
    cross: roadTags,
    at: len(-20, 20),
  })
  .map(({ gap, angle, main, cross, at }) => {
    const c = Math.cos(angle),
      s = Math.sin(angle);
    // the crossing road meets y = 0 and y = gap at these x
    const x0 = at,
      x1 = at + (gap * c) / s;
    const tags: Record<string, string> = { ...main, oneway: 'yes' };
    delete tags.tunnel;
    return {
      name: 'dual',
      roads: [
        { id: 'way/400', tags, points: [-80, 0, x0, 0, 80, 0] },
        { id: 'way/401', tags, points: [80, gap, x1, gap, -80, gap] },
        { id: 'way/402', tags: cross, points: [x0 - 40 * c, -40 * s, x0, 0, x1, gap, x1 + 40 * c, gap + 40 * s] },
      ],
    } satisfies Scene;
  });

export const scenes = fc.oneof(star, grid, roundabout, dual);

/** 2–5 ways joined end to end (two-way joins: tapers between widths, connectors), bent up to 150° at each join. */
export const chain = fc
  .record({
    turns: fc.array(fc.record({ length: len(6, 70), turn: len(-2.6, 2.6), tags: roadTags }), { minLength: 2, maxLength: 5 }),
    rot: len(0, 2 * Math.PI),
  })
  .map(({ turns, rot }) => {
    const roads: RoadInput[] = [];
    let x = 0,
      y = 0,
      angle = rot;
    turns.forEach((t, i) => {
      angle += i === 0 ? 0 : t.turn;
      const nx = x + t.length * Math.cos(angle),
        ny = y + t.length * Math.sin(angle);
      const tags = { ...t.tags };
      delete tags.bridge;
      delete tags.tunnel;
      roads.push({ id: `way/${500 + i}`, tags, points: [x, y, nx, ny] });
      x = nx;
      y = ny;
    });
    return { name: 'chain', roads } satisfies Scene;
  });
