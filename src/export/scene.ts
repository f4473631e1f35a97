/**
 * What every export writer gets (src/export/formats/*): the model of one request as groups of
 * features, already in the export's frame and units. Writers are pure functions
 * `(scene: ExportScene) => Uint8Array` (or one file's bytes plus its name suffix); they never
 * read the store, the network or the clock, so each can be tested alone on a made-up scene and
 * judged by an independent reader.
 *
 * Frame: right-handed, **Z up** (x east, y north) in `units`; formats that are Y-up (glTF) turn it
 * themselves. With `placement: 'anchor'` coordinates are relative to the request origin and
 * `georef` says where that origin lies; with `'absolute'` they are grid coordinates of
 * `georef.crs` (Float64Array keeps them exact; a writer limited to float32 must move them with a
 * node/insertion translation and say so).
 */

import type { FilePiece } from './spill.ts';

export type ExportUnits = 'm' | 'mm' | 'ft' | 'in';

/** Metres per unit (international foot and inch). */
export const METRES_PER_UNIT: Record<ExportUnits, number> = { m: 1, mm: 0.001, ft: 0.3048, in: 0.0254 };

/** A group a scene holds: an output's `exportGroup` in the group table (src/contract/groups.ts), listed in the table's order. */
export type ExportGroupName = string;

/** One feature's closed or open triangle mesh (buildings, ground pieces, barriers, terrain tiles). */
export interface ExportMesh {
  /** Stable feature id (`way/123`, `junction/way/1+way/2`, `terrain/3`): node / object name in files. */
  id: string;
  /** Material / layer key: the descriptor's `type` (`building`, `asphalt`, `wall`, `terrain`, …). */
  kind: string;
  /** xyz per vertex, Z up, in the scene's units and placement. */
  positions: Float64Array;
  /** Counter-clockwise (outward / upward) triangles, 3 indices each. */
  indices: Uint32Array;
  /** The JSON response's descriptor, for extras / user strings / property sets. */
  descriptor: Record<string, unknown>;
  /** sRGB colour 0–1 when the data or the kind gives one (writers may fall back to a per-kind palette). */
  colour?: [number, number, number];
}

/** A draped line (surfaceLines: centerlines and piece outlines). */
export interface ExportPolyline {
  id: string;
  /** `centerline` | `outline`, with the surface kind in `descriptor.type`. */
  kind: string;
  /** xyz per vertex, Z up, scene units and placement. */
  points: Float64Array;
  closed: boolean;
  descriptor: Record<string, unknown>;
}

/** A placed instance (tree, bench, …): writers draw a simple symbol or a block/instance reference. */
export interface ExportNode {
  /** Node type (`tree`, `bench`, …; docs/design.md "Nodes"). */
  type: string;
  position: [number, number, number];
  /** Radians, counter-clockwise about Z. */
  rotation: number;
  /** Relative to the type's nominal size. */
  scale: number;
  descriptor: Record<string, unknown>;
}

export interface ExportGroup {
  name: ExportGroupName;
  meshes: ExportMesh[];
  polylines: ExportPolyline[];
  nodes: ExportNode[];
}

export interface ExportGeoreference {
  /** `local` (a transverse Mercator frame at the origin) or a projected EPSG code. */
  crs: 'local' | number;
  /** proj4 definition of `crs` (absent for local). */
  proj4?: string;
  /** The request origin, WGS84 degrees. */
  origin: { lat: number; lon: number };
  /** The origin in `crs` grid coordinates, in the scene's units ([0, 0] for local). */
  originGrid: [number, number];
  /** Angle (radians, counter-clockwise) from the local frame's north to grid north at the origin: 0 for local. */
  gridConvergence: number;
  placement: 'anchor' | 'absolute';
}

export interface ExportScene {
  /** File base name without extension, readable (e.g. `city-context-monaco-43.7335N-7.4190E`). */
  name: string;
  units: ExportUnits;
  georef: ExportGeoreference;
  groups: ExportGroup[];
  /** Credit lines to put in the file's header / metadata (OSM, SRTM). */
  attribution: string[];
}

/**
 * What a streaming writer knows when it opens, before any feature: the scene without its
 * features and attribution (which comes once every tile is in), plus the groups the request has.
 */
export interface ExportSceneHead {
  name: string;
  units: ExportUnits;
  georef: ExportGeoreference;
  /** In the writers' order. */
  groups: readonly ExportGroupName[];
}

/** The head of a whole scene (writers that wrap their streaming form). */
export function sceneHead(scene: ExportScene): ExportSceneHead {
  return { name: scene.name, units: scene.units, georef: scene.georef, groups: scene.groups.map((g) => g.name) };
}

/** A finished file: bytes, extension and MIME type. */
export interface ExportFile {
  bytes: Uint8Array;
  extension: string;
  contentType: string;
}

/**
 * A finished file as a writer returns it: whole, or in pieces written one after the other (the
 * streaming text formats), so the file is never joined in memory — a join would hold it twice.
 * In an export thread that stages its file, text pieces may be spilled to disk (./spill.ts).
 */
export interface FinishedExport {
  bytes: Uint8Array | FilePiece[];
  extension: string;
  contentType: string;
}
