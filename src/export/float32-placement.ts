/**
 * Formats that store coordinates as float32 by definition (binary STL) cannot hold absolute grid
 * coordinates to the documented precision: a float32 has a 24-bit significand, so a UTM northing
 * near 4,846,000 m is rounded to steps of 0.5 m (up to 0.25 m off) and in millimetres to steps of
 * 512 mm. Such an export is refused with a 400 before any work or charge, naming what it would
 * lose and what to ask for instead, rather than written with a warning nobody reads: a file that
 * silently tears is worse than none. Anchor placement keeps the numbers small (the STL header
 * gives the origin's grid position); OBJ, PLY (doubles), DAE and DXF keep absolute coordinates exact.
 * glTF is float32 too but carries the offset in its root node's translation, a JSON double.
 */
import { ApiError } from '../contract/errors.ts';
import type { ExportFormat } from '../contract/types.ts';
import { METRES_PER_UNIT, type ExportGeoreference, type ExportUnits } from './scene.ts';

/** Formats whose coordinates are float32, vertex by vertex, with no node translation to move them by. */
const FLOAT32_FORMATS: ReadonlySet<ExportFormat> = new Set(['stl']);

/** The most rounding (metres) an absolute float32 file may add: the documented coordinate precision is 0.71 mm, of which 0.5 mm is the tiles' rounding. */
const MAX_FLOAT32_ROUNDING_M = 0.0005;

/** Spacing of float32 values near `v` (in v's units): one unit in the last place of the 24-bit significand. */
export function float32Step(v: number): number {
  const a = Math.abs(v);
  return a === 0 ? 0 : 2 ** (Math.floor(Math.log2(a)) - 23);
}

/**
 * The 400 `invalid_setting` for an absolute export in a float32 format whose origin lies at grid
 * coordinates float32 cannot hold to the documented precision, else null. Judged at the origin's
 * grid position (`georef.originGrid`, in `units`); a `local` CRS (origin 0, 0) always passes.
 */
export function float32PlacementError(format: ExportFormat, georef: ExportGeoreference, units: ExportUnits): ApiError | null {
  if (!FLOAT32_FORMATS.has(format) || georef.placement !== 'absolute') return null;
  const largest = Math.max(Math.abs(georef.originGrid[0]), Math.abs(georef.originGrid[1]));
  const step = float32Step(largest),
    lostM = (step / 2) * METRES_PER_UNIT[units];
  if (lostM <= MAX_FLOAT32_ROUNDING_M) return null;
  const crs = georef.crs === 'local' ? 'local' : `EPSG:${georef.crs}`;
  const why =
    `${format.toUpperCase()} stores coordinates as float32: absolute ${crs} grid coordinates near ${Math.round(largest).toLocaleString('en-US')} ${units} ` +
    `would be rounded to steps of ${step} ${units} (up to ${formatMetres(lostM)} off).`;
  return new ApiError(
    'invalid_setting',
    `${why} Use placement "anchor" (the file's header gives the origin's grid position) or obj, ply, dae or dxf, which keep absolute coordinates exact.`,
    [{ path: ['export', 'placement'], message: why }],
  );
}

function formatMetres(m: number): string {
  return m >= 0.01 ? `${Number(m.toPrecision(3))} m` : `${Number((m * 1000).toPrecision(3))} mm`;
}
