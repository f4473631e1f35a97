/**
 * The OSM entities of the synthetic dense city (test/support/generators/dense-city.ts) as they are made: a street
 * grid turned GRID_ANGLE like Manhattan's, grid coordinates (u along the streets, v along the
 * avenues) placed in a local frame, nodes/ways/relations numbered in order, and the seeded
 * random choices every generator draws from.
 */
import type { LocalFrame } from '../../../src/frame/local-frame.ts';
import type { NodeInput, RelationInput, WayInput } from './pbf-writer.ts';

export const GRID_ANGLE = (29 * Math.PI) / 180;

export type Tags = Record<string, string>;
/** Axis-aligned rectangle in grid coordinates (u along the streets, v along the avenues). */
export interface Rect {
  u0: number;
  v0: number;
  u1: number;
  v1: number;
}
export type Pt = [number, number];

export const fmt = (x: number) => String(Math.round(x * 10) / 10);
export const corners = (r: Rect): Pt[] => [
  [r.u0, r.v0],
  [r.u1, r.v0],
  [r.u1, r.v1],
  [r.u0, r.v1],
];

export class CityBuilder {
  readonly nodes: NodeInput[] = [];
  readonly ways: WayInput[] = [];
  readonly relations: RelationInput[] = [];
  private readonly cos = Math.cos(GRID_ANGLE);
  private readonly sin = Math.sin(GRID_ANGLE);
  private readonly half: number;

  constructor(
    private readonly frame: LocalFrame,
    side: number,
    readonly rnd: () => number,
  ) {
    this.half = side / 2;
  }

  range(a: number, b: number): number {
    return a + (b - a) * this.rnd();
  }
  int(a: number, b: number): number {
    return a + Math.floor((b - a + 1) * this.rnd());
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rnd() * items.length)];
  }
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

  /** A new node a fraction `f` of the way from node `a` to node `b` (straight in degrees: fine over a building). */
  between(a: number, b: number, f: number, tags?: Tags): number {
    const p = this.nodes[a - 1],
      q = this.nodes[b - 1];
    const id = this.nodes.length + 1;
    const lon = p.lon + f * (q.lon - p.lon),
      lat = p.lat + f * (q.lat - p.lat);
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
