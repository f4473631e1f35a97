/**
 * Document settings of a 3dm export: units, tolerance, the EarthAnchorPoint and document user text
 * describing the georeference, so Rhino (and Grasshopper, Rhino.Inside) place the model on Earth.
 *
 * The model's axes are the scene's, i.e. the grid axes of `georef.crs`; true north differs from grid
 * north by the meridian convergence γ, so the anchor's north/east are those turned by γ.
 */
import type { ExportScene, ExportUnits } from '../scene.ts';
import { METRES_PER_UNIT } from '../scene.ts';
import type { DocumentSettings } from './rhino3dm-tables.ts';

/** Document user text keys (Rhino: Document User Text panel; `GetDocumentUserText` in scripts). */
export const GEOREF_TEXT_KEYS = ['CityContext.crs', 'CityContext.proj4', 'CityContext.placement', 'CityContext.originGrid', 'CityContext.attribution'] as const;

/** ON::LengthUnitSystem of each export unit. */
const UNIT_SYSTEM: Record<ExportUnits, number> = { mm: 2, m: 4, in: 8, ft: 9 };

/** True north and east in model (grid) axes: grid north is true north turned γ counter-clockwise. */
export function modelNorthEast(gridConvergence: number): { north: number[]; east: number[] } {
  const s = Math.sin(gridConvergence),
    c = Math.cos(gridConvergence);
  return { north: [s, c, 0], east: [c, -s, 0] };
}

export function documentSettings(scene: ExportScene): DocumentSettings {
  const g = scene.georef;
  const { north, east } = modelNorthEast(g.gridConvergence);
  return {
    unitSystem: UNIT_SYSTEM[scene.units],
    metresPerUnit: METRES_PER_UNIT[scene.units],
    // 1 mm, whatever the units: meshes are exact, the tolerance only guides later modelling.
    absoluteTolerance: 0.001 / METRES_PER_UNIT[scene.units],
    anchor: {
      latitude: g.origin.lat,
      longitude: g.origin.lon,
      elevation: 0,
      // The model point at the origin: 0,0 when coordinates are origin-relative, the origin's grid position when absolute.
      modelBasePoint: g.placement === 'absolute' ? [g.originGrid[0], g.originGrid[1], 0] : [0, 0, 0],
      modelNorth: north,
      modelEast: east,
      name: g.crs === 'local' ? 'local transverse Mercator at the origin' : `EPSG:${g.crs}`,
      description: `City Context export, ${g.placement} placement in ${scene.units}`,
    },
  };
}

/** The georeference as document user text, keyed by GEOREF_TEXT_KEYS. */
export function documentStrings(scene: ExportScene): [string, string][] {
  const g = scene.georef;
  const values = [
    g.crs === 'local' ? 'local' : `EPSG:${g.crs}`,
    g.proj4 ?? '',
    g.placement,
    `${g.originGrid[0]} ${g.originGrid[1]} ${scene.units}`,
    scene.attribution.join('; '),
  ];
  return GEOREF_TEXT_KEYS.map((k, i) => [k, values[i]]);
}
