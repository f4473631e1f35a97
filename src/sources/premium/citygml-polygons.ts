/**
 * The polygons a CityGML building collects while it is read, and how they become the surfaces of
 * each of its objects once the building has closed: xlink:href references resolved against the
 * polygons and surface groups (MultiSurface, CompositeSurface, Solid…) with a gml:id anywhere in
 * the building, then the best LoD (2, else 1, else 0) of each object, each polygon once.
 */
import type { PartResult } from './cityjson-object.ts';
import type { Lod, SourceSurface } from './source-model.ts';

export interface GmlPolygon {
  id: string | null;
  /** The LoD of the lodN… property it sits in, or null outside one. */
  lod: number | null;
  cls: number;
  rings: number[][];
  /** Index of the object (building or part) it belongs to. */
  owner: number;
}

export interface GmlReference {
  target: string;
  lod: number | null;
  cls: number;
  owner: number;
}

export interface GmlObject {
  id: string;
  name: string | null;
  roofType: string | null;
  measuredHeight: number | null;
}

/** Everything one top-level building holds, its parts included. */
export class GmlBuildingGeometry {
  readonly polygons: GmlPolygon[] = [];
  readonly references: GmlReference[] = [];
  readonly polygonById = new Map<string, number>();
  /** gml:id of a surface group → the polygons [start, end) read inside it. */
  readonly groups = new Map<string, [number, number]>();

  /** Plain data for staging a building until the references it could not resolve are found. */
  toJSON(): object {
    return { polygons: this.polygons, references: this.references, groups: [...this.groups] };
  }

  static fromJSON(data: { polygons: GmlPolygon[]; references: GmlReference[]; groups: [string, [number, number]][] }): GmlBuildingGeometry {
    const geometry = new GmlBuildingGeometry();
    for (const p of data.polygons) geometry.addPolygon(p);
    geometry.references.push(...data.references);
    for (const [id, range] of data.groups) geometry.groups.set(id, range);
    return geometry;
  }

  /**
   * Takes in the polygons `elsewhere` (collected from the rest of the file) holds under `targets`:
   * they join this building only through its references (no LoD of their own here), and a
   * reference without an LoD context takes the one the polygon had where it was defined.
   */
  adopt(elsewhere: GmlBuildingGeometry, targets: Iterable<string>): void {
    for (const target of targets) {
      if (this.polygonById.has(target) || this.groups.has(target)) continue;
      const found = elsewhere.resolve(target);
      if (!found) continue;
      const start = this.polygons.length;
      for (const i of found) this.addPolygon({ ...elsewhere.polygons[i], lod: null, owner: 0 });
      if (!elsewhere.polygonById.has(target)) this.groups.set(target, [start, this.polygons.length]);
      for (const ref of this.references) if (ref.target === target && ref.lod === null) ref.lod = elsewhere.polygons[found[0]]?.lod ?? null;
    }
  }

  addPolygon(polygon: GmlPolygon): void {
    if (polygon.id) this.polygonById.set(polygon.id, this.polygons.length);
    this.polygons.push(polygon);
  }

  /** The polygons a reference points to, or null when nothing in the building has that id. */
  resolve(target: string): number[] | null {
    const one = this.polygonById.get(target);
    if (one !== undefined) return [one];
    const group = this.groups.get(target);
    if (!group) return null;
    const out: number[] = [];
    for (let i = group[0]; i < group[1]; i++) out.push(i);
    return out;
  }

  /**
   * Each object's part (by object index), and the references that point outside the building.
   * A polygon both defined in a boundedBy surface and referenced from a solid counts once, with
   * the semantic class of whichever use names one.
   */
  parts(objects: readonly GmlObject[]): { results: PartResult[]; unresolved: string[] } {
    type Use = { polygon: number; lod: number; cls: number };
    const uses: Use[][] = objects.map(() => []);
    const unresolved: string[] = [];
    this.polygons.forEach((p, i) => {
      if (p.lod !== null) uses[p.owner].push({ polygon: i, lod: p.lod, cls: p.cls });
    });
    for (const ref of this.references) {
      const targets = this.resolve(ref.target);
      if (!targets) {
        unresolved.push(ref.target);
        continue;
      }
      for (const t of targets) {
        const lod = ref.lod ?? this.polygons[t].lod;
        if (lod !== null) uses[ref.owner].push({ polygon: t, lod, cls: ref.cls || this.polygons[t].cls });
      }
    }
    const results = objects.map((object, o): PartResult => {
      const base = { id: object.id, roofType: object.roofType, measuredHeight: object.measuredHeight, name: object.name };
      const own = uses[o].filter((u) => u.lod >= 0 && u.lod <= 2);
      if (uses[o].length === 0) return { part: { ...base, lod: 2, surfaces: [] } };
      if (own.length === 0) return { skip: `only LoD${[...new Set(uses[o].map((u) => u.lod))].join('/')} geometry` };
      const lod = Math.max(...own.map((u) => u.lod)) as Lod;
      const byPolygon = new Map<number, number>();
      for (const u of own) if (u.lod === lod && !byPolygon.get(u.polygon)) byPolygon.set(u.polygon, u.cls);
      const surfaces: SourceSurface[] = [];
      for (const [i, cls] of byPolygon) {
        const rings = this.polygons[i].rings.filter((r) => r.length >= 9);
        if (rings.length > 0) surfaces.push({ cls, rings });
      }
      if (surfaces.length === 0) return { skip: `LoD${lod} geometry without a polygon of three points` };
      if (lod === 0 && object.measuredHeight === null) return { skip: 'only an LoD0 footprint and no measuredHeight to raise it by' };
      return { part: { ...base, lod, surfaces } };
    });
    return { results, unresolved };
  }
}
