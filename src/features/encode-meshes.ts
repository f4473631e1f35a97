import { JsonBytesWriter } from '../encode/json-bytes.ts';
import { writeMeshBinary } from '../encode/mesh-binary.ts';
import { writeMeshJson } from '../encode/mesh-json.ts';
import type { IndexedMesh } from '../geometry/types.ts';
import type { FamilyOutput, TileContext } from './family.ts';
import type { TileGroupResult } from '../plan/tile-result.ts';

/**
 * A family's meshes as one group's JSON items — or, for an export, one binary chunk
 * (`output.binaryMeshes`, encode/mesh-binary.ts) — in the output frame (positions are rewritten in
 * place). With `extend` the local box of the returned geometry grows over them first, so terrain
 * reaches under what stands on it (buildings, barriers).
 */
export function encodeMeshes(
  tile: TileContext,
  out: FamilyOutput,
  items: readonly { mesh: IndexedMesh; descriptor: unknown }[],
  extend: boolean,
  initialBytes = 1 << 16,
): TileGroupResult {
  if (tile.task.output.binaryMeshes) {
    for (const item of items) {
      if (extend) out.extend(item.mesh.positions);
      tile.toOutput(item.mesh.positions);
    }
    return { count: items.length, json: items.length ? writeMeshBinary(items) : new Uint8Array(0) };
  }
  const w = new JsonBytesWriter(initialBytes, tile.task.output.decimals);
  items.forEach((item, n) => {
    if (n > 0) w.byte(44);
    if (extend) out.extend(item.mesh.positions);
    tile.toOutput(item.mesh.positions);
    writeMeshJson(w, item.mesh, item.descriptor, tile.task.output.indexed);
  });
  return { count: items.length, json: w.take() };
}
