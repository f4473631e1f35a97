import proj4 from 'proj4';

/**
 * The local metric frame of a request (docs/design.md): a transverse Mercator projection on the
 * WGS84 ellipsoid, scale 1, centred on the origin, so x = metres east and y = metres north of it.
 */
export interface LocalFrame {
  /** Origin as [latitude, longitude]. */
  readonly origin: readonly [number, number];
  /** proj4 definition of the frame, usable as a source or target CRS. */
  readonly proj4: string;
  /** lon/lat degrees to local metres (x east, y north). */
  toLocal(lon: number, lat: number): [number, number];
  /** local metres to [lon, lat] degrees. */
  toLonLat(x: number, y: number): [number, number];
}

export function localFrameDefinition(originLat: number, originLon: number): string {
  return `+proj=tmerc +lat_0=${originLat} +lon_0=${originLon} +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs`;
}

/** proj4's projection object: forward/inverse on a point in radians (lon, lat) ↔ metres, in place. */
interface ProjectionInPlace {
  forward(p: { x: number; y: number }): unknown;
  inverse(p: { x: number; y: number }): unknown;
}

const D2R = Math.PI / 180;
const R2D = 180 / Math.PI;

/**
 * The frame calls proj4's projection directly on one reused point: the same arithmetic as
 * `proj4(from, to).forward` (bit for bit, checked by the frame's CRS test) without the two
 * arrays and the pipeline dispatch per point, which made projection a tenth of a building's cost.
 */
export function createLocalFrame(originLat: number, originLon: number): LocalFrame {
  return new TransverseMercatorFrame(originLat, originLon);
}

/** A class, not closures: every frame shares one set of methods, so call sites stay monomorphic across requests. */
class TransverseMercatorFrame implements LocalFrame {
  readonly origin: readonly [number, number];
  readonly proj4: string;
  private readonly projection: ProjectionInPlace;
  private readonly point = { x: 0, y: 0 };

  constructor(originLat: number, originLon: number) {
    this.origin = [originLat, originLon];
    this.proj4 = localFrameDefinition(originLat, originLon);
    this.projection = (proj4 as unknown as { Proj(def: string): ProjectionInPlace }).Proj(this.proj4);
  }

  toLocal(lon: number, lat: number): [number, number] {
    const point = this.point;
    point.x = lon * D2R;
    point.y = lat * D2R;
    this.projection.forward(point);
    return [point.x, point.y];
  }

  /** Projects flat [lon0, lat0, …] into a new flat local list, with no pair array per point (a tenth of a tile's allocation). */
  projectFlat(lonLat: ArrayLike<number>): number[] {
    const out = new Array<number>(lonLat.length);
    const point = this.point,
      projection = this.projection;
    for (let i = 0; i < lonLat.length; i += 2) {
      point.x = lonLat[i] * D2R;
      point.y = lonLat[i + 1] * D2R;
      projection.forward(point);
      out[i] = point.x;
      out[i + 1] = point.y;
    }
    return out;
  }

  toLonLat(x: number, y: number): [number, number] {
    const point = this.point;
    point.x = x;
    point.y = y;
    this.projection.inverse(point);
    return [point.x * R2D, point.y * R2D];
  }
}

/** Projects a flat [lon0, lat0, lon1, lat1, …] list into a new flat local [x0, y0, …] list. */
export function projectFlat(frame: LocalFrame, lonLat: ArrayLike<number>): number[] {
  if (frame instanceof TransverseMercatorFrame) return frame.projectFlat(lonLat);
  const out = new Array<number>(lonLat.length);
  for (let i = 0; i < lonLat.length; i += 2) {
    const [x, y] = frame.toLocal(lonLat[i], lonLat[i + 1]);
    out[i] = x;
    out[i + 1] = y;
  }
  return out;
}
