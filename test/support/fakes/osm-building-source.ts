/**
 * An OSM source over made-up buildings in memory, grouped (outline + parts, interior point) exactly
 * as the store groups them at import (`groupFeatures`): `buildingGroups` lists the groups whose
 * members' box meets the query box, `buildingGroupMembers` returns principal then parts. The
 * features are also answered by layer, like memoryOsmSource.
 */
import { groupFeatures } from '../../../src/geometry/buildings/from-osm.ts';
import type { LonLatBBox, OsmFeature } from '../../../src/osm-model/feature.ts';
import type { OsmSource } from '../../../src/sources/osm/types.ts';
import { featureBox, featureMeets } from './osm-source.ts';

export function memoryBuildingSource(features: readonly OsmFeature[]): OsmSource {
  const groups = groupFeatures(features).map((g, gid) => {
    const members = [g.principal, ...g.parts];
    const boxes = members.map(featureBox);
    const box: LonLatBBox = {
      minLon: Math.min(...boxes.map((b) => b.minLon)),
      minLat: Math.min(...boxes.map((b) => b.minLat)),
      maxLon: Math.max(...boxes.map((b) => b.maxLon)),
      maxLat: Math.max(...boxes.map((b) => b.maxLat)),
    };
    return { gid, rep: g.rep, members, box };
  });
  return {
    query: (b, layers) => features.filter((f) => layers.includes(f.layer) && featureMeets(f, b)),
    buildingGroups: (b) =>
      groups
        .filter((g) => g.box.minLon <= b.maxLon && g.box.maxLon >= b.minLon && g.box.minLat <= b.maxLat && g.box.maxLat >= b.minLat)
        .map((g) => ({ gid: g.gid, rep: [g.rep[0], g.rep[1]] as [number, number] })),
    buildingGroupMembers: (gids) => new Map(gids.map((gid) => [gid, groups[gid].members])),
    close() {},
  };
}

/** A building way with one outer ring (lon/lat flat, no closing point). */
export function buildingWay(id: number, ring: number[], tags: Record<string, string> = {}): OsmFeature {
  const isPart = 'building:part' in tags && !('building' in tags);
  return {
    id: `way/${id}`,
    layer: isPart ? 'building_part' : 'building',
    kind: 'area',
    tags: isPart ? tags : { building: 'yes', ...tags },
    polygons: [[ring]],
  };
}
