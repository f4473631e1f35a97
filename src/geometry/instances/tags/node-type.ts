import { parseLength } from '../../../osm-model/tag-values/index.ts';
import type { NodeType } from '../types.ts';

/**
 * Which node type an OSM object is (docs/trees.md "Types"). The rows are tried in
 * order, first match wins, so a bus stop that is also a platform is one bus stop. `null`: not an
 * instance (a mural is artwork but flat; a power line is drawn as wire spans by wires.ts).
 */
export function nodeTypeOf(tags: Readonly<Record<string, string>>): NodeType | null {
  if (tags.natural === 'tree') return 'tree';
  if (tags.natural === 'shrub' || tags.barrier === 'hedge') return 'shrubbery';
  if (tags.amenity === 'bench') return 'bench';
  if (tags.leisure === 'picnic_table') return 'picnicTable';
  if (tags.highway === 'bus_stop') return 'busStop';
  if (tags.public_transport === 'platform' && tags.bus === 'yes') return 'busStop';
  if (tags.power === 'tower') return 'transmissionTower';
  if (tags.power === 'pole' || tags.man_made === 'utility_pole') return 'utilityPole';
  if (tags.emergency === 'fire_hydrant') return 'hydrant';
  if (tags.advertising === 'column') return 'adColumn';
  if (tags.man_made === 'crane') return craneType(tags['crane:type']);
  if (tags.power === 'generator' && (tags['generator:source'] ?? '').split(';').includes('wind')) return 'windTurbine';
  if (tags.historic === 'memorial') return 'memorial';
  if (tags.tourism === 'artwork') return artworkType(tags);
  // beyond the list of docs/design.md "Nodes" ("more may be added"): the commonest street furniture of OSM
  if (tags.highway === 'street_lamp') return 'streetLamp';
  if (tags.amenity === 'waste_basket') return 'wasteBasket';
  if (tags.amenity === 'post_box') return 'postBox';
  if (tags.amenity === 'drinking_water') return 'drinkingWater';
  if (tags.man_made === 'flagpole') return 'flagpole';
  if (tags.amenity === 'bicycle_parking') return 'bicycleParking';
  return null;
}

/** `crane:type`: cranes on tracks, wheels or crawlers are mobile; tower and untyped cranes stand on a mast. */
const MOBILE_CRANES = new Set(['crawler_crane', 'mobile_crane', 'tracked_crane', 'truck_crane', 'gantry_crane', 'portal_crane']);

function craneType(value: string | undefined): NodeType {
  return value !== undefined && MOBILE_CRANES.has(value) ? 'trackedCrane' : 'towerCrane';
}

/** Height at and above which a statue is big (a person on a plinth is about 2–3 m). */
export const BIG_STATUE_METRES = 3;

/** Flat artworks: nothing stands there. */
const FLAT_ARTWORK = new Set(['mural', 'painting', 'graffiti', 'mosaic', 'relief', 'azulejo', 'tilework']);

function artworkType(tags: Readonly<Record<string, string>>): NodeType | null {
  const kind = tags.artwork_type;
  if (kind && FLAT_ARTWORK.has(kind)) return null;
  if (kind === 'statue' || kind === 'bust') {
    const h = parseLength(tags.height, 200);
    return h !== null && h >= BIG_STATUE_METRES ? 'statueBig' : 'statueSmall';
  }
  return 'sculpture';
}
