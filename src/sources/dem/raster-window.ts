import type { LonLatToCrs } from './crs.ts';
import type { DemAttribution, ElevationWindow } from './types.ts';

/**
 * Where a raster's pixels are: its CRS and the affine placement of pixel *centres*. Pixel-is-area
 * and pixel-is-point files differ by half a pixel here and nowhere else.
 */
export interface RasterGeoref {
  /** proj4 definition of the raster CRS. */
  crs: string;
  width: number;
  height: number;
  /** CRS coordinates of the centre of pixel (0, 0). */
  x0: number;
  y0: number;
  /** CRS step per column and per row (dy < 0 for north-up rasters). */
  dx: number;
  dy: number;
}

/** A window that can also say whether a point lies inside its raster's pixel-centre hull. */
export interface EdgeAwareWindow extends ElevationWindow {
  /** Like `sample`, but NaN within half a pixel of the raster's edge (where `sample` extends edge pixels). */
  sampleInterior(lon: number, lat: number): number;
}

/**
 * Decoded pixels [col0, col0+width) × [row0, row0+height) of a raster, NaN where no data exists,
 * sampled bilinearly between pixel centres.
 */
export class RasterWindow implements EdgeAwareWindow {
  constructor(
    private readonly georef: RasterGeoref,
    private readonly toCrs: LonLatToCrs,
    readonly col0: number,
    readonly row0: number,
    readonly width: number,
    readonly height: number,
    readonly data: Float32Array,
    readonly attributions: readonly DemAttribution[],
  ) {}

  get byteSize(): number {
    return this.data.byteLength;
  }

  sample(lon: number, lat: number): number {
    return this.sampleAt(lon, lat, true);
  }

  sampleInterior(lon: number, lat: number): number {
    return this.sampleAt(lon, lat, false);
  }

  private sampleAt(lon: number, lat: number, extendEdges: boolean): number {
    const g = this.georef;
    const [x, y] = this.toCrs.forward(lon, lat);
    let fc = (x - g.x0) / g.dx;
    let fr = (y - g.y0) / g.dy;
    const slack = extendEdges ? 0.5 : 1e-9;
    if (!(fc >= -slack && fc <= g.width - 1 + slack && fr >= -slack && fr <= g.height - 1 + slack)) return NaN;
    fc = Math.min(Math.max(fc, 0), g.width - 1) - this.col0;
    fr = Math.min(Math.max(fr, 0), g.height - 1) - this.row0;
    return bilinear(this.data, this.width, this.height, fc, fr);
  }
}

/**
 * Bilinear value at fractional pixel (fc, fr) of a row-major grid; NaN outside it or when a
 * neighbour with non-zero weight is NaN.
 */
export function bilinear(data: ArrayLike<number>, width: number, height: number, fc: number, fr: number): number {
  if (!(fc >= 0 && fc <= width - 1 && fr >= 0 && fr <= height - 1)) return NaN;
  const c = Math.min(Math.floor(fc), Math.max(width - 2, 0));
  const r = Math.min(Math.floor(fr), Math.max(height - 2, 0));
  const tx = fc - c,
    ty = fr - r;
  const c1 = Math.min(c + 1, width - 1),
    r1 = Math.min(r + 1, height - 1);
  let sum = 0;
  sum += term(data[r * width + c], (1 - tx) * (1 - ty));
  sum += term(data[r * width + c1], tx * (1 - ty));
  sum += term(data[r1 * width + c], (1 - tx) * ty);
  sum += term(data[r1 * width + c1], tx * ty);
  return sum;
}

/** A weighted corner; a NaN corner with zero weight (sample exactly on a pixel row/column) is ignored. */
function term(value: number, weight: number): number {
  return weight === 0 ? 0 : value * weight;
}

/** A window with no data (the request lies outside the source). */
export const EMPTY_WINDOW: EdgeAwareWindow = {
  sample: () => NaN,
  sampleInterior: () => NaN,
  attributions: [],
  byteSize: 0,
};
