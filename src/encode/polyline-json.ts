import type { JsonBytesWriter } from './json-bytes.ts';

/**
 * Writes one polyline item of a `polylines` group (docs/design.md):
 * `{"vertices":[x,y,z,…],"closed":…,"descriptor":…}`. Positions must already be in output
 * coordinates.
 */
export function writePolylineJson(w: JsonBytesWriter, positions: Float64Array, closed: boolean, descriptor: unknown): void {
  w.raw('{"vertices":[');
  for (let i = 0; i < positions.length; i++) {
    if (i > 0) w.byte(44);
    w.mm(positions[i]);
  }
  w.raw(closed ? '],"closed":true,"descriptor":' : '],"closed":false,"descriptor":')
    .value(descriptor)
    .byte(125);
}
