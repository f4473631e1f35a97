/**
 * What the format readers hand over: buildings in the file's own coordinates, each with its parts
 * and their semantic surfaces at the level of detail chosen for them. Everything format-specific
 * stays in the readers; reprojection and storage take it from here.
 */

/** Semantic classes of a surface, as CityGML/CityJSON name them; stored as the index in this list. */
export const SURFACE_CLASSES = [
  'unknown',
  'RoofSurface',
  'WallSurface',
  'GroundSurface',
  'ClosureSurface',
  'OuterCeilingSurface',
  'OuterFloorSurface',
  'Window',
  'Door',
] as const;
export type SurfaceClass = (typeof SURFACE_CLASSES)[number];

export function surfaceClassCode(name: string | null | undefined): number {
  const i = name ? SURFACE_CLASSES.indexOf(name as SurfaceClass) : -1;
  return i < 0 ? 0 : i;
}

/** One planar polygon: rings as flat x,y,z in the file's CRS (first ring outer, others holes; no closing duplicate needed). */
export interface SourceSurface {
  /** Index into SURFACE_CLASSES. */
  cls: number;
  rings: number[][];
}

/** Levels of detail the import uses: 2 (roofs and walls), 1 (blocks), 0 (footprint + measuredHeight). */
export type Lod = 0 | 1 | 2;

export interface SourcePart {
  /** The object's id in the file. */
  id: string;
  lod: Lod;
  surfaces: SourceSurface[];
  roofType: string | null;
  measuredHeight: number | null;
  name: string | null;
}

export interface SourceBuilding {
  id: string;
  name: string | null;
  roofType: string | null;
  measuredHeight: number | null;
  /** The building's own geometry first when it has some, then its parts (and theirs), in file order. */
  parts: SourcePart[];
}

/** Something the reader left out, for the import report (never silently). */
export interface SkipNote {
  /** The object's id in the file. */
  id: string;
  reason: string;
}

/** A building; an object left out (`skip`); or something a kept building lacks (`note`, e.g. an unresolved reference). */
export type ReaderItem = { kind: 'building'; building: SourceBuilding } | { kind: 'skip'; note: SkipNote } | { kind: 'note'; note: SkipNote };

/** What the reader found in the file's header before or beside its objects. */
export interface SourceHeader {
  /** The CRS name as written in the file, or null. */
  crs: string | null;
  /** Format and version, e.g. `CityJSON 1.1`, `CityGML 1.0`. */
  format: string;
}

/** The LoD level of a `lod` value ("2.2" → 2), or null when it is not 0, 1 or 2. */
export function lodLevel(value: unknown): Lod | null {
  const n = Math.floor(Number(value));
  return n === 0 || n === 1 || n === 2 ? n : null;
}

export interface ReadProgress {
  /** 1 or 2 for formats read twice (single-file CityJSON), else 1. */
  pass: number;
  passes: number;
  bytesRead: number;
  totalBytes: number;
}

/** What a reader tells the import as it goes; `header` comes before the first item. */
export interface ReaderCallbacks {
  header(header: SourceHeader): void;
  item(item: ReaderItem): void;
  /** A city object that is not a building (counted per type in the report). */
  ignored(type: string): void;
  progress?(progress: ReadProgress): void;
}
