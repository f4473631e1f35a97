import proj4 from 'proj4';
import type { OutputCrs } from '../contract/types.ts';
import { localFrameDefinition } from './local-frame.ts';
import { utmZoneFor } from './utm.ts';

/**
 * How local z-up metres become the coordinates a client receives (docs/design.md "Local frame"):
 * horizontal CRS (local / EPSG:3857 / UTM) and the up axis. With upAxis Z: x = east, y = north,
 * z = up; with upAxis Y: x = east, y = up, z = south (a proper rotation, so winding is kept).
 */
export interface OutputFrameOptions {
  origin: readonly [number, number];
  crs: OutputCrs;
  upAxis: 'Y' | 'Z';
}

export interface SpatialReference {
  crs: OutputCrs;
  origin?: [number, number];
  utmZoneEPSG?: string;
  zoneString?: string;
  hemisphere?: 'north' | 'south';
  zone?: number;
  letter?: string;
}

export function spatialReferenceFor(opts: OutputFrameOptions): SpatialReference {
  if (opts.crs === 'local') return { crs: 'local', origin: [opts.origin[0], opts.origin[1]] };
  if (opts.crs === 'EPSG:3857') return { crs: 'EPSG:3857' };
  const z = utmZoneFor(opts.origin[0], opts.origin[1]);
  return { crs: 'UTM', utmZoneEPSG: z.epsg, zoneString: z.zoneString, hemisphere: z.hemisphere, zone: z.zone, letter: z.letter };
}

/** The proj4 definition of the horizontal output CRS, or null for the local frame itself. */
function targetDefinition(opts: OutputFrameOptions): string | null {
  if (opts.crs === 'local') return null;
  if (opts.crs === 'EPSG:3857') return 'EPSG:3857';
  return utmZoneFor(opts.origin[0], opts.origin[1]).proj4;
}

/**
 * Returns a function that rewrites a flat xyz (local, z-up) array in place into output
 * coordinates. Projection runs once per vertex, so callers should pass welded vertices.
 */
export function createOutputTransform(opts: OutputFrameOptions): (positions: Float64Array) => void {
  const target = targetDefinition(opts);
  const converter = target ? proj4(localFrameDefinition(opts.origin[0], opts.origin[1]), target) : null;
  const yUp = opts.upAxis === 'Y';
  return (p) => {
    for (let i = 0; i < p.length; i += 3) {
      let x = p[i],
        y = p[i + 1];
      const z = p[i + 2];
      if (converter) [x, y] = converter.forward([x, y]) as [number, number];
      if (yUp) {
        p[i] = x;
        p[i + 1] = z;
        p[i + 2] = -y;
      } else {
        p[i] = x;
        p[i + 1] = y;
        p[i + 2] = z;
      }
    }
  };
}
