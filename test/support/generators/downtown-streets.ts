/**
 * The streets of the synthetic downtown (test/support/generators/downtown.ts) as a real downtown
 * maps them: carriageways split into ways a block or two long (and where turn lanes begin), with
 * the sidewalks mapped separately (`highway=footway footway=sidewalk`, `sidewalk:both=separate`
 * on the road) on both sides of every avenue and most streets, parallel to the road at half the
 * carriageway plus 1.5 m and broken at the junctions' corners; at every junction four crossings
 * (`footway=crossing`) from corner to corner across each arm, meeting the road at a
 * `highway=crossing` node; in the two-way boulevards a refuge island (`area:highway=traffic_island`)
 * where a crossing meets it, the crossing cut in three (crossing, `footway=traffic_island`,
 * crossing). Blocks (downtown-blocks.ts) attach driveways, alleys, steps and passages to the
 * roads and sidewalks through `roadNode` and `faceNode`.
 *
 * Grid coordinates as in city-builder.ts: u along the streets, v along the avenues.
 */
import type { CityBuilder, Tags } from './city-builder.ts';

export const AVENUE_PITCH = 250,
  AVENUE_ROW = 30;
export const STREET_PITCH = 80,
  STREET_ROW = 18;
/** Sidewalk centreline beyond the carriageway's edge, metres. */
export const SIDEWALK_OFFSET = 1.5;

/** Stations along a line (t = position along it), cut into ways where a station says so. */
export class Chain {
  readonly stations: { t: number; id: number; cut: boolean }[] = [];
  add(t: number, id: number, cut = false): void {
    this.stations.push({ t, id, cut });
  }
  /** The pieces between cuts, in t order: node ids and the t range of each. */
  pieces(): { refs: number[]; t0: number; t1: number }[] {
    const s = [...this.stations].sort((a, b) => a.t - b.t);
    const out: { refs: number[]; t0: number; t1: number }[] = [];
    let refs: number[] = [],
      t0 = s[0]?.t ?? 0;
    s.forEach((st, k) => {
      refs.push(st.id);
      if (k > 0 && (st.cut || k === s.length - 1)) {
        if (refs.length >= 2) out.push({ refs, t0, t1: st.t });
        refs = [st.id];
        t0 = st.t;
      }
    });
    return out;
  }
}

/** One avenue (along v, at u = at) or street (along u, at v = at). */
export interface RoadLine {
  avenue: boolean;
  index: number;
  at: number;
  /** Half the carriageway's width as the tags give it, metres. */
  half: number;
  tags: Tags;
  /** Two-way boulevard with refuge islands at its crossings. */
  boulevard: boolean;
  /** Sidewalks mapped as their own ways. */
  separate: boolean;
  reverse: boolean;
  chain: Chain;
  /** Junction nodes by the crossing line's index; absent = outside the square. */
  junctions: Map<number, number>;
  /** Indices k of the segments (k, k + 1) given to pedestrians. */
  pedestrian: Set<number>;
}

/** One side of one block: a sidewalk between two corners. */
export interface Face {
  road: RoadLine;
  side: 1 | -1;
  /** The crossing lines' indices at its ends. */
  k: number;
  line: number;
  t0: number;
  t1: number;
  chain: Chain;
  exists: boolean;
}

function avenueClass(n: number): { tags: Tags; half: number; boulevard: boolean } {
  if (n % 4 === 2) return { tags: { highway: 'primary', lanes: '6' }, half: (6 * 3.25 + 1) / 2, boulevard: true };
  if (n % 3 === 0) return { tags: { highway: 'secondary', oneway: 'yes', lanes: '4' }, half: (4 * 3.25 + 0.5) / 2, boulevard: false };
  return { tags: { highway: 'primary', oneway: 'yes', lanes: '4' }, half: (4 * 3.25 + 1) / 2, boulevard: false };
}

function streetClass(n: number): { tags: Tags; half: number } {
  if (n % 5 === 0) return { tags: { highway: 'secondary', lanes: '3' }, half: (3 * 3.25 + 0.5) / 2 };
  const parking = { 'parking:lane:both': 'parallel' };
  if (n % 7 === 0) return { tags: { highway: 'tertiary', lanes: '2', ...parking }, half: (2 * 3 + 0.5 + 4) / 2 };
  return { tags: { highway: 'residential', oneway: 'yes', lanes: '2', ...parking }, half: (2 * 3 + 4) / 2 };
}

export class DowntownStreets {
  readonly avenues = new Map<number, RoadLine>();
  readonly streets = new Map<number, RoadLine>();
  private readonly faces = new Map<string, Face>();
  private readonly corners = new Map<string, number>();
  private readonly signals = new Set<string>();

  constructor(
    readonly c: CityBuilder,
    readonly offU: number,
    readonly offV: number,
    readonly i0: number,
    readonly i1: number,
    readonly j0: number,
    readonly j1: number,
  ) {
    for (let i = i0; i <= i1; i++) {
      const n = i - i0 + 1,
        k = avenueClass(n);
      const tags = { ...k.tags, name: `${ordinal(n)} Avenue`, maxspeed: '40 mph', surface: 'asphalt', 'sidewalk:both': 'separate', lit: 'yes' };
      this.avenues.set(i, this.line(true, i, this.u(i), k.half, tags, k.boulevard, true, !k.boulevard && n % 2 === 0));
    }
    for (let j = j0; j <= j1; j++) {
      const n = j - j0 + 1,
        k = streetClass(n),
        separate = c.chance(0.88);
      const tags = { ...k.tags, name: `${ordinal(n)} Street`, maxspeed: '25 mph', surface: 'asphalt', lit: 'yes' };
      Object.assign(tags, separate ? { 'sidewalk:both': 'separate' } : { sidewalk: 'both' });
      this.streets.set(j, this.line(false, j, this.v(j), k.half, tags, false, separate, k.tags.oneway === 'yes' && n % 2 === 1));
    }
    for (let i = i0; i <= i1; i++)
      for (let j = j0; j <= j1; j++) {
        const [u, v] = [this.u(i), this.v(j)];
        if (!c.inside([[u, v]])) continue;
        const signal = c.chance(0.4);
        if (signal) this.signals.add(`${i},${j}`);
        const id = c.node(u, v, signal ? { highway: 'traffic_signals' } : undefined);
        this.avenues.get(i)!.junctions.set(j, id);
        this.streets.get(j)!.junctions.set(i, id);
        this.avenues.get(i)!.chain.add(v, id);
        this.streets.get(j)!.chain.add(u, id);
      }
    // a few street segments given to pedestrians, as squares carved out of a grid are
    for (const s of this.streets.values())
      for (const k of s.junctions.keys()) if (s.junctions.has(k + 1) && s.tags.highway === 'residential' && c.chance(0.05)) s.pedestrian.add(k);
  }

  u(i: number): number {
    return this.offU + i * AVENUE_PITCH;
  }
  v(j: number): number {
    return this.offV + j * STREET_PITCH;
  }

  private line(avenue: boolean, index: number, at: number, half: number, tags: Tags, boulevard: boolean, separate: boolean, reverse: boolean): RoadLine {
    return { avenue, index, at, half, tags, boulevard, separate, reverse, chain: new Chain(), junctions: new Map(), pedestrian: new Set() };
  }

  /** Whether the segment (k, k + 1) of a road is there (both junctions inside the square). */
  segment(road: RoadLine, k: number): boolean {
    return road.junctions.has(k) && road.junctions.has(k + 1);
  }

  /** A node on a road's centreline at t, splitting the road there when `cut`. */
  roadNode(road: RoadLine, t: number, tags?: Tags, cut = false): number {
    const id = road.avenue ? this.c.node(road.at, t, tags) : this.c.node(t, road.at, tags);
    road.chain.add(t, id, cut);
    return id;
  }

  /** Sidewalk offset of a road from its centreline. */
  offset(road: RoadLine): number {
    return road.half + SIDEWALK_OFFSET;
  }

  private corner(i: number, j: number, qu: number, qv: number): number {
    const key = `${i},${j},${qu},${qv}`;
    let id = this.corners.get(key);
    if (id === undefined) {
      id = this.c.node(this.u(i) + qu * this.offset(this.avenues.get(i)!), this.v(j) + qv * this.offset(this.streets.get(j)!));
      this.corners.set(key, id);
    }
    return id;
  }

  /** The sidewalk along `road` on `side`, between the crossing lines k and k + 1. */
  face(road: RoadLine, side: 1 | -1, k: number): Face {
    const key = `${road.avenue ? 'a' : 's'}${road.index},${side},${k}`;
    let f = this.faces.get(key);
    if (!f) {
      const cross = (m: number) => (road.avenue ? this.streets.get(m)! : this.avenues.get(m)!);
      const exists = this.segment(road, k) && road.separate && !road.pedestrian.has(k);
      const t0 = (road.avenue ? this.v(k) : this.u(k)) + this.offset(cross(k)),
        t1 = (road.avenue ? this.v(k + 1) : this.u(k + 1)) - this.offset(cross(k + 1));
      f = { road, side, k, line: road.at + side * this.offset(road), t0, t1, chain: new Chain(), exists };
      this.faces.set(key, f);
    }
    return f;
  }

  /** A node on a face's sidewalk at t (undefined where the face has no sidewalk), splitting it when `cut`. */
  faceNode(f: Face, t: number, cut = false, tags?: Tags): number | undefined {
    if (!f.exists) return undefined;
    const id = f.road.avenue ? this.c.node(f.line, t, tags) : this.c.node(t, f.line, tags);
    f.chain.add(t, id, cut);
    return id;
  }

  /** Crossings at every junction, then the road and sidewalk ways. */
  finish(): void {
    for (const [i, avenue] of this.avenues)
      for (const j of avenue.junctions.keys()) {
        const street = this.streets.get(j)!,
          oA = this.offset(avenue),
          oS = this.offset(street);
        const signal = this.signals.has(`${i},${j}`);
        for (const q of [-1, 1]) {
          // across the street, along the avenue's sidewalk line; across the avenue, along the street's
          const k = q < 0 ? i - 1 : i;
          if (this.segment(street, k) && !street.pedestrian.has(k)) {
            const x = this.roadNode(street, this.u(i) + q * oA, crossingNode(signal));
            this.crossing([this.corner(i, j, q, -1), x, this.corner(i, j, q, 1)], signal);
          }
          if (this.segment(avenue, q < 0 ? j - 1 : j)) {
            const v = this.v(j) + q * oS;
            if (avenue.boulevard && this.c.chance(0.46)) this.island(avenue, i, j, q, v, signal);
            else this.crossing([this.corner(i, j, -1, q), this.roadNode(avenue, v, crossingNode(signal)), this.corner(i, j, 1, q)], signal);
          }
        }
      }
    for (const road of [...this.avenues.values(), ...this.streets.values()]) this.emitRoad(road);
    for (const f of this.faces.values()) if (f.exists) this.emitSidewalk(f);
  }

  private crossing(refs: number[], signal: boolean): void {
    this.c.way(refs, {
      highway: 'footway',
      footway: 'crossing',
      crossing: signal ? 'traffic_signals' : 'marked',
      'crossing:markings': 'zebra',
      surface: 'asphalt',
    });
  }

  /** A refuge island in the middle of a boulevard where the crossing at v meets it. */
  private island(avenue: RoadLine, i: number, j: number, q: number, v: number, signal: boolean): void {
    const c = this.c,
      u = this.u(i),
      w = 1.2,
      len = c.range(3.5, 6);
    c.ring(
      [
        [u - w, v - len],
        [u + w, v - len],
        [u + w, v + len],
        [u - w, v + len],
      ],
      { 'area:highway': 'traffic_island', surface: 'concrete', kerb: 'raised' },
    );
    const west = c.node(u - w, v),
      east = c.node(u + w, v);
    const x = this.roadNode(avenue, v, { ...crossingNode(signal), 'crossing:island': 'yes', traffic_calming: 'island' });
    this.crossing([this.corner(i, j, -1, q), west], signal);
    c.way([west, x, east], { highway: 'footway', footway: 'traffic_island', surface: 'concrete' });
    this.crossing([east, this.corner(i, j, 1, q)], signal);
  }

  private emitRoad(road: RoadLine): void {
    const c = this.c;
    const pitch = road.avenue ? STREET_PITCH : AVENUE_PITCH,
      base = road.avenue ? this.offV : this.offU;
    const cls = road.tags.highway;
    // OSM splits a road where its tags change: at some junctions, and where turn lanes begin
    const turnLanes = TURN_LANE_SPLIT[cls] ?? 0,
      atJunction = JUNCTION_SPLIT[cls] ?? 1;
    const junctions = new Set(road.junctions.values());
    for (const k of road.junctions.keys())
      if (road.junctions.has(k + 1) && !road.pedestrian.has(k) && c.chance(turnLanes)) this.roadNode(road, base + (k + 1 - 0.3) * pitch, undefined, true);
    for (const s of road.chain.stations) {
      if (!junctions.has(s.id)) continue;
      const k = Math.round((s.t - base) / pitch);
      s.cut = road.pedestrian.has(k) || road.pedestrian.has(k - 1) || c.chance(atJunction);
    }
    for (const piece of road.chain.pieces()) {
      const k = Math.floor((piece.t0 + 1e-6 - base) / pitch);
      const pedestrian = road.pedestrian.has(k);
      const tags: Tags = pedestrian ? { highway: 'pedestrian', name: road.tags.name, surface: 'paving_stones', lit: 'yes' } : { ...road.tags };
      if (!pedestrian && piece.t1 - piece.t0 < pitch * 0.35) tags['turn:lanes'] = road.tags.lanes === '2' ? 'left|through' : 'left|through|through|right';
      c.way(road.reverse ? [...piece.refs].reverse() : piece.refs, tags);
    }
  }

  private emitSidewalk(f: Face): void {
    const c = this.c;
    const i = f.road.avenue ? f.road.index : f.k,
      j = f.road.avenue ? f.k : f.road.index;
    const [a, b] = f.road.avenue
      ? [this.corner(i, j, f.side, 1), this.corner(i, j + 1, f.side, -1)]
      : [this.corner(i, j, 1, f.side), this.corner(i + 1, j, -1, f.side)];
    f.chain.add(f.t0, a);
    f.chain.add(f.t1, b);
    const surface = c.pick(['concrete', 'concrete', 'paving_stones']);
    for (const p of f.chain.pieces()) {
      const tags: Tags = { highway: 'footway', footway: 'sidewalk', surface, lit: 'yes' };
      if (c.chance(0.3)) tags.width = f.road.avenue ? '3' : '2.5';
      c.way(p.refs, tags);
    }
  }
}

/** Chance that a road is split at a junction, and before a junction where turn lanes begin, by class. */
const JUNCTION_SPLIT: Record<string, number> = { primary: 1, secondary: 1, tertiary: 1, residential: 1 };
const TURN_LANE_SPLIT: Record<string, number> = { primary: 0.03, secondary: 0.99, tertiary: 0.2, residential: 0.57 };

function crossingNode(signal: boolean): Tags {
  return { highway: 'crossing', crossing: signal ? 'traffic_signals' : 'marked', 'crossing:markings': 'zebra' };
}

export function ordinal(n: number): string {
  const t = n % 100;
  const s = t >= 11 && t <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}
