/** Helpers for the premium store tests: an independent reprojection (PROJ's cs2cs) and a metric distance on lon/lat. */
import { execFileSync } from 'node:child_process';

/** Points (x y in `from`) converted by PROJ's cs2cs (Debian proj-bin) to WGS84 [lon, lat]. */
export function cs2csToLonLat(from: string, points: readonly (readonly [number, number])[]): [number, number][] {
  const input = `${points.map(([x, y]) => `${x} ${y}`).join('\n')}\n`;
  const out = execFileSync('cs2cs', ['-f', '%.12f', from, 'EPSG:4326'], { input, encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .map((line) => {
      const [lat, lon] = line.trim().split(/\s+/).map(Number); // EPSG:4326 is latitude first
      return [lon, lat];
    });
}

/** Distance in metres between two nearby lon/lat points. */
export function metresBetween(a: readonly [number, number], b: readonly [number, number]): number {
  const k = 111_319.49;
  const dx = (a[0] - b[0]) * k * Math.cos((a[1] * Math.PI) / 180);
  const dy = (a[1] - b[1]) * k;
  return Math.hypot(dx, dy);
}
