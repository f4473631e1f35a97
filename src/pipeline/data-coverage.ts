/**
 * Whether any configured source has data for what a request asks, decided before any work from
 * the sources' extents: the OSM store's for the feature groups (./osm-coverage.ts), the elevation
 * sources' bounds for `topography`. A request for which none has any — topography outside every
 * DEM, a polygon with latitude and longitude swapped landing far from the data — gets an empty
 * answer, and is not charged for it (docs/api.md "Keys and billing"); this module gives the
 * warning that says why. Decided up front so the answer's `X-Cost-Km2` is already right.
 */
import type { ResponseWarning } from '../contract/response-schema.ts';
import type { ContextRequest } from '../contract/types.ts';
import { familiesFor } from '../features/index.ts';
import type { GeoBox } from '../frame/geo-box.ts';
import { sharedElevationSource, type DemSourceConfig } from '../sources/dem/config.ts';
import { MosaicElevationSource } from '../sources/dem/mosaic.ts';
import type { ElevationSource } from '../sources/dem/types.ts';
import { osmUnavailableWarning } from './osm-coverage.ts';
import { premiumDatasetsCovering, premiumSources } from './premium-coverage.ts';
import { osmStoreExtent } from '../tile/osm-sources.ts';

export interface CoverageSources {
  storePath: string;
  /** The premium building store; absent = none. */
  premiumStorePath?: string;
  /** DEM sources; null or absent = the bundled SRTM tile. */
  dem?: DemSourceConfig[] | null;
}

/**
 * The `no_source_data` warning when no configured source has data for any group the request asks
 * for; null when one has (or the OSM store's extent cannot be told: then the request is charged).
 */
export async function noSourceDataWarning(req: ContextRequest, sources: CoverageSources, premiumDatasets?: readonly string[]): Promise<ResponseWarning | null> {
  const features = familiesFor(req.settings.geometry).length > 0;
  const osmMissing = features ? osmUnavailableWarning(req, await osmStoreExtent(sources.storePath)) : null;
  if (features && !osmMissing) return null;
  // premium buildings where the OSM data is missing: an answer with buildings, charged
  const premium = premiumSources(sources.premiumStorePath, premiumDatasets);
  if (features && req.settings.geometry.includes('buildings') && premiumDatasetsCovering(req, { canopy: null, premium }).length > 0) return null;
  const topography = req.settings.geometry.includes('topography');
  if (topography && covers(await sharedElevationSource(sources.dem ?? null), polygonBox(req.polygon))) return null;
  const missing = [...(features ? ['OpenStreetMap data'] : []), ...(topography ? ['elevation data'] : [])];
  const swapped = osmMissing?.details.swappedLatLon === true;
  return {
    code: 'no_source_data',
    message:
      `No ${missing.join(' and no ')} configured on this server covers the polygon, so the answer is empty and this request is not charged` +
      (swapped ? ' (with latitude and longitude swapped it would lie inside the data: points are [latitude, longitude]).' : '.'),
    details: { charged: false, missing: missing.map((m) => (m === 'elevation data' ? 'elevation' : 'osm')), swappedLatLon: swapped },
  };
}

/** Whether the source (each tile of a mosaic, not the box around them) has data anywhere in `box`. */
function covers(source: ElevationSource, box: GeoBox): boolean {
  if (source instanceof MosaicElevationSource) return source.sources.some((s) => covers(s, box));
  const b = source.bounds;
  return b.west <= box.east && box.west <= b.east && b.south <= box.north && box.south <= b.north;
}

function polygonBox(ring: readonly (readonly [number, number])[]): GeoBox {
  const box: GeoBox = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  for (const [lat, lon] of ring) {
    box.west = Math.min(box.west, lon);
    box.east = Math.max(box.east, lon);
    box.south = Math.min(box.south, lat);
    box.north = Math.max(box.north, lat);
  }
  return box;
}
