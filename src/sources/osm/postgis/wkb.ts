/**
 * Reads OGC Well-Known Binary (what PostGIS ST_AsBinary returns) into flat coordinate arrays.
 * Only the shapes the osm2pgsql style writes: points, line strings, polygons and collections of them.
 */

export type WkbShape =
  | { type: 'point'; coords: number[] }
  | { type: 'line'; coords: number[] }
  | { type: 'polygon'; rings: number[][] }
  | { type: 'collection'; parts: WkbShape[] };

const TYPES = ['', 'point', 'line', 'polygon', 'collection', 'collection', 'collection', 'collection'] as const;

class Reader {
  private at = 0;
  private little = true;
  constructor(private readonly view: DataView) {}

  shape(): WkbShape {
    this.little = this.view.getUint8(this.at++) === 1;
    const code = this.uint32() % 1000; // ISO Z/M codes add thousands; the style writes 2D only
    const type = TYPES[code];
    if (!type) throw new Error(`unsupported WKB geometry type ${code}`);
    if (type === 'point') return { type, coords: this.points(1) };
    if (type === 'line') return { type, coords: this.points(this.uint32()) };
    if (type === 'polygon') {
      const rings: number[][] = [];
      for (let n = this.uint32(); n > 0; n--) rings.push(this.points(this.uint32()));
      return { type, rings };
    }
    const parts: WkbShape[] = [];
    for (let n = this.uint32(); n > 0; n--) parts.push(this.shape());
    return { type, parts };
  }

  private uint32(): number {
    const v = this.view.getUint32(this.at, this.little);
    this.at += 4;
    return v;
  }

  /** Coordinates snapped to the 1e-7 degree grid OSM stores, so they equal what the SQLite store decodes. */
  private points(count: number): number[] {
    const out = new Array<number>(count * 2);
    for (let i = 0; i < count * 2; i++, this.at += 8) out[i] = Math.round(this.view.getFloat64(this.at, this.little) * 1e7) / 1e7;
    return out;
  }
}

export function readWkb(bytes: Uint8Array): WkbShape {
  return new Reader(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)).shape();
}
