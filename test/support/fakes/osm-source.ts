/**
 * An OSM source over a list of features in memory, for tests that hand tiles made-up data
 * (register it with `registerOsmSource`): a bbox query returns the features of the asked layers
 * whose box meets the query box, in list order; no building groups. `onQuery` counts reads.
 */
import type { LonLatBBox, OsmFeature } from '../../../src/osm-model/feature.ts';
import type { OsmSource } from '../../../src/sources/osm/types.ts';

export function memoryOsmSource(features: readonly OsmFeature[], onQuery?: () => void): OsmSource {
  return {
    query(b, layers) {
      onQuery?.();
      return features.filter((f) => layers.includes(f.layer) && featureMeets(f, b));
    },
    buildingGroups: () => [],
    buildingGroupMembers: () => new Map(),
    close() {},
  };
}

/** The lon/lat box of a feature's point, line or first outer ring. */
export function featureBox(f: OsmFeature): LonLatBBox {
  const c = f.point ?? f.line ?? f.polygons![0][0];
  let minLon = Infinity,
    minLat = Infinity,
    maxLon = -Infinity,
    maxLat = -Infinity;
  for (let k = 0; k < c.length; k += 2) {
    minLon = Math.min(minLon, c[k]);
    maxLon = Math.max(maxLon, c[k]);
    minLat = Math.min(minLat, c[k + 1]);
    maxLat = Math.max(maxLat, c[k + 1]);
  }
  return { minLon, minLat, maxLon, maxLat };
}

/** Whether a feature's box meets a lon/lat box (what the store's rtree answers). */
export function featureMeets(f: OsmFeature, b: LonLatBBox): boolean {
  const a = featureBox(f);
  return a.minLon <= b.maxLon && a.maxLon >= b.minLon && a.minLat <= b.maxLat && a.maxLat >= b.minLat;
}
