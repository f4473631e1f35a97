import type { JsonBytesWriter } from './json-bytes.ts';

/**
 * Writes one item of a `nodes` group (docs/design.md "Nodes"): `{"type":…,"x":…,"y":…,"z":…,
 * "rotation":…,"scale":…,"descriptor":…}`. x, y, z must already be in output coordinates.
 */
export function writeNodeJson(w: JsonBytesWriter, type: string, x: number, y: number, z: number, rotation: number, scale: number, descriptor: unknown): void {
  w.raw('{"type":"')
    .raw(type)
    .raw('","x":')
    .mm(x)
    .raw(',"y":')
    .mm(y)
    .raw(',"z":')
    .mm(z)
    .raw(',"rotation":')
    .mm(rotation)
    .raw(',"scale":')
    .mm(scale)
    .raw(',"descriptor":')
    .value(descriptor)
    .byte(125);
}
