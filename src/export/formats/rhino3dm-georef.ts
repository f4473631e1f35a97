/**
 * Document settings of a 3dm export: units, tolerance, the EarthAnchorPoint and document user text
 * describing the georeference, so Rhino (and Grasshopper, Rhino.Inside) place the model on Earth.
 *
 * The model's axes are the scene's, i.e. the grid axes of `georef.crs`; true north differs from grid
 * north by the meridian convergence γ, so the anchor's north/east are those turned by γ.
 */
import type { File3dm, RhinoModule } from 'rhino3dm';
import type { ExportScene, ExportUnits } from '../scene.ts';
import { METRES_PER_UNIT } from '../scene.ts';
import { free } from './rhino3dm-wasm.ts';

/** Document user text keys (Rhino: Document User Text panel; `GetDocumentUserText` in scripts). */
export const GEOREF_TEXT_KEYS = ['CityContext.crs', 'CityContext.proj4', 'CityContext.placement', 'CityContext.originGrid', 'CityContext.attribution'] as const;

function unitSystem(rh: RhinoModule, units: ExportUnits) {
  return { m: rh.UnitSystem.Meters, mm: rh.UnitSystem.Millimeters, ft: rh.UnitSystem.Feet, in: rh.UnitSystem.Inches }[units];
}

/** True north and east in model (grid) axes: grid north is true north turned γ counter-clockwise. */
export function modelNorthEast(gridConvergence: number): { north: number[]; east: number[] } {
  const s = Math.sin(gridConvergence), c = Math.cos(gridConvergence);
  return { north: [s, c, 0], east: [c, -s, 0] };
}

export function writeDocumentGeoreference(rh: RhinoModule, doc: File3dm, scene: ExportScene): void {
  const g = scene.georef;
  const settings = doc.settings();
  settings.modelUnitSystem = unitSystem(rh, scene.units);
  // 1 mm, whatever the units: meshes are exact, the tolerance only guides later modelling.
  settings.modelAbsoluteTolerance = 0.001 / METRES_PER_UNIT[scene.units];

  const anchor = settings.earthAnchorPoint;
  anchor.earthBasepointLatitude = g.origin.lat;
  anchor.earthBasepointLongitude = g.origin.lon;
  anchor.earthBasepointElevation = 0;
  // The model point at the origin: 0,0 when coordinates are origin-relative, the origin's grid position when absolute.
  anchor.modelBasePoint = g.placement === 'absolute' ? [g.originGrid[0], g.originGrid[1], 0] : [0, 0, 0];
  const { north, east } = modelNorthEast(g.gridConvergence);
  anchor.modelNorth = north;
  anchor.modelEast = east;
  anchor.name = g.crs === 'local' ? 'local transverse Mercator at the origin' : `EPSG:${g.crs}`;
  anchor.description = `City Context export, ${g.placement} placement in ${scene.units}`;
  settings.earthAnchorPoint = anchor; // the getter hands back a copy
  free(anchor, settings);

  const strings = doc.strings();
  const values = [
    g.crs === 'local' ? 'local' : `EPSG:${g.crs}`, g.proj4 ?? '', g.placement,
    `${g.originGrid[0]} ${g.originGrid[1]} ${scene.units}`, scene.attribution.join('; '),
  ];
  GEOREF_TEXT_KEYS.forEach((k, i) => strings.set(k, values[i]));
  free(strings);
}
