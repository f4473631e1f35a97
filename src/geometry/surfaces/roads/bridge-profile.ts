/**
 * The deck profile of every bridge way (docs/ground.md "Bridges, tunnels and heights").
 *
 * Bridge ways that share a vertex form a chain (a long viaduct, a bridge with its footways, the
 * High Line). Its abutments are the vertices where it meets a road on the ground (any drawn way
 * that is not a bridge, except steps: steps climb to the deck) and the free ends of its ways; the
 * deck's top is the ground there. Along the chain (plan distance through its graph, p):
 *
 *   top(p) = max( ground(p), B(p) + min(R(p), max(L, ground(p) + c − B(p), 0)) )
 *
 * - B, the baseline: the abutments' heights blended by inverse distance (linear between two
 *   abutments), what the old straight deck was; a deck never dips below it into a valley;
 * - L, the lift the chain wants above it: the most any crossing of the chain needs (what is
 *   crossed + its clearance + the slab, bridge-crossings.ts, minus the baseline there), so a long
 *   elevated chain stays up at the height of its highest crossing between its ramps; and at least
 *   the bridge's own clearance c over the ground under it (`min_height`, else PATH_CLEARANCE, +
 *   the slab), so a bridge over nothing mapped still stands clear;
 * - R, how high the ramps can lift it: min over abutments of grade × distance beyond the ground
 *   junction there (the ground roads' half width, at most a quarter of the chain's length, so the
 *   deck leaves the ground at the junction's edge), the grade
 *   RAMP_GRADE, or steeper where a crossing is too close to an abutment for it — the clearance
 *   wins and that end's ramp is as steep as it must be (the roads joining it stay on the ground);
 * - and never under the ground.
 *
 * Chains are done from the lowest layer up, so a deck crossing a lower bridge counts its
 * clearance from that deck's top (a layer-2 deck stacks over a layer-1 one). Without abutments
 * (ends only at steps) a chain is level at its highest crossing's need, or c over the ground.
 */
import { DECK_THICKNESS, deckHeight } from '../deck-height.ts';
import { crossedLine, crossedWay, crossingsOf, PATH_CLEARANCE, taggedMinHeight, type Crossed, type Crossing, type UnderLine } from './bridge-crossings.ts';
import type { RoadWay } from './road-ways.ts';

/** Grade of a bridge's ramps from its abutments, rise over run (a main road's steepest usual grade). */
export const RAMP_GRADE = 0.06;
/** Ramps are never taken steeper than a rise over this run, metres (a crossing at the very abutment). */
const MIN_RUN = 1;
/** The profile is sampled this often along each way, metres. */
const SAMPLE_STEP = 1;

type Ground = (x: number, y: number) => number;

const keyOf = (x: number, y: number) => `${x},${y}`;

/** Sets `deck` on every bridge way of `ways` (see the module comment). */
export function bridgeDecks(ways: RoadWay[], under: readonly UnderLine[], ground: Ground): void {
  const bridges = ways.map((w, i) => (w.profile.bridge ? i : -1)).filter((i) => i >= 0);
  if (bridges.length === 0) return;
  const waysAt = new Map<string, number[]>();
  ways.forEach((w, i) => {
    const p = w.input.points;
    for (let k = 0; k < p.length; k += 2) {
      const key = keyOf(p[k], p[k + 1]);
      const list = waysAt.get(key);
      if (!list) waysAt.set(key, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  const crossed: Crossed[] = [];
  for (const line of under) {
    const c = crossedLine(line);
    if (c) crossed.push(c);
  }
  ways.forEach((w, i) => {
    const c = crossedWay(w, i);
    if (c) crossed.push(c);
  });
  for (const chain of chainsOf(bridges, ways, waysAt)) profileChain(chain, ways, waysAt, crossed, ground);
}

const layerOf = (w: RoadWay) => w.profile.layer ?? 1;

/** Bridge ways joined through shared vertices, each chain lowest layer first, chains from the lowest layer up. */
function chainsOf(bridges: readonly number[], ways: readonly RoadWay[], waysAt: Map<string, number[]>): number[][] {
  const parent = new Map<number, number>(bridges.map((b) => [b, b]));
  const find = (a: number): number => {
    let r = a;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(a, r);
    return r;
  };
  for (const list of waysAt.values()) {
    const on = list.filter((w) => parent.has(w));
    for (let k = 1; k < on.length; k++) parent.set(find(on[k]), find(on[0]));
  }
  const groups = new Map<number, number[]>();
  for (const b of bridges) {
    const r = find(b);
    groups.set(r, [...(groups.get(r) ?? []), b]);
  }
  const minLayer = (c: number[]) => Math.min(...c.map((w) => layerOf(ways[w])));
  return [...groups.values()].sort((a, b) => minLayer(a) - minLayer(b) || a[0] - b[0]);
}

interface ChainWay {
  way: number;
  /** Distance along the way at each vertex. */
  along: number[];
  /** Chain node of each vertex. */
  nodes: number[];
}

function profileChain(chain: readonly number[], ways: RoadWay[], waysAt: Map<string, number[]>, crossed: readonly Crossed[], ground: Ground): void {
  const inChain = new Set(chain);
  const nodeOf = new Map<string, number>();
  const xy: number[] = [];
  const adjacency: [number, number][][] = [];
  const cws: ChainWay[] = chain.map((w) => {
    const p = ways[w].input.points;
    const along: number[] = [0];
    const nodes: number[] = [];
    for (let k = 0; k < p.length; k += 2) {
      const key = keyOf(p[k], p[k + 1]);
      let n = nodeOf.get(key);
      if (n === undefined) {
        n = xy.length / 2;
        nodeOf.set(key, n);
        xy.push(p[k], p[k + 1]);
        adjacency.push([]);
      }
      if (k > 0) {
        const len = Math.hypot(p[k] - p[k - 2], p[k + 1] - p[k - 1]);
        along.push(along[along.length - 1] + len);
        const prev = nodes[nodes.length - 1];
        adjacency[prev].push([n, len]);
        adjacency[n].push([prev, len]);
      }
      nodes.push(n);
    }
    return { way: w, along, nodes };
  });

  const chainLength = cws.reduce((sum, c) => sum + c.along[c.along.length - 1], 0);
  // abutments: where the chain meets a road on the ground, or a way of it ends on nothing
  /** `level`: how far from the node the deck stays on the ground, the ground roads' half width (their junction). */
  const abutments: { node: number; z: number; grade: number; level: number; dist: Float64Array }[] = [];
  for (const [key, n] of nodeOf) {
    const at = waysAt.get(key)!;
    const others = at.filter((w) => !inChain.has(w));
    const onGround = others.filter((w) => !ways[w].profile.bridge && ways[w].input.tags.highway !== 'steps');
    const freeEnd = at.length === 1 && cws.some((c) => c.nodes[0] === n || c.nodes[c.nodes.length - 1] === n);
    if (onGround.length === 0 && !freeEnd) continue;
    // (a footbridge a few metres long keeps most of itself for the climb)
    const level = Math.min(Math.max(0, ...onGround.map((w) => halfWidth(ways[w]))), chainLength / 4);
    abutments.push({ node: n, z: ground(xy[2 * n], xy[2 * n + 1]), grade: RAMP_GRADE, level, dist: distancesFrom(n, adjacency) });
  }
  const distTo = (cw: ChainWay, d: number, dist: Float64Array) => {
    const { along, nodes } = cw;
    let i = 0;
    while (i + 2 < along.length && along[i + 1] < d) i++;
    return Math.min(dist[nodes[i]] + Math.max(d - along[i], 0), dist[nodes[i + 1]] + Math.max(along[i + 1] - d, 0));
  };

  /** The line between the abutments at (way, distance): their heights blended by inverse distance. */
  const baseline = (cw: ChainWay, d: number) => {
    let weights = 0,
      blend = 0;
    for (const a of abutments) {
      const dist = distTo(cw, d, a.dist);
      if (dist < 1e-9) return a.z;
      weights += 1 / dist;
      blend += a.z / dist;
    }
    return blend / weights;
  };

  // crossings: the lift above the baseline the chain wants (or, without abutments, the level)
  let lift = 0,
    level = -Infinity;
  const needs: { cw: ChainWay; from: number; to: number; lift: number }[] = [];
  for (const cw of cws) {
    const way = ways[cw.way];
    const layer = layerOf(way);
    const minHeight = taggedMinHeight(way.input.tags);
    const found: Crossing[] = [];
    const half = halfWidth(way);
    for (const c of crossed) {
      if (c.layer >= layer || (c.way !== undefined && (inChain.has(c.way) || (ways[c.way].profile.bridge && !ways[c.way].deck)))) continue;
      crossingsOf(way.input.points, cw.along, half, c, found);
    }
    const length = cw.along[cw.along.length - 1];
    for (const f of found) {
      const lower = f.crossed.way === undefined ? undefined : ways[f.crossed.way].deck;
      const base = lower ? deckHeight(lower, f.x, f.y) : ground(f.x, f.y);
      const top = base + (minHeight ?? f.crossed.clearance) + DECK_THICKNESS;
      const from = Math.max(f.from, 0),
        to = Math.min(f.to, length);
      // (the baseline is linear between vertices and abutments: its lowest over the span is at an end)
      const need = abutments.length > 0 ? top - Math.min(baseline(cw, from), baseline(cw, to)) : 0;
      needs.push({ cw, from, to, lift: need });
      lift = Math.max(lift, need);
      level = Math.max(level, top);
    }
  }
  for (const a of abutments) {
    for (const need of needs) {
      const run = Math.max(Math.min(distTo(need.cw, need.from, a.dist), distTo(need.cw, need.to, a.dist)) - a.level, MIN_RUN);
      a.grade = Math.max(a.grade, need.lift / run);
    }
  }

  for (const cw of cws) {
    const way = ways[cw.way];
    const clearance = (taggedMinHeight(way.input.tags) ?? PATH_CLEARANCE) + DECK_THICKNESS;
    const axis: number[] = [];
    const spans = needs.filter((n) => n.cw === cw).flatMap((n) => [n.from, n.to]);
    for (const [x, y, d] of samples(way.input.points, cw.along, spans)) {
      const g = ground(x, y);
      let top = Math.max(level, g + clearance);
      if (abutments.length > 0) {
        let ramp = Infinity;
        for (const a of abutments) ramp = Math.min(ramp, a.grade * Math.max(distTo(cw, d, a.dist) - a.level, 0));
        const base = baseline(cw, d);
        top = base + Math.min(ramp, Math.max(lift, g + clearance - base, 0));
      }
      // (the ground itself where the deck is on it, so an abutment is exactly at the ground height)
      axis.push(x, y, top > g ? top : g);
    }
    const n = axis.length;
    way.deck = { start: { x: axis[0], y: axis[1], z: axis[2] }, end: { x: axis[n - 3], y: axis[n - 2], z: axis[n - 1] }, axes: [axis] };
  }
}

/** Half a way's width with its wider sidewalk. */
function halfWidth(way: RoadWay): number {
  return way.profile.width / 2 + Math.max(way.profile.sidewalks.left, way.profile.sidewalks.right);
}

/** Plan distances from node `from` through the chain's graph (Dijkstra; chains are small, a linear scan picks the next node). */
function distancesFrom(from: number, adjacency: readonly [number, number][][]): Float64Array {
  const n = adjacency.length;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  dist[from] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) return dist;
    done[u] = 1;
    for (const [v, len] of adjacency[u]) if (dist[u] + len < dist[v]) dist[v] = dist[u] + len;
  }
}

/**
 * Points along a polyline with their distance along it: every vertex, every SAMPLE_STEP or less
 * between, and the distances in `extra` (where a crossed span begins and ends, so the profile
 * turns exactly there).
 */
function samples(points: readonly number[], along: readonly number[], extra: readonly number[]): [number, number, number][] {
  const ds: number[] = [...extra];
  for (let k = 1; k < along.length; k++) {
    const len = along[k] - along[k - 1];
    const parts = Math.max(1, Math.ceil(len / SAMPLE_STEP));
    for (let s = 1; s < parts; s++) ds.push(along[k - 1] + (len * s) / parts);
  }
  ds.sort((a, b) => a - b);
  const out: [number, number, number][] = [[points[0], points[1], 0]];
  let j = 0,
    last = 0;
  for (let k = 1; k < along.length; k++) {
    const len = along[k] - along[k - 1];
    for (; j < ds.length && ds[j] < along[k] - 1e-6; j++) {
      if (ds[j] <= last + 1e-6 || !(len > 0)) continue;
      last = ds[j];
      const t = (ds[j] - along[k - 1]) / len;
      out.push([points[2 * k - 2] + (points[2 * k] - points[2 * k - 2]) * t, points[2 * k - 1] + (points[2 * k + 1] - points[2 * k - 1]) * t, ds[j]]);
    }
    out.push([points[2 * k], points[2 * k + 1], along[k]]);
    last = along[k];
  }
  return out;
}
