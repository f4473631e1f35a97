/**
 * The map's style: the service's own vector tiles (buildings, roads, water, green), the OSM
 * store's extent and the premium coverage, drawn simply and without text (labels would need font
 * files, and the map is for finding a place, not reading it). With a configured base-map style,
 * these layers go on top of it.
 */
import type { LayerSpecification, SourceSpecification, StyleSpecification } from 'maplibre-gl';

export interface MapInfo {
  storeExtent: [number, number, number, number] | null;
  premiumCoverage: { type: 'FeatureCollection'; features: unknown[] };
  tiles: { url: string; minzoom: number; maxzoom: number; buildingsFrom: number };
  styleUrl: string | null;
}

export const OSM_CREDIT = '© OpenStreetMap contributors';

export function ownSources(info: MapInfo, origin: string): Record<string, SourceSpecification> {
  const extent = info.storeExtent;
  return {
    osm: {
      type: 'vector',
      tiles: [origin + info.tiles.url],
      minzoom: info.tiles.minzoom,
      maxzoom: info.tiles.maxzoom,
      attribution: OSM_CREDIT,
    },
    extent: {
      type: 'geojson',
      data: extent
        ? {
            type: 'Feature',
            properties: {},
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [extent[0], extent[1]],
                  [extent[2], extent[1]],
                  [extent[2], extent[3]],
                  [extent[0], extent[3]],
                  [extent[0], extent[1]],
                ],
              ],
            },
          }
        : { type: 'FeatureCollection', features: [] },
    },
    premium: { type: 'geojson', data: info.premiumCoverage as never },
  };
}

export function ownLayers(withBase: boolean): LayerSpecification[] {
  const layers: LayerSpecification[] = [
    { id: 'water', type: 'fill', source: 'osm', 'source-layer': 'water', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': '#a9c8e8' } },
    {
      id: 'waterways',
      type: 'line',
      source: 'osm',
      'source-layer': 'water',
      filter: ['==', ['geometry-type'], 'LineString'],
      paint: { 'line-color': '#7fa7d4', 'line-width': 1.5 },
    },
    { id: 'green', type: 'fill', source: 'osm', 'source-layer': 'green', paint: { 'fill-color': '#c7e3b5' } },
    {
      id: 'road-areas',
      type: 'fill',
      source: 'osm',
      'source-layer': 'roads',
      filter: ['==', ['geometry-type'], 'Polygon'],
      paint: { 'fill-color': '#ffffff', 'fill-opacity': 0.8 },
    },
    {
      id: 'roads',
      type: 'line',
      source: 'osm',
      'source-layer': 'roads',
      filter: ['==', ['geometry-type'], 'LineString'],
      paint: {
        'line-color': ['match', ['get', 'kind'], ['footway', 'path', 'steps', 'pedestrian', 'cycleway'], '#e8e2d8', 'rail', '#9a9a9a', '#ffffff'],
        'line-width': ['interpolate', ['linear'], ['zoom'], 13, 1, 17, 6],
      },
      layout: { 'line-cap': 'round', 'line-join': 'round' },
    },
    {
      id: 'buildings',
      type: 'fill',
      source: 'osm',
      'source-layer': 'buildings',
      paint: { 'fill-color': '#d6cfc4', 'fill-outline-color': '#b5ab9c' },
    },
    { id: 'premium-fill', type: 'fill', source: 'premium', paint: { 'fill-color': '#8a4fd8', 'fill-opacity': 0.12 } },
    { id: 'premium-line', type: 'line', source: 'premium', paint: { 'line-color': '#8a4fd8', 'line-width': 2 } },
    { id: 'extent', type: 'line', source: 'extent', paint: { 'line-color': '#d9534f', 'line-width': 2, 'line-dasharray': [3, 2] } },
  ];
  return withBase ? layers.filter((l) => l.id !== 'background') : layers;
}

/** The style when no base map is configured: a plain background and the service's layers. */
export function ownStyle(info: MapInfo, origin: string): StyleSpecification {
  return {
    version: 8,
    sources: ownSources(info, origin),
    layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#eef0ea' } }, ...ownLayers(false)],
  };
}
