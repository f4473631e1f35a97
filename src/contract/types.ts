/**
 * The validated, defaulted request every later stage works with. src/contract/parse-request.ts turns
 * a raw body into this (zod schema + polygon rules); nothing downstream re-validates.
 */

import type { GeometryGroup } from './groups.ts';

export type { GeometryGroup };

export const ROOF_TYPES = [
  'flat',
  'hipped',
  'gabled',
  'onion',
  'dome',
  'round',
  'skillion',
  'mansard',
  'quadrupleSaltbox',
  'saltbox',
  'gambrel',
  'pyramidal',
] as const;
export type RoofType = (typeof ROOF_TYPES)[number];

export const EXPORT_FORMATS = ['obj', '3dm', 'dxf', 'skp', 'glb', 'gltf', 'ifc', 'rvt', 'stl', 'ply', 'dae'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type SurfaceType = 'meshes' | 'centerlines' | 'outlines';
export type OutputCrs = 'local' | 'EPSG:3857' | 'UTM';

export interface Settings {
  /** Canonical groups to build, deduplicated, in the caller's order; `topography` added when topographyModel is true. */
  geometry: GeometryGroup[];
  /** For each requested group that has aliases, the name the caller used first (`infrastructure` for instances): the response uses it. */
  groupNames: Partial<Record<GeometryGroup, string>>;
  surfaceTypes: SurfaceType[];
  cropScene: boolean;
  defaultRoofType: RoofType;
  defaultLevels: number;
  defaultLevelHeight: number;
  buildingSources: 'all' | 'global';
  treeSource: 'standard' | 'hybrid' | 'canopy';
  canopyMinHeight: number;
  canopyMinSpacing: number;
  canopyMaxTrees: number;
  topographyModel: boolean;
  topographyReturnType: 'meshes' | 'elevationMap' | 'both';
  combineElevationMaps: boolean;
  projectToTopography: boolean;
  disableSurfaceProjection: boolean;
  crs: OutputCrs;
  upAxis: 'Y' | 'Z';
  indexedMeshes: boolean;
}

export interface ExportRequest {
  format: ExportFormat;
  /** `local` or `EPSG:<code>`. */
  crs: string;
  placement: 'anchor' | 'absolute';
  units: 'm' | 'mm' | 'ft' | 'in';
  surfaceType: SurfaceType;
}

export interface ContextRequest {
  /** Closed ring of [latitude, longitude] pairs, as given. */
  polygon: [number, number][];
  /** [latitude, longitude]; the first polygon vertex when not given. */
  origin: [number, number];
  settings: Settings;
  export?: ExportRequest;
  /** Geodesic area of the polygon in km² (turf's spherical model). */
  areaKm2: number;
}
