/**
 * A polygon from KML, as Google Earth saves a drawn one: the `<coordinates>` of a Polygon's
 * `outerBoundaryIs` ring, tuples `lon,lat[,alt]` separated by white space.
 */
import { SaxesParser } from 'saxes';
import { UsageError } from './command.ts';
import type { PolygonInput } from './geojson-polygon.ts';

/** Reads the one Polygon of a KML document; UsageError when there is not exactly one. */
export function polygonFromKml(text: string): PolygonInput {
  const outer: string[] = [];
  let polygons = 0;
  let holes = 0;
  const path: string[] = [];
  let collecting: string[] | null = null;
  const parser = new SaxesParser({ xmlns: false });
  // prefixes (kml:, gx:) vary between writers: elements are known by their local name
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  parser.on('opentag', (tag) => {
    const name = local(tag.name);
    path.push(name);
    if (name === 'Polygon') polygons++;
    if (name === 'innerBoundaryIs') holes++;
    if (name === 'coordinates' && path.includes('outerBoundaryIs') && path.includes('Polygon')) collecting = [];
  });
  parser.on('text', (t) => collecting?.push(t));
  parser.on('cdata', (t) => collecting?.push(t));
  parser.on('closetag', (tag) => {
    if (local(tag.name) === 'coordinates' && collecting) {
      outer.push(collecting.join(''));
      collecting = null;
    }
    path.pop();
  });
  try {
    parser.write(text).close();
  } catch (err) {
    throw new UsageError(`the KML is not well-formed XML: ${(err as Error).message}`);
  }
  if (polygons !== 1 || outer.length !== 1) {
    throw new UsageError(polygons === 0 ? 'the KML holds no Polygon' : `the KML holds ${polygons} polygons; give one (in Google Earth: save the one place)`);
  }
  const notes = holes > 0 ? [`the polygon's ${holes} hole(s) are ignored: the site is its outer ring`] : [];
  return { ring: kmlCoordinates(outer[0]), notes };
}

/** `lon,lat[,alt] lon,lat[,alt] …` to [lat, lon] pairs. */
function kmlCoordinates(text: string): [number, number][] {
  const tuples = text.trim().split(/\s+/).filter(Boolean);
  return tuples.map((tuple, i) => {
    const parts = tuple.split(',');
    const lon = Number(parts[0]);
    const lat = Number(parts[1]);
    if (parts.length < 2 || parts.length > 3 || parts.some((p) => p.trim() === '' || !Number.isFinite(Number(p)))) {
      throw new UsageError(`KML coordinate ${i} is not lon,lat[,alt]: "${tuple}"`);
    }
    return [lat, lon];
  });
}
