/**
 * The page's state in the URL's fragment, so a link reproduces the view: the polygon (`p`, the
 * API's [lat, lon] pairs), the settings that differ from the defaults (`s`, JSON) and the camera
 * (`c`: position then target). The fragment never reaches a server. Pure: tested in node.
 */
export interface PageState {
  polygon: [number, number][] | null;
  settings: Record<string, unknown>;
  camera: { position: [number, number, number]; target: [number, number, number] } | null;
}

export function encodeState(state: PageState): string {
  const params = new URLSearchParams();
  if (state.polygon) params.set('p', state.polygon.map(([lat, lon]) => `${lat},${lon}`).join(';'));
  if (Object.keys(state.settings).length > 0) params.set('s', JSON.stringify(state.settings));
  if (state.camera) params.set('c', [...state.camera.position, ...state.camera.target].join(','));
  return params.toString();
}

/** Reads a fragment (with or without its `#`); anything malformed is left out. */
export function decodeState(fragment: string): PageState {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const state: PageState = { polygon: null, settings: {}, camera: null };
  const p = params.get('p');
  if (p) {
    const points = p.split(';').map((pair) => pair.split(',').map(Number));
    if (points.length >= 2 && points.every((pt) => pt.length === 2 && pt.every(Number.isFinite))) {
      state.polygon = points as [number, number][];
    }
  }
  const s = params.get('s');
  if (s) {
    try {
      const parsed = JSON.parse(s);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) state.settings = parsed;
    } catch {
      // a hand-edited link: keep the defaults
    }
  }
  const c = params.get('c')?.split(',').map(Number);
  if (c && c.length === 6 && c.every(Number.isFinite)) state.camera = { position: [c[0], c[1], c[2]], target: [c[3], c[4], c[5]] };
  return state;
}
