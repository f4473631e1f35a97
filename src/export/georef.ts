/**
 * Where an export's coordinates come from (docs/spec.md "Export object"; docs/exports.md):
 * `export.crs` is the local frame or a projected EPSG code in metres, international feet or US
 * survey feet; the scene is in that CRS's grid axes (x = grid east, y = grid north, z up), in
 * `export.units`, either relative to the origin's grid position (`anchor`) or as full grid
 * coordinates (`absolute`).
 *
 * `units: ft` on a CRS in US survey feet means US survey feet, so absolute numbers are the
 * CRS's own grid numbers (international feet would be 2 ppm off: 2 ft at 1,000,000 ft).
 */
import proj4 from 'proj4';
import { ApiError } from '../contract/errors.ts';
import { lookupEpsg } from '../frame/epsg.ts';
import { localFrameDefinition } from '../frame/local-frame.ts';
import { METRES_PER_UNIT, type ExportGeoreference, type ExportUnits } from './scene.ts';

/** Metres per grid unit of the CRS units we accept. */
const GRID_UNITS: Record<string, number> = { metre: 1, foot: 0.3048, 'US survey foot': 1200 / 3937 };

export interface ExportCrs {
  crs: 'local' | number;
  proj4?: string;
  /** Registry name (`WGS 84 / UTM zone 32N`), absent for local. */
  name?: string;
  /** Metres per grid unit. */
  gridUnitMetres: number;
  /** Area of use [north, west, south, east] and its words, from the registry. */
  bbox?: [number, number, number, number];
  area?: string;
}

/** How far (degrees) outside its registered area of use a CRS is still accepted: neighbouring UTM zones are common practice. */
const AREA_MARGIN_DEG = 2;

/** Checks `export.crs` against the EPSG registry; 400 `invalid_setting` for anything but a projected CRS in m/ft/US ft. */
export function resolveExportCrs(crs: string): ExportCrs {
  if (crs === 'local') return { crs: 'local', gridUnitMetres: 1 };
  const code = Number(/^EPSG:(\d+)$/.exec(crs)?.[1]);
  const entry = lookupEpsg(code);
  const reject = (why: string) => new ApiError('invalid_setting', `export.crs ${crs} cannot be used: ${why}`, [{ path: ['export', 'crs'], message: why }]);
  if (!entry) throw reject('the EPSG registry has no usable definition of this code.');
  if (entry.kind !== 'CRS-PROJCRS')
    throw reject(
      `it is ${entry.kind === 'CRS-GEOGCRS' ? 'a geographic CRS (degrees)' : `not a projected CRS (${entry.kind})`}; give a projected CRS in metres or feet, e.g. a UTM zone.`,
    );
  const gridUnitMetres = entry.unit ? GRID_UNITS[entry.unit] : undefined;
  if (!gridUnitMetres) throw reject(`its unit is ${entry.unit ?? 'unknown'}; projected CRSs in metres, international feet or US survey feet are supported.`);
  try {
    // proj4js cannot apply grid-shift files (+nadgrids=<file>): such a definition would be silently wrong
    if (/\+nadgrids=(?!@null)/.test(entry.proj4)) throw new Error('grid shift');
    proj4(entry.proj4);
  } catch {
    throw reject('its definition needs a datum grid-shift file this server does not have.');
  }
  return { crs: code, proj4: entry.proj4, name: entry.name, gridUnitMetres, ...(entry.bbox ? { bbox: entry.bbox, area: entry.area ?? '' } : {}) };
}

export interface ExportFrame {
  georef: ExportGeoreference;
  units: ExportUnits;
  /** Rewrites local z-up metres (x east, y north of the origin) in place into scene coordinates. */
  transform(p: Float64Array): void;
}

export interface ExportFrameOptions {
  /** [latitude, longitude] of the request origin. */
  origin: readonly [number, number];
  crs: ExportCrs;
  placement: 'anchor' | 'absolute';
  units: ExportUnits;
}

/** Metres per scene unit: the CRS's own foot when `ft` is asked on a CRS in feet. */
export function sceneUnitMetres(crs: ExportCrs, units: ExportUnits): number {
  return units === 'ft' && crs.gridUnitMetres !== 1 ? crs.gridUnitMetres : METRES_PER_UNIT[units];
}

export function createExportFrame(o: ExportFrameOptions): ExportFrame {
  const [lat, lon] = o.origin;
  if (o.crs.bbox && !withinArea(o.crs.bbox, lat, lon)) {
    const why = `the origin (${lat.toFixed(4)}, ${lon.toFixed(4)}) lies outside its area of use: ${o.crs.area}`;
    throw new ApiError('invalid_setting', `export.crs EPSG:${o.crs.crs} cannot be used here: ${why}`, [{ path: ['export', 'crs'], message: why }]);
  }
  const unit = sceneUnitMetres(o.crs, o.units);
  const toGrid = o.crs.proj4 ? proj4(localFrameDefinition(lat, lon), o.crs.proj4) : null;
  /** Local metres → grid metres. */
  const grid = (x: number, y: number): [number, number] => {
    if (!toGrid) return [x, y];
    const [e, n] = toGrid.forward([x, y]) as [number, number];
    return [e * o.crs.gridUnitMetres, n * o.crs.gridUnitMetres];
  };
  const originM = grid(0, 0);
  if (!Number.isFinite(originM[0]) || !Number.isFinite(originM[1])) {
    throw new ApiError('invalid_setting', `export.crs EPSG:${o.crs.crs} does not cover this area.`, [
      { path: ['export', 'crs'], message: 'the origin does not project into this CRS' },
    ]);
  }
  const north = grid(0, 1);
  // Angle from true north (the local frame's +y) to grid north, counter-clockwise: grid north is this far left of true north
  const gridConvergence = toGrid ? Math.atan2(north[0] - originM[0], north[1] - originM[1]) : 0;
  const shift = o.placement === 'absolute' ? [0, 0] : originM;
  return {
    units: o.units,
    georef: {
      crs: o.crs.crs,
      proj4: o.crs.proj4,
      origin: { lat, lon },
      originGrid: [originM[0] / unit, originM[1] / unit],
      gridConvergence,
      placement: o.placement,
    },
    transform(p) {
      if (!toGrid) {
        // the local frame: no projection, so no pair per point
        for (let i = 0; i < p.length; i += 3) {
          p[i] = (p[i] - shift[0]) / unit;
          p[i + 1] = (p[i + 1] - shift[1]) / unit;
          p[i + 2] /= unit;
        }
        return;
      }
      for (let i = 0; i < p.length; i += 3) {
        const [e, n] = grid(p[i], p[i + 1]);
        p[i] = (e - shift[0]) / unit;
        p[i + 1] = (n - shift[1]) / unit;
        p[i + 2] /= unit;
      }
    },
  };
}

/** Inside [north, west, south, east] widened by AREA_MARGIN_DEG (west > east: the box crosses 180°). */
function withinArea([north, west, south, east]: [number, number, number, number], lat: number, lon: number): boolean {
  const m = AREA_MARGIN_DEG;
  if (lat > north + m || lat < south - m) return false;
  if (west - m <= -180 && east + m >= 180) return true;
  const w = west - m,
    e = east + m;
  const l = (((lon - w) % 360) + 360) % 360; // degrees east of the widened west edge
  const width = (((e - w) % 360) + 360) % 360;
  return l <= width;
}
