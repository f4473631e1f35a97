/**
 * The map to pick the area on: MapLibre GL with the service's own tiles (or a configured base map
 * under them), framed on the OSM store's extent, with the drawing tool. MapLibre's worker is served
 * beside the page's script (dist/web), so the map starts nothing from elsewhere.
 */
import * as maplibregl from 'maplibre-gl';
import { DrawTool } from './draw-tool.ts';
import { type MapInfo, OSM_CREDIT, ownLayers, ownSources, ownStyle } from './map-style.ts';

export interface MapView {
  map: maplibregl.Map;
  draw: DrawTool;
  info: MapInfo;
}

export async function createMapView(container: HTMLElement): Promise<MapView> {
  const info = (await (await fetch('/v1/map/info.json')).json()) as MapInfo;
  maplibregl.setWorkerUrl(new URL('/assets/maplibre-gl-worker.mjs', location.href).href);
  const extent = info.storeExtent;
  const map = new maplibregl.Map({
    container,
    style: info.styleUrl ?? ownStyle(info, location.origin),
    bounds: extent ? [extent[0], extent[1], extent[2], extent[3]] : undefined,
    center: extent ? undefined : [0, 20],
    zoom: extent ? undefined : 1,
    attributionControl: { compact: false, customAttribution: OSM_CREDIT },
    // the canvas is read back for screenshots and tests
    canvasContextAttributes: { preserveDrawingBuffer: true },
  });
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  map.addControl(new maplibregl.ScaleControl({ unit: 'metric' }), 'bottom-left');
  await new Promise<void>((resolve) => map.once('load', () => resolve()));
  if (info.styleUrl) {
    const sources = ownSources(info, location.origin);
    for (const [id, source] of Object.entries(sources)) map.addSource(id, source);
    for (const layer of ownLayers(true)) map.addLayer(layer);
  }
  const draw = new DrawTool(map);
  return { map, draw, info };
}
