/**
 * The page (`GET /`): pick an area on the map, set the request, preview the model in 3D, download
 * it. Everything it loads comes from this service. `window.cityContextViewer` is the scripting
 * hook for tests and embedding (docs/web.md).
 */
import { createMapView, type MapView } from './map/map-view.ts';
import { demoKey, storedKey, storeKey } from './panel/api-key.ts';
import { requestExport } from './panel/download.ts';
import { showDescriptor, showMeta } from './panel/messages.ts';
import { apiPolygon, checkRequest, learnGroupNames, type RequestVerdict } from './panel/request-check.ts';
import { type JsonSchema, SchemaForm } from './panel/schema-form.ts';
import { decodeState, encodeState } from './panel/url-state.ts';
import { ApiRequestError, loadModel, type ModelMeta } from './viewer/model-loader.ts';
import { SceneView, type SceneStats } from './viewer/scene-view.ts';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** The request settings the page offers first; the others follow in the schema's order. */
const SETTINGS_FIRST = [
  'geometry',
  'topographyReturnType',
  'projectToTopography',
  'cropScene',
  'defaultRoofType',
  'defaultLevels',
  'defaultLevelHeight',
  'treeSource',
  'crs',
  'upAxis',
];

interface Page {
  mapView: MapView;
  scene: SceneView;
  settings: SchemaForm;
  exportForm: SchemaForm;
  meta: ModelMeta | null;
  cameraFromUrl: boolean;
}

async function boot(): Promise<void> {
  const openapi = (await (await fetch('/v1/openapi.json')).json()) as { components: { schemas: Record<string, JsonSchema> } };
  const schemas = openapi.components.schemas;
  learnGroupNames((schemas.Settings.properties?.geometry?.items?.enum ?? []) as string[]);
  const settingNames = Object.keys(schemas.Settings.properties ?? {});
  const settings = new SchemaForm($('settings-form'), schemas.Settings, [...SETTINGS_FIRST, ...settingNames.filter((n) => !SETTINGS_FIRST.includes(n))], 's');
  const exportForm = new SchemaForm($('export-form'), schemas.Export, undefined, 'e');
  const [mapView] = await Promise.all([createMapView($('map'))]);
  const scene = new SceneView($('viewer-canvas'));
  const page: Page = { mapView, scene, settings, exportForm, meta: null, cameraFromUrl: false };

  const keyInput = $<HTMLInputElement>('api-key');
  keyInput.value = storedKey() || (await demoKey()) || '';
  keyInput.addEventListener('change', () => storeKey(keyInput.value.trim()));
  if (keyInput.value) storeKey(keyInput.value.trim());

  const state = decodeState(location.hash);
  settings.setValue(state.settings);
  if (state.polygon) showRing(mapView, state.polygon);
  if (state.camera) {
    scene.setCamera(state.camera);
    page.cameraFromUrl = true;
  }
  showMeta($('warnings'), $('credits'), null);
  recheck(page);

  $('draw-rectangle').addEventListener('click', () => mapView.draw.start('rectangle'));
  $('draw-polygon').addEventListener('click', () => mapView.draw.start('polygon'));
  mapView.draw.onModeChange = (mode) => ($('draw-hint').textContent = hintFor(mode));
  mapView.draw.onChange = () => recheck(page);
  settings.onChange = () => recheck(page);
  $('generate').addEventListener('click', () => void generate(page).catch(() => {}));
  $('export').addEventListener('click', () => void exportModel(page));
  scene.onPick = (descriptor, group) => showDescriptor($('descriptor'), descriptor, group);
  let cameraTimer = 0;
  scene.onCameraChange = () => {
    clearTimeout(cameraTimer);
    cameraTimer = window.setTimeout(() => saveUrl(page), 300);
  };

  window.cityContextViewer = {
    map: mapView.map,
    async load(polygon: [number, number][], requestSettings: Record<string, unknown> = {}, apiKey?: string) {
      showRing(mapView, polygon);
      settings.setValue(requestSettings);
      if (apiKey) {
        keyInput.value = apiKey;
        storeKey(apiKey);
      }
      const verdict = recheck(page);
      if (!verdict.ok) throw new Error(verdict.message);
      return generate(page);
    },
    stats: () => scene.stats(),
    request: () => requestBody(page),
    screenPointOf: (id: string) => scene.screenPointOf(id),
    setGroupVisible: (group: string, visible: boolean) => setGroupVisible(page, group, visible),
  };
  document.body.dataset.ready = 'true';
}

/** Sets the drawn area from an API polygon (closed [lat, lon] ring) and frames it on the map. */
function showRing(mapView: MapView, polygon: [number, number][]): void {
  const ring = polygon.slice(0, -1).map(([lat, lon]) => [lon, lat] as [number, number]);
  mapView.draw.setRing(ring);
  const lons = ring.map((p) => p[0]),
    lats = ring.map((p) => p[1]);
  if (ring.length >= 3) {
    mapView.map.fitBounds(
      [
        [Math.min(...lons), Math.min(...lats)],
        [Math.max(...lons), Math.max(...lats)],
      ],
      { padding: 40, duration: 0 },
    );
  }
}

function hintFor(mode: string): string {
  if (mode === 'rectangle') return 'Click two opposite corners.';
  if (mode === 'polygon') return 'Click each corner; click the first one (or double-click) to finish.';
  return 'Drag a corner to move it.';
}

/** The request body from the drawn ring and the settings (null without a ring). */
function requestBody(page: Page): { polygon: [number, number][]; settings: Record<string, unknown> } | null {
  const ring = page.mapView.draw.current();
  return ring ? { polygon: apiPolygon(ring), settings: page.settings.value() } : null;
}

function recheck(page: Page): RequestVerdict {
  const body = requestBody(page);
  const verdict: RequestVerdict = body ? checkRequest(body) : { ok: false, areaKm2: null, costKm2: null };
  $('area-info').textContent =
    verdict.areaKm2 === null ? 'No area drawn yet.' : `Area ${verdict.areaKm2.toFixed(3)} km² · cost ${verdict.costKm2!.toFixed(3)} km²`;
  $('area-error').textContent = verdict.message ?? '';
  $('area-error').dataset.code = verdict.code ?? '';
  $<HTMLButtonElement>('generate').disabled = !verdict.ok;
  $<HTMLButtonElement>('export').disabled = !verdict.ok;
  saveUrl(page);
  return verdict;
}

function saveUrl(page: Page): void {
  const body = requestBody(page);
  const fragment = encodeState({ polygon: body?.polygon ?? null, settings: page.settings.value(), camera: page.scene.cameraState() });
  history.replaceState(null, '', `#${fragment}`);
}

async function generate(page: Page): Promise<SceneStats> {
  const body = requestBody(page);
  if (!body) throw new Error('Draw an area first.');
  const status = $('status');
  const started = performance.now();
  page.scene.clear();
  showDescriptor($('descriptor'), null, null);
  status.textContent = 'Generating…';
  status.className = '';
  let first = true;
  try {
    page.meta = await loadModel(body, $<HTMLInputElement>('api-key').value.trim(), page.scene, () => {
      if (first && !page.cameraFromUrl) setTimeout(() => page.scene.fit(), 0);
      first = false;
    });
  } catch (err) {
    const message = err instanceof ApiRequestError ? `${err.failure.code}: ${err.failure.error}` : String(err);
    status.textContent = message;
    status.className = 'error';
    if (err instanceof ApiRequestError) $('area-error').textContent = err.failure.error;
    throw err;
  }
  if (!page.cameraFromUrl) page.scene.fit();
  page.cameraFromUrl = false;
  page.scene.renderNow();
  await new Promise((r) => requestAnimationFrame(() => r(null)));
  const stats = page.scene.stats();
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const { lastByteMs, firstDrawnMs } = page.meta.timings;
  const answered = (lastByteMs / 1000).toFixed(2);
  const shownFirst = firstDrawnMs === null ? '' : `first shown after ${(firstDrawnMs / 1000).toFixed(2)} s, `;
  status.textContent = `${stats.meshes} meshes, ${stats.triangles} triangles in ${seconds} s (${shownFirst}answer complete after ${answered} s) · cost ${page.meta.costKm2 ?? '?'} km²`;
  status.dataset.seconds = seconds;
  status.dataset.answerSeconds = answered;
  showMeta($('warnings'), $('credits'), page.meta);
  showGroupToggles(page, stats);
  saveUrl(page);
  return stats;
}

function showGroupToggles(page: Page, stats: SceneStats): void {
  const box = $('groups');
  box.replaceChildren();
  for (const [group, s] of Object.entries(stats.groups)) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = true;
    input.dataset.group = group;
    input.addEventListener('change', () => setGroupVisible(page, group, input.checked));
    const counts = s.nodes > 0 ? `${s.nodes} nodes` : `${s.meshes} meshes, ${s.triangles} triangles`;
    label.append(input, ` ${group} — ${counts}`);
    box.append(label);
  }
}

function setGroupVisible(page: Page, group: string, visible: boolean): void {
  page.scene.setGroupVisible(group, visible);
  const input = document.querySelector<HTMLInputElement>(`#groups input[data-group="${CSS.escape(group)}"]`);
  if (input) input.checked = visible;
}

async function exportModel(page: Page): Promise<void> {
  const body = requestBody(page);
  const out = $('export-result');
  if (!body) return;
  out.textContent = 'Exporting…';
  try {
    const answer = await requestExport(body, page.exportForm.value(), $<HTMLInputElement>('api-key').value.trim());
    const a = document.createElement('a');
    a.href = answer.downloadUrl;
    a.id = 'download-link';
    a.textContent = `Download ${decodeURIComponent(answer.downloadUrl.split('/').pop() ?? 'file')}`;
    a.setAttribute('download', '');
    out.replaceChildren(a);
    for (const w of answer.warnings ?? [])
      out.append(Object.assign(document.createElement('div'), { className: 'warning', textContent: `${w.code}: ${w.message}` }));
  } catch (err) {
    out.textContent = err instanceof ApiRequestError ? `${err.failure.code}: ${err.failure.error}` : String(err);
    out.className = 'error';
  }
}

declare global {
  interface Window {
    cityContextViewer: {
      map: MapView['map'];
      load(polygon: [number, number][], settings?: Record<string, unknown>, apiKey?: string): Promise<SceneStats>;
      stats(): SceneStats;
      /** The body the page would send now (null without an area). */
      request(): { polygon: [number, number][]; settings: Record<string, unknown> } | null;
      screenPointOf(id: string): { x: number; y: number } | null;
      setGroupVisible(group: string, visible: boolean): void;
    };
  }
}

boot().catch((err) => {
  $('status').textContent = `The page failed to start: ${String(err)}`;
  $('status').className = 'error';
});
