/**
 * The georeference as plain lines for formats that only have comments for it (OBJ, PLY, STL
 * header, DAE asset, DXF 999 comments and note): where the origin lies, the CRS, the units.
 */
import type { ExportScene } from '../scene.ts';
import { num } from './text-number.ts';

export function georefLines(scene: ExportScene): string[] {
  const g = scene.georef;
  const crs = g.crs === 'local' ? 'local transverse Mercator frame at the origin' : `EPSG:${g.crs}`;
  const lines = [
    `City Context export ${scene.name}; Z up, x east, y north; units: ${scene.units}`,
    `CRS: ${crs}${g.proj4 ? ` (${g.proj4})` : ''}`,
    g.placement === 'anchor'
      ? `Placement anchor: (0, 0, 0) is the origin at WGS84 lat ${num(g.origin.lat)}, lon ${num(g.origin.lon)} = grid E ${num(g.originGrid[0])}, N ${num(g.originGrid[1])} (${scene.units})`
      : `Placement absolute: x, y are ${crs} grid coordinates (${scene.units}); origin WGS84 lat ${num(g.origin.lat)}, lon ${num(g.origin.lon)} = grid E ${num(g.originGrid[0])}, N ${num(g.originGrid[1])}`,
  ];
  if (g.gridConvergence !== 0) lines.push(`Grid convergence at the origin: ${num(g.gridConvergence)} rad`);
  return [...lines, ...scene.attribution];
}
