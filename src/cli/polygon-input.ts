/**
 * `--polygon` and `--bbox` to the API's polygon ([lat, lon] pairs, closed). `--polygon` is a
 * GeoJSON or KML file (`-` reads standard input), or the pairs themselves: `"lat,lon lat,lon …"`.
 * Nothing here checks the polygon against the API's rules: the request parser does that, so a bad
 * polygon gets the API's own message.
 */
import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from './command.ts';
import { polygonFromGeoJson, type PolygonInput } from './geojson-polygon.ts';
import { polygonFromKml } from './kml-polygon.ts';

export type { PolygonInput };

const NUMBER = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`;
const PAIR = new RegExp(String.raw`^\s*(${NUMBER})\s*,\s*(${NUMBER})\s*`);
const PAIRS = new RegExp(String.raw`^\s*${NUMBER}\s*,\s*${NUMBER}(?:[\s;]+${NUMBER}\s*,\s*${NUMBER})*[\s;]*$`);

/** The polygon `--polygon` names: a file when one is there (or `-`), else `lat,lon` pairs. */
export function readPolygonArg(arg: string, readFile: (path: string | 0) => string = (p) => readFileSync(p, 'utf8')): PolygonInput {
  if (arg === '-') return polygonFromText(readFile(0), 'standard input');
  if (PAIRS.test(arg) && !existsSync(arg)) return { ring: polygonFromPairs(arg), notes: [] };
  if (!existsSync(arg)) throw new UsageError(`--polygon: no file "${arg}", and not "lat,lon lat,lon …" pairs either`);
  return polygonFromText(readFile(arg), arg);
}

/** GeoJSON or KML, told apart by the first character (a KMZ is a zip: unzip its doc.kml first). */
export function polygonFromText(text: string, source: string): PolygonInput {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<')) return polygonFromKml(start);
  if (start.startsWith('{')) {
    let doc: unknown;
    try {
      doc = JSON.parse(start);
    } catch (err) {
      throw new UsageError(`${source} is not valid JSON: ${(err as Error).message}`);
    }
    return polygonFromGeoJson(doc);
  }
  if (start.startsWith('PK')) throw new UsageError(`${source} looks like a KMZ (zipped KML): unzip it and give its doc.kml`);
  throw new UsageError(`${source} is neither GeoJSON nor KML`);
}

/**
 * `"lat,lon lat,lon …"` (pairs separated by spaces or `;`; a space after the comma is allowed, as
 * map sites copy it), latitude first as the API. The ring is closed here when its last pair is not
 * its first: typing the first corner twice is easy to forget.
 */
export function polygonFromPairs(text: string): [number, number][] {
  if (!PAIRS.test(text)) throw new UsageError(`--polygon: "${text}" is not "lat,lon lat,lon …" pairs`);
  const ring: [number, number][] = [];
  let rest = text;
  for (let m = PAIR.exec(rest); m; m = PAIR.exec(rest)) {
    ring.push([Number(m[1]), Number(m[2])]);
    rest = rest.slice(m[0].length).replace(/^[\s;]+/, '');
  }
  const [first, last] = [ring[0], ring[ring.length - 1]];
  if (ring.length > 1 && (first[0] !== last[0] || first[1] !== last[1])) ring.push([first[0], first[1]]);
  return ring;
}

/** `--bbox minLon,minLat,maxLon,maxLat` (GeoJSON's bbox order) as a closed rectangle, counter-clockwise. */
export function polygonFromBbox(text: string): [number, number][] {
  const parts = text.split(',').map((p) => p.trim());
  const [minLon, minLat, maxLon, maxLat] = parts.map(Number);
  if (parts.length !== 4 || parts.some((p) => p === '' || !Number.isFinite(Number(p)))) {
    throw new UsageError(`--bbox: "${text}" is not minLon,minLat,maxLon,maxLat`);
  }
  if (!(minLon < maxLon && minLat < maxLat)) throw new UsageError(`--bbox: the minimum must be below the maximum (minLon,minLat,maxLon,maxLat): "${text}"`);
  return [
    [minLat, minLon],
    [minLat, maxLon],
    [maxLat, maxLon],
    [maxLat, minLon],
    [minLat, minLon],
  ];
}
