/**
 * fast-check generators for request bodies: valid polygons around random places, valid settings
 * subsets with random nulls and unknown fields, and the spec's defaults table (written out here on
 * purpose, independently of src/contract, so the tests check the implementation against the spec).
 */

import fc from 'fast-check';

export type LatLon = [number, number];

/** Port Hercule, Monaco. */
export const MONACO: LatLon = [43.7347, 7.4206];

/** Metres per degree on turf's sphere (R = 6,378,137 m). */
const M_PER_DEG = (6_378_137 * Math.PI) / 180;

/**
 * Metres (east, north) around `center` to [lat, lon]. Uses the centre's latitude for the longitude
 * scale, so the map is affine and keeps simple polygons simple.
 */
export function offset(center: LatLon, east: number, north: number): LatLon {
  return [center[0] + north / M_PER_DEG, center[1] + east / (M_PER_DEG * Math.cos((center[0] * Math.PI) / 180))];
}

export function close(points: LatLon[]): LatLon[] {
  return [...points, [points[0][0], points[0][1]]];
}

/** A rectangle of `width` × `height` metres (approximately) with its south-west corner at `sw`. */
export function rectangle(sw: LatLon, width: number, height: number): LatLon[] {
  return close([sw, offset(sw, width, 0), offset(sw, width, height), offset(sw, 0, height)]);
}

/** A place away from the poles and the antimeridian. */
export const place = fc.tuple(fc.double({ min: -80, max: 80, noNaN: true }), fc.double({ min: -179.5, max: 179.5, noNaN: true }));

/**
 * A closed star-shaped ring: n corners at jittered angles (every angular gap < π, so the centre sees
 * every edge and the ring is simple) and radii in [0.3, 1] × `maxRadius` metres.
 */
export function starRing(opts: { minRadius: number; maxRadius: number; maxCorners?: number; center?: fc.Arbitrary<LatLon> }) {
  const maxCorners = opts.maxCorners ?? 40;
  return fc
    .record({
      center: opts.center ?? place,
      radius: fc.double({ min: opts.minRadius, max: opts.maxRadius, noNaN: true }),
      corners: fc.array(fc.tuple(fc.double({ min: 0, max: 0.4, noNaN: true }), fc.double({ min: 0.3, max: 1, noNaN: true })), {
        minLength: 3,
        maxLength: maxCorners,
      }),
      turn: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      clockwise: fc.boolean(),
    })
    .map(({ center, radius, corners, turn, clockwise }) => {
      const n = corners.length;
      const points = corners.map(([jitter, r], i) => {
        const angle = turn + ((clockwise ? -1 : 1) * 2 * Math.PI * (i + jitter)) / n;
        return offset(center, radius * r * Math.cos(angle), radius * r * Math.sin(angle));
      });
      return close(points);
    });
}

/** Rings whose area is at most π · 1500² m² ≈ 7.1 km², safely under the 10 km² limit. */
export const smallRing = starRing({ minRadius: 5, maxRadius: 1500 });

/** The spec's Settings table: defaults. */
export const SPEC_SETTING_DEFAULTS = {
  geometry: ['buildings', 'surface', 'barriers', 'instances'],
  surfaceTypes: ['meshes'],
  cropScene: false,
  defaultRoofType: 'flat',
  defaultLevels: 1,
  defaultLevelHeight: 4,
  buildingSources: 'all',
  treeSource: 'standard',
  canopyMinHeight: 3,
  canopyMinSpacing: 3,
  canopyMaxTrees: 40000,
  topographyModel: false,
  topographyReturnType: 'elevationMap', // DESIGN.md: the machine-readable schema wins
  combineElevationMaps: true,
  projectToTopography: false,
  disableSurfaceProjection: false,
  crs: 'local',
  upAxis: 'Y',
  indexedMeshes: false,
} as const;

export const SPEC_EXPORT_DEFAULTS = { crs: 'local', placement: 'anchor', units: 'm', surfaceType: 'meshes' } as const;

export const ROOF_TYPES = ['flat', 'hipped', 'gabled', 'onion', 'dome', 'round', 'skillion', 'mansard', 'quadrupleSaltbox', 'saltbox', 'gambrel', 'pyramidal'];
export const EXPORT_FORMATS = ['obj', '3dm', 'dxf', 'skp', 'glb', 'gltf', 'ifc', 'rvt', 'stl', 'ply', 'dae'];
export const GROUP_NAMES = ['buildings', 'surface', 'barriers', 'instances', 'infrastructure', 'topography'];

/** Every enumerated setting with its allowed values (crs also accepts any case of "local"). */
export const SETTING_ENUMS: Record<string, readonly string[]> = {
  defaultRoofType: ROOF_TYPES,
  buildingSources: ['all', 'global'],
  treeSource: ['standard', 'hybrid', 'canopy'],
  topographyReturnType: ['meshes', 'elevationMap', 'both'],
  crs: ['local', 'EPSG:3857', 'UTM'],
  upAxis: ['Y', 'Z'],
};

const anyCase = (word: string) =>
  fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

/** One valid value per settings field. */
const settingValues = {
  geometry: fc.array(fc.constantFrom(...GROUP_NAMES), { maxLength: 8 }),
  surfaceTypes: fc.array(fc.constantFrom('meshes', 'centerlines', 'outlines'), { minLength: 1, maxLength: 5 }),
  cropScene: fc.boolean(),
  defaultRoofType: fc.constantFrom(...ROOF_TYPES),
  defaultLevels: fc.double({ min: 0.1, max: 200, noNaN: true }),
  defaultLevelHeight: fc.double({ min: 0.01, max: 20, noNaN: true }),
  buildingSources: fc.constantFrom('all', 'global'),
  treeSource: fc.constantFrom('standard', 'hybrid', 'canopy'),
  canopyMinHeight: fc.double({ min: 1, max: 100, noNaN: true }),
  canopyMinSpacing: fc.double({ min: 1, max: 100, noNaN: true }),
  canopyMaxTrees: fc.integer({ min: 1, max: 40000 }),
  topographyModel: fc.boolean(),
  topographyReturnType: fc.constantFrom('meshes', 'elevationMap', 'both'),
  combineElevationMaps: fc.boolean(),
  projectToTopography: fc.boolean(),
  disableSurfaceProjection: fc.boolean(),
  crs: fc.oneof(anyCase('local'), fc.constantFrom('EPSG:3857', 'UTM')),
  upAxis: fc.constantFrom('Y', 'Z'),
  indexedMeshes: fc.boolean(),
};

const orNull = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: arb });

/** Unknown fields: names that are not fields of the contract, any JSON values. */
export function unknownFields(known: readonly string[]) {
  return fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.includes(k)),
    fc.jsonValue({ maxDepth: 3 }),
    { maxKeys: 3 },
  );
}

const SETTING_KEYS = Object.keys(SPEC_SETTING_DEFAULTS);
const EXPORT_KEYS = ['format', 'crs', 'placement', 'units', 'surfaceType'];
const BODY_KEYS = ['polygon', 'origin', 'settings', 'export'];

export const validSettings = fc
  .tuple(
    fc.record(Object.fromEntries(Object.entries(settingValues).map(([k, arb]) => [k, orNull(arb as fc.Arbitrary<unknown>)])), { requiredKeys: [] }),
    unknownFields(SETTING_KEYS),
  )
  .map(([fields, extra]) => ({ ...extra, ...fields }) as Record<string, unknown>);

const exportCrs = fc.oneof(
  anyCase('local'),
  fc.tuple(anyCase('epsg'), fc.integer({ min: 1024, max: 999999 })).map(([p, n]) => `${p}:${n}`),
);

export const validExport = fc
  .tuple(
    fc.record(
      {
        format: fc.constantFrom(...EXPORT_FORMATS),
        crs: orNull(exportCrs),
        placement: orNull(fc.constantFrom('anchor', 'absolute')),
        units: orNull(fc.constantFrom('m', 'mm', 'ft', 'in')),
        surfaceType: orNull(fc.constantFrom('meshes', 'centerlines', 'outlines')),
      },
      { requiredKeys: ['format'] },
    ),
    unknownFields(EXPORT_KEYS),
  )
  .map(([fields, extra]) => ({ ...extra, ...fields }) as Record<string, unknown>);

/** A valid body: random settings subset, optional export, optional origin, nulls and unknown fields. */
export const validBody = fc
  .tuple(
    smallRing,
    fc.record(
      {
        origin: orNull(place),
        settings: orNull(validSettings),
        export: orNull(validExport),
      },
      { requiredKeys: [] },
    ),
    unknownFields(BODY_KEYS),
  )
  .map(([polygon, optional, extra]) => {
    const body: Record<string, unknown> = { ...extra, polygon, ...optional };
    // An origin must lie near the polygon (origin_too_far): move a drawn one to the first corner's
    // neighbourhood, keeping its offset's fraction as a few km of jitter.
    if (Array.isArray(body.origin)) {
      const [lat, lon] = body.origin as LatLon;
      const [oLat, oLon] = offset(polygon[0], (lon % 1) * 20_000, (lat % 1) * 20_000);
      // kept on the globe: next to the antimeridian or a pole the offset could step past ±180° / ±90°
      body.origin = [Math.max(-90, Math.min(90, oLat)), Math.max(-180, Math.min(180, oLon))];
    }
    // Keep the one cross-field rule: an EPSG export crs needs settings.crs local.
    const settings = body.settings as Record<string, unknown> | null | undefined;
    const exp = body.export as Record<string, unknown> | null | undefined;
    if (exp && typeof exp.crs === 'string' && /^epsg/i.test(exp.crs) && settings && typeof settings.crs === 'string') {
      settings.crs = 'local';
    }
    return body;
  });
