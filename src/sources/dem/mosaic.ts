import { uniqueAttributions } from './attribution.ts';
import { EMPTY_WINDOW, type EdgeAwareWindow } from './raster-window.ts';
import type { DemAttribution, ElevationSource, ElevationWindow, ReadWindowOptions } from './types.ts';
import type { GeoBox } from '../../frame/geo-box.ts';

/**
 * Several sources stitched into one, in priority order (first listed wins where they overlap).
 * A window reads only the sources whose bounds meet it. At a point, a source that can interpolate
 * between its own pixel centres is preferred; only where none can (the half-pixel seam between two
 * pixel-is-area files) does the first source extend its edge pixels. Neighbouring SRTM .hgt tiles
 * share their edge rows, so they stitch exactly.
 */
export class MosaicElevationSource implements ElevationSource {
  readonly id: string;
  readonly bounds: GeoBox;

  constructor(readonly sources: readonly ElevationSource[]) {
    if (sources.length === 0) throw new Error('a mosaic needs at least one source');
    this.id = `mosaic:[${sources.map((s) => s.id).join(',')}]`;
    this.bounds = sources
      .map((s) => s.bounds)
      .reduce((a, b) => ({
        west: Math.min(a.west, b.west),
        south: Math.min(a.south, b.south),
        east: Math.max(a.east, b.east),
        north: Math.max(a.north, b.north),
      }));
  }

  get resolutionDegrees(): number {
    return Math.min(...this.sources.map((s) => s.resolutionDegrees));
  }

  get resolutionMetres(): number {
    return Math.min(...this.sources.map((s) => s.resolutionMetres));
  }

  resolutionMetresAt(lat: number): number {
    const covering = this.sources.filter((s) => lat >= s.bounds.south && lat <= s.bounds.north);
    return Math.min(...(covering.length ? covering : this.sources).map((s) => s.resolutionMetresAt(lat)));
  }

  get attribution(): DemAttribution {
    return this.sources[0].attribution;
  }

  get attributions(): readonly DemAttribution[] {
    return uniqueAttributions(this.sources.flatMap((s) => s.attributions));
  }

  async readWindow(bbox: GeoBox, options?: ReadWindowOptions): Promise<ElevationWindow> {
    const touching = this.sources.filter((s) => intersects(s.bounds, bbox));
    const windows = (await Promise.all(touching.map((s) => s.readWindow(bbox, options)))).filter((w) => w !== EMPTY_WINDOW);
    if (windows.length === 0) return EMPTY_WINDOW;
    if (windows.length === 1) return windows[0];
    return new MosaicWindow(windows);
  }

  async sampleLonLat(lon: number, lat: number): Promise<number> {
    return (await this.readWindow({ west: lon, east: lon, south: lat, north: lat })).sample(lon, lat);
  }

  async close(): Promise<void> {
    await Promise.all(this.sources.map((s) => s.close()));
  }
}

class MosaicWindow implements ElevationWindow {
  readonly attributions: readonly DemAttribution[];
  readonly byteSize: number;

  constructor(private readonly windows: ElevationWindow[]) {
    this.attributions = uniqueAttributions(windows.flatMap((w) => w.attributions));
    this.byteSize = windows.reduce((sum, w) => sum + w.byteSize, 0);
  }

  sample(lon: number, lat: number): number {
    for (const w of this.windows) {
      const v = 'sampleInterior' in w ? (w as EdgeAwareWindow).sampleInterior(lon, lat) : w.sample(lon, lat);
      if (!Number.isNaN(v)) return v;
    }
    for (const w of this.windows) {
      const v = w.sample(lon, lat);
      if (!Number.isNaN(v)) return v;
    }
    return NaN;
  }
}

export function intersects(a: GeoBox, b: GeoBox): boolean {
  return a.west <= b.east && b.west <= a.east && a.south <= b.north && b.south <= a.north;
}
