/** Files each feature under one coarse OsmLayer (see types.ts for what each layer holds). */
import type { OsmFeature, OsmLayer, OsmTags } from '../../osm-model/feature.ts';

export const OSM_LAYERS: readonly OsmLayer[] = ['building', 'building_part', 'highway', 'railway', 'barrier', 'water', 'landcover', 'poi', 'other'];

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== 'no';
}

const WATER_NATURAL = new Set(['water', 'coastline', 'bay', 'strait']);
const WATER_LANDUSE = new Set(['reservoir', 'basin']);
/** Area keys that describe what covers the ground (surfaces builder material). */
const LANDCOVER_KEYS = ['landuse', 'natural', 'leisure', 'amenity', 'surface', 'landcover', 'golf', 'aeroway'];
const LANDCOVER_MAN_MADE = new Set(['pier', 'breakwater', 'bridge', 'wastewater_plant']);

/**
 * The layer of a feature. The first matching rule wins, so a building that is also a shop is a
 * building, and a fenced landuse area is landcover. Points that no rule claims go to 'poi'.
 */
export function classifyLayer(tags: OsmTags, kind: OsmFeature['kind']): OsmLayer {
  if (isSet(tags.building)) return 'building';
  if (isSet(tags['building:part'])) return 'building_part';
  if (isSet(tags.highway) || isSet(tags['area:highway'])) return 'highway';
  if (isSet(tags.railway)) return 'railway';
  if (isSet(tags.barrier)) return 'barrier';
  if (WATER_NATURAL.has(tags.natural ?? '') || isSet(tags.waterway) || isSet(tags.water) || WATER_LANDUSE.has(tags.landuse ?? '')) {
    return 'water';
  }
  if (kind === 'point') return 'poi';
  if (kind === 'area' && (LANDCOVER_KEYS.some((k) => isSet(tags[k])) || LANDCOVER_MAN_MADE.has(tags.man_made ?? ''))) {
    return 'landcover';
  }
  return 'other';
}
