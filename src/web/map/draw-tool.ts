/**
 * Drawing the request polygon on the map: a rectangle (two clicks, opposite corners) or a polygon
 * (a click per vertex; a click on the first vertex or a double click closes it), then its vertices
 * dragged to edit it. The ring is kept as [lon, lat] points without the closing repeat; the page
 * turns it into the API's closed [lat, lon] ring.
 */
import type { GeoJSONSource, Map as MapLibreMap, MapMouseEvent } from 'maplibre-gl';

export type DrawMode = 'idle' | 'rectangle' | 'polygon';
type LonLat = [number, number];

export class DrawTool {
  private mode: DrawMode = 'idle';
  private ring: LonLat[] = [];
  private closed = false;
  private cursor: LonLat | null = null;
  private dragging: number | null = null;
  /** Called when a finished ring changes (drawn, edited or set). */
  onChange: (ring: LonLat[]) => void = () => {};
  onModeChange: (mode: DrawMode) => void = () => {};

  constructor(private readonly map: MapLibreMap) {
    map.addSource('draw', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({
      id: 'draw-fill',
      type: 'fill',
      source: 'draw',
      filter: ['==', ['geometry-type'], 'Polygon'],
      paint: { 'fill-color': '#1f77d0', 'fill-opacity': 0.15 },
    });
    map.addLayer({
      id: 'draw-line',
      type: 'line',
      source: 'draw',
      filter: ['!=', ['geometry-type'], 'Point'],
      paint: { 'line-color': '#1f77d0', 'line-width': 2.5 },
    });
    map.addLayer({
      id: 'draw-vertices',
      type: 'circle',
      source: 'draw',
      filter: ['==', ['geometry-type'], 'Point'],
      paint: { 'circle-radius': 6, 'circle-color': '#ffffff', 'circle-stroke-color': '#1f77d0', 'circle-stroke-width': 2.5 },
    });
    map.on('click', (e) => this.click(e));
    map.on('dblclick', (e) => {
      if (this.mode !== 'polygon') return;
      e.preventDefault();
      this.finishPolygon();
    });
    map.on('mousemove', (e) => this.move(e));
    map.on('mousedown', 'draw-vertices', (e) => this.startDrag(e));
    map.on('mouseup', () => this.endDrag());
  }

  start(mode: Exclude<DrawMode, 'idle'>): void {
    this.mode = mode;
    this.ring = [];
    this.closed = false;
    this.map.getCanvas().style.cursor = 'crosshair';
    this.map.doubleClickZoom.disable();
    this.onModeChange(mode);
    this.redraw();
  }

  /** Sets a finished ring (from the URL or the scripting hook). */
  setRing(ring: LonLat[]): void {
    this.ring = ring.map((p) => [p[0], p[1]]);
    this.closed = ring.length >= 3;
    this.stop();
    this.redraw();
  }

  current(): LonLat[] | null {
    return this.closed ? this.ring : null;
  }

  private stop(): void {
    this.mode = 'idle';
    this.cursor = null;
    this.map.getCanvas().style.cursor = '';
    this.onModeChange('idle');
  }

  private click(e: MapMouseEvent): void {
    const p: LonLat = [e.lngLat.lng, e.lngLat.lat];
    if (this.mode === 'rectangle') {
      if (this.ring.length === 0) this.ring = [p];
      else {
        const [a] = this.ring;
        this.ring = [a, [p[0], a[1]], p, [a[0], p[1]]];
        this.closed = true;
        this.stop();
        this.onChange(this.ring);
      }
      this.redraw();
    } else if (this.mode === 'polygon') {
      const first = this.ring[0];
      if (first && this.ring.length >= 3) {
        const a = this.map.project(first),
          b = this.map.project(p);
        if (Math.hypot(a.x - b.x, a.y - b.y) < 10) {
          this.finishPolygon();
          return;
        }
      }
      this.ring.push(p);
      this.redraw();
    }
  }

  private finishPolygon(): void {
    // a double click also sent two clicks: drop the repeated last point
    const ring = this.ring.filter((p, i) => i === 0 || p[0] !== this.ring[i - 1][0] || p[1] !== this.ring[i - 1][1]);
    if (ring.length < 3) return;
    this.ring = ring;
    this.closed = true;
    this.stop();
    this.redraw();
    this.onChange(this.ring);
  }

  private move(e: MapMouseEvent): void {
    const p: LonLat = [e.lngLat.lng, e.lngLat.lat];
    if (this.dragging !== null) {
      this.ring[this.dragging] = p;
      this.redraw();
      return;
    }
    if (this.mode !== 'idle' && this.ring.length > 0) {
      this.cursor = p;
      this.redraw();
    }
  }

  private startDrag(e: MapMouseEvent & { features?: { properties: Record<string, unknown> }[] }): void {
    if (this.mode !== 'idle' || !this.closed) return;
    const index = e.features?.[0]?.properties.index;
    if (typeof index !== 'number') return;
    e.preventDefault(); // no map pan while a vertex moves
    this.dragging = index;
  }

  private endDrag(): void {
    if (this.dragging === null) return;
    this.dragging = null;
    this.onChange(this.ring);
  }

  private redraw(): void {
    const features: unknown[] = [];
    let ring = this.ring;
    if (!this.closed && this.cursor) {
      if (this.mode === 'rectangle' && ring.length === 1) {
        const [a] = ring,
          c = this.cursor;
        ring = [a, [c[0], a[1]], c, [a[0], c[1]]];
      } else ring = [...ring, this.cursor];
    }
    if (ring.length >= 3 && (this.closed || this.mode === 'rectangle')) {
      features.push({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]]] } });
    } else if (ring.length >= 2) {
      features.push({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: ring } });
    }
    this.ring.forEach((p, index) => features.push({ type: 'Feature', properties: { index }, geometry: { type: 'Point', coordinates: p } }));
    (this.map.getSource('draw') as GeoJSONSource).setData({ type: 'FeatureCollection', features } as never);
  }
}
