/**
 * Binary STL: one solid of all triangles (meshes and each street object's placed model; polylines
 * have no place in STL). The format has no units, names or colours: the 80-byte header says the
 * units, placement, CRS and where the origin lies, and docs/exports.md says the rest. Coordinates
 * are float32, so absolute grid coordinates would be rounded (UTM northings in metres to ±0.25 m):
 * such requests are refused before they reach a writer (../float32-placement.ts).
 */
import type { ExportFile, ExportScene } from '../scene.ts';
import { groupMeshes } from './node-models.ts';

export function writeStl(scene: ExportScene): ExportFile {
  const meshes = scene.groups.flatMap((g) => groupMeshes(g, scene.units));
  const count = meshes.reduce((n, m) => n + m.indices.length / 3, 0);
  const bytes = new Uint8Array(84 + 50 * count);
  const view = new DataView(bytes.buffer);
  // Never start with "solid": readers would take the file for ASCII STL.
  // 80 bytes: units, placement, CRS and the origin's grid position (6 decimals: a micrometre in metres, so the
  // stated origin adds nothing to the geometry's own millimetre; ≤ 78 characters for any grid up to 10^7 m in mm).
  const g = scene.georef,
    crs = g.crs === 'local' ? 'local' : `EPSG:${g.crs}`;
  const header = `CityContext ${scene.units} ${g.placement} ${crs} E0=${g.originGrid[0].toFixed(6)} N0=${g.originGrid[1].toFixed(6)}`;
  bytes.set(new TextEncoder().encode(header.slice(0, 80)));
  view.setUint32(80, count, true);
  let o = 84;
  for (const m of meshes) {
    const p = m.positions,
      ix = m.indices;
    for (let t = 0; t < ix.length; t += 3) {
      const a = ix[t] * 3,
        b = ix[t + 1] * 3,
        c = ix[t + 2] * 3;
      const ux = p[b] - p[a],
        uy = p[b + 1] - p[a + 1],
        uz = p[b + 2] - p[a + 2];
      const vx = p[c] - p[a],
        vy = p[c + 1] - p[a + 1],
        vz = p[c + 2] - p[a + 2];
      let nx = uy * vz - uz * vy,
        ny = uz * vx - ux * vz,
        nz = ux * vy - uy * vx;
      const len = Math.hypot(nx, ny, nz) || 1;
      nx /= len;
      ny /= len;
      nz /= len;
      for (const v of [nx, ny, nz, p[a], p[a + 1], p[a + 2], p[b], p[b + 1], p[b + 2], p[c], p[c + 1], p[c + 2]]) {
        view.setFloat32(o, v, true);
        o += 4;
      }
      o += 2; // attribute byte count: 0
    }
  }
  return { bytes, extension: 'stl', contentType: 'model/stl' };
}
