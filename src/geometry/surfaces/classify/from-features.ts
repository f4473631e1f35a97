/**
 * Mapped areas of ground from the OSM store's features: classify each area (rules.ts), project
 * its rings into the request's local frame and make its footprints valid. Overlaps are left for
 * the resolver (priority decides); nothing here cuts or triangulates.
 *
 *   const features = store.query(bbox, SURFACE_AREA_LAYERS);
 *   const areas = surfaceAreasFromFeatures(features, frame);
 *
 * Which store layers hold ground areas (`SURFACE_AREA_LAYERS`, see sources/osm/layers.ts for the
 * filing rules, first rule wins):
 *
 * | layer | why the ground builder reads it |
 * |---|---|
 * | `landcover` | landuse, natural cover, leisure, amenity (parking, fountains), aeroway, piers, bare `surface=*` |
 * | `water` | `natural=water`, `water=*`, `waterway=riverbank`, reservoirs and basins |
 * | `highway` | `area:highway=*`, `highway=*` with `area=yes` (pedestrian areas, platforms). Only `kind: 'area'` features are read here; highway *lines* are the centerline builder's |
 * | `railway` | `railway=platform` areas |
 * | `barrier` | areas filed here because they also carry `barrier=*`: a fountain basin with `barrier=kerb`, a fenced `landuse`, `barrier=hedge` areas |
 * | `other` | `public_transport=platform` and `place=square` without other keys, `tourism=picnic_site` |
 * | `building` | `building=construction` only (→ `buildingConstruction`); every other building gives no area |
 *
 * Building sites: `building=construction` is filed under `building` like any building, so the
 * buildings family sees it too (and today builds a block with default levels). The ground builder
 * reads the tile's building footprints anyway, to cut them out of the ground; it should pass those
 * features through this function as well and *not* cut out the `building=construction` ones that
 * come back as areas. The buildings family should then skip `building=construction` without
 * `height`/`building:levels` (a site, not yet a volume); one with them stays a building and its
 * footprint is cut out like any other.
 *
 * The sea: OSM has no sea polygons. `natural=coastline` ways are lines with land on their left and
 * sea on their right; a closed coastline is an island, which the table maps to nothing. Water
 * where the sea is needs either a land-polygon data set (osmdata.openstreetmap.de land/water
 * polygons, split per tile) or assembling the coastline lines of a tile into rings closed along the
 * tile's edge. Neither is done here; without it the sea (and the harbour basins of Monaco, which
 * are `leisure=marina` envelopes over sea) is base ground.
 */
import type { LocalFrame } from '../../../frame/local-frame.ts';
import { projectFlat } from '../../../frame/local-frame.ts';
import type { OsmFeature, OsmLayer } from '../../../osm-model/feature.ts';
import { validFootprints } from '../../planar/footprint-repair.ts';
import { ringArea } from '../../ring.ts';
import type { Footprint } from '../../types.ts';
import type { SurfaceArea } from '../types.ts';
import { classifySurfaceArea } from './classify-area.ts';
import { parseLayer } from '../../../osm-model/tag-values/items.ts';

/** Store layers the caller must query for ground areas (see the table above). */
export const SURFACE_AREA_LAYERS: readonly OsmLayer[] = ['landcover', 'water', 'highway', 'railway', 'barrier', 'other', 'building'];

const LAYERS = new Set<OsmLayer>(SURFACE_AREA_LAYERS);

/** Footprints smaller than this (m²) are dropped: slivers left by repair, never ground anyone sees. */
export const MIN_FOOTPRINT_AREA = 0.01;

function footprintArea(fp: Footprint): number {
  return ringArea(fp.outer) - fp.holes.reduce((sum, h) => sum + ringArea(h), 0);
}

/**
 * The ground areas among `features`: every `kind: 'area'` feature of SURFACE_AREA_LAYERS that
 * `classifySurfaceArea` gives a kind, with valid footprints in `frame` (outer rings
 * counter-clockwise, holes clockwise, repaired with Clipper2 when self-intersecting, slivers under
 * MIN_FOOTPRINT_AREA dropped). Features of other layers, points, lines and areas without a kind
 * are skipped; so is an area none of whose footprints survives repair.
 *
 * Descriptor: `{ type: kind, id, ...decidedBy, layer?, name? }` (`layer` as a number when tagged).
 * Output order follows input order.
 */
export function surfaceAreasFromFeatures(features: readonly OsmFeature[], frame: LocalFrame): SurfaceArea[] {
  const out: SurfaceArea[] = [];
  for (const feature of features) {
    if (feature.kind !== 'area' || !feature.polygons || feature.polygons.length === 0 || !LAYERS.has(feature.layer)) continue;
    const cls = classifySurfaceArea(feature.tags);
    if (!cls) continue;
    const footprints: Footprint[] = [];
    for (const polygon of feature.polygons) {
      if (polygon.length === 0) continue;
      const outer = projectFlat(frame, polygon[0]);
      const holes = polygon.slice(1).map((ring) => projectFlat(frame, ring));
      for (const fp of validFootprints({ outer, holes })) if (footprintArea(fp) >= MIN_FOOTPRINT_AREA) footprints.push(fp);
    }
    if (footprints.length === 0) continue;
    const descriptor: Record<string, unknown> = { type: cls.kind, id: feature.id, ...cls.decidedBy };
    const layer = parseLayer(feature.tags.layer);
    if (layer !== undefined) descriptor.layer = layer;
    if (feature.tags.name) descriptor.name = feature.tags.name;
    out.push({ kind: cls.kind, priority: cls.priority, footprints, descriptor });
  }
  return out;
}
