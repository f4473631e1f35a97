/**
 * From a city model's CRS name to a converter of its coordinates into WGS84 lon/lat (proj4 with the
 * EPSG registry of epsg-index). Heights are left as the file has them (absolute, in the file's
 * vertical datum): only the horizontal part of a compound CRS is used.
 */
import { createRequire } from 'node:module';
import proj4 from 'proj4';
import { lookupEpsg, type EpsgEntry } from '../../frame/epsg.ts';
import { parseCrsName } from './crs-names.ts';
import { PROJ4_CORRECTIONS } from './proj4-corrections.ts';

export type AxisOrder = 'east-north' | 'north-east';

export interface SourceCrs {
  /** The horizontal CRS, e.g. `EPSG:25832`. */
  label: string;
  epsg: number;
  axisOrder: AxisOrder;
  /** File x/y (in the file's axis order) to WGS84 [lon, lat] degrees. */
  toLonLat(x: number, y: number): [number, number];
}

/** Why a CRS name could not be used: the caller names the file and the option to set. */
export class CrsError extends Error {}

/** The horizontal CRS inside a compound one: the first PROJCS/GEOGCS section of its WKT and the last EPSG authority in it. */
function horizontalOfCompound(entry: EpsgEntry, wkt: string | undefined): number | null {
  if (!wkt) return null;
  const start = wkt.search(/(PROJCS|GEOGCS|PROJCRS|GEOGCRS)\[/);
  if (start < 0) return null;
  let depth = 0,
    end = start;
  for (let i = wkt.indexOf('[', start); i < wkt.length; i++) {
    if (wkt[i] === '[') depth++;
    else if (wkt[i] === ']' && --depth === 0) {
      end = i;
      break;
    }
  }
  const codes = [...wkt.slice(start, end + 1).matchAll(/(?:AUTHORITY|ID)\["EPSG",\s*"?(\d+)"?\]/g)];
  const last = codes.at(-1);
  return last && Number(last[1]) !== entry.code ? Number(last[1]) : null;
}

const require = createRequire(import.meta.url);

/** The registry's WKT of a code (src/frame/epsg.ts keeps only the proj4 part). */
function wktOf(code: number): string | undefined {
  try {
    return (require(`epsg-index/s/${code}.json`) as { wkt?: string }).wkt;
  } catch {
    return undefined;
  }
}

const isGeographic = (entry: EpsgEntry) => /GEOG/.test(entry.kind) || /\+proj=longlat\b/.test(entry.proj4);
const isVertical = (entry: EpsgEntry) => /VERT/.test(entry.kind);

/** The usable horizontal EPSG entry among the codes a CRS name lists. */
function horizontalEntry(codes: readonly number[]): EpsgEntry | null {
  for (const code of codes) {
    const entry = lookupEpsg(code);
    if (!entry || isVertical(entry)) continue;
    if (/COMPOUND/.test(entry.kind)) {
      const inner = horizontalOfCompound(entry, wktOf(code));
      const innerEntry = inner === null ? null : lookupEpsg(inner);
      if (innerEntry) return innerEntry;
    }
    return entry;
  }
  return null;
}

/**
 * The CRS of a file: `override` (the import's --crs) wins over what the file says. Geographic CRSs
 * are latitude first as EPSG defines them (4326, 4258, 6697…), projected ones easting first, unless
 * `axisOrder` says otherwise. Throws CrsError when neither names a CRS the registry knows.
 */
export function resolveSourceCrs(fromFile: string | null, override?: string | null, axisOrder?: AxisOrder | null): SourceCrs {
  const text = override ?? fromFile;
  if (!text) throw new CrsError('the file names no CRS');
  const name = parseCrsName(text);
  if (!name) throw new CrsError(`cannot read the CRS name "${text}"`);
  const entry = horizontalEntry(name.codes);
  if (!entry) throw new CrsError(`unknown CRS "${text}" (EPSG:${name.codes.join(', EPSG:')} not in the registry)`);
  const order: AxisOrder = axisOrder ?? (isGeographic(entry) ? 'north-east' : 'east-north');
  const definition = PROJ4_CORRECTIONS.get(entry.code) ?? entry.proj4;
  if (/\+nadgrids=(?!@)/.test(definition)) {
    throw new CrsError(`EPSG:${entry.code} (${entry.name}) needs a datum grid this service does not have; reproject the file first or name another CRS`);
  }
  const converter = proj4(definition, 'EPSG:4326');
  const swap = order === 'north-east';
  const identity = isGeographic(entry) && /\+datum=WGS84\b/.test(entry.proj4);
  return {
    label: `EPSG:${entry.code}`,
    epsg: entry.code,
    axisOrder: order,
    toLonLat(x, y) {
      const e = swap ? y : x,
        n = swap ? x : y;
      if (identity) return [e, n];
      const out = converter.forward([e, n]) as [number, number];
      return [out[0], out[1]];
    },
  };
}
