/**
 * One CityJSON CityObject (1.0, 1.1, 2.0 and CityJSONFeature members alike) into a SourcePart:
 * the geometry of the best level of detail (LoD2, else LoD1, else an LoD0 footprint with its
 * measuredHeight), its polygons with their semantic class. Pure: vertices come from a lookup.
 */
import { lodLevel, surfaceClassCode, type Lod, type SourcePart, type SourceSurface } from './source-model.ts';

export interface CityJsonGeometry {
  type: string;
  lod?: string | number;
  boundaries: unknown;
  semantics?: { surfaces?: { type?: string }[]; values?: unknown };
}

export interface CityJsonObject {
  type: string;
  attributes?: Record<string, unknown>;
  parents?: string[];
  children?: string[];
  geometry?: CityJsonGeometry[];
}

/** x, y, z of vertex `index` in the file's CRS (transform applied); throws on an index out of range. */
export type VertexLookup = (index: number) => readonly [number, number, number];

/** Nesting depth of the surfaces list in `boundaries` per geometry type (the ring and index levels come below). */
const SURFACE_DEPTH: Record<string, number> = { MultiSurface: 0, CompositeSurface: 0, Solid: 1, MultiSolid: 2, CompositeSolid: 2 };

export const isBuildingType = (type: string) => type === 'Building' || type === 'BuildingPart';

/** The geometry to use and its level: the highest LoD of level 2, else 1, else 0; null when there is none. */
export function chooseGeometry(geometries: readonly CityJsonGeometry[] | undefined): { geometry: CityJsonGeometry; lod: Lod } | null {
  let best: { geometry: CityJsonGeometry; lod: Lod; value: number } | null = null;
  for (const geometry of geometries ?? []) {
    if (!(geometry.type in SURFACE_DEPTH)) continue;
    const lod = lodLevel(geometry.lod);
    if (lod === null) continue;
    const value = Number(geometry.lod);
    if (!best || lod > best.lod || (lod === best.lod && value > best.value)) best = { geometry, lod, value };
  }
  return best && { geometry: best.geometry, lod: best.lod };
}

/** Every vertex index the geometry refers to, as [min, max] (null when it has none). */
export function vertexRange(geometry: CityJsonGeometry): [number, number] | null {
  let min = Infinity,
    max = -Infinity;
  const visit = (v: unknown): void => {
    if (typeof v === 'number') {
      if (v < min) min = v;
      if (v > max) max = v;
    } else if (Array.isArray(v)) for (const w of v) visit(w);
  };
  visit(geometry.boundaries);
  return min <= max ? [min, max] : null;
}

/** The polygons of a geometry (surfaces → rings → vertex indices at SURFACE_DEPTH) with their semantic class. */
export function surfacesOf(geometry: CityJsonGeometry, vertexAt: VertexLookup): SourceSurface[] {
  const depth = SURFACE_DEPTH[geometry.type];
  const semanticTypes = (geometry.semantics?.surfaces ?? []).map((s) => surfaceClassCode(s?.type));
  const out: SourceSurface[] = [];
  const walk = (boundaries: unknown, values: unknown, level: number): void => {
    if (!Array.isArray(boundaries)) throw new Error(`${geometry.type} boundaries are not nested arrays`);
    for (let i = 0; i < boundaries.length; i++) {
      const value = Array.isArray(values) ? values[i] : null;
      if (level < depth) {
        walk(boundaries[i], value, level + 1);
        continue;
      }
      const surface = boundaries[i];
      if (!Array.isArray(surface)) throw new Error(`${geometry.type} surface ${i} is not a list of rings`);
      const rings: number[][] = [];
      for (const ring of surface) {
        if (!Array.isArray(ring)) throw new Error(`${geometry.type} ring is not a list of vertex indices`);
        const flat: number[] = [];
        for (const index of ring) {
          if (!Number.isInteger(index)) throw new Error(`vertex index ${String(index)} is not an integer`);
          const [x, y, z] = vertexAt(index as number);
          flat.push(x, y, z);
        }
        rings.push(flat);
      }
      const cls = typeof value === 'number' ? (semanticTypes[value] ?? 0) : 0;
      if (rings.length > 0 && rings[0].length >= 9) out.push({ cls, rings });
    }
  };
  walk(geometry.boundaries, geometry.semantics?.values, 0);
  return out;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);
const number = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number.parseFloat(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

export type PartResult = { part: SourcePart } | { skip: string };

/**
 * The part a Building or BuildingPart contributes, or why it has no usable geometry. An object
 * without any geometry (a Building that only groups its parts) is `{ part }` with no surfaces.
 */
export function cityObjectPart(id: string, object: CityJsonObject, vertexAt: VertexLookup): PartResult {
  const attributes = object.attributes ?? {};
  const base = {
    id,
    roofType: text(attributes.roofType),
    measuredHeight: number(attributes.measuredHeight),
    name: text(attributes.name),
  };
  if (!object.geometry || object.geometry.length === 0) return { part: { ...base, lod: 2, surfaces: [] } };
  const chosen = chooseGeometry(object.geometry);
  if (!chosen) {
    const kinds = object.geometry.map((g) => `${g.type} LoD${String(g.lod)}`).join(', ');
    return { skip: `no LoD0-2 surface geometry (${kinds})` };
  }
  const surfaces = surfacesOf(chosen.geometry, vertexAt);
  if (surfaces.length === 0) return { skip: `LoD${String(chosen.geometry.lod)} ${chosen.geometry.type} has no polygon` };
  if (chosen.lod === 0 && base.measuredHeight === null) return { skip: 'only an LoD0 footprint and no measuredHeight to raise it by' };
  return { part: { ...base, lod: chosen.lod, surfaces } };
}
