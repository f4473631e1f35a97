/**
 * What streaming writers share: the whole-scene form of a streaming writer (its items fed in the
 * writers' group order, as tests and `load` writers call it), and the item dispatch of the
 * mesh-only text formats (DXF, DAE, OBJ), which draw nodes as their symbols.
 */
import type { ExportFile, ExportGroupName, ExportMesh, ExportPolyline, ExportScene, ExportUnits, FinishedExport } from '../scene.ts';
import type { SceneItem } from '../scene-from-tiles.ts';
import { placedNodeMesh } from './node-models.ts';
import { joinBytes } from './text-sink.ts';

/** A streaming writer whose file is ready as soon as it finishes (nothing asynchronous to wait for). */
export interface SyncStreamingWriter {
  add(group: ExportGroupName, it: SceneItem): void;
  finish(scene: ExportScene): FinishedExport;
  abort(): void;
}

/** Writes a whole scene through a streaming writer (each group's meshes, polylines, then nodes); the file in one piece. */
export function writeThroughStream(stream: SyncStreamingWriter, scene: ExportScene): ExportFile {
  for (const group of scene.groups) {
    for (const item of group.meshes) stream.add(group.name, { kind: 'mesh', item });
    for (const item of group.polylines) stream.add(group.name, { kind: 'polyline', item });
    for (const item of group.nodes) stream.add(group.name, { kind: 'node', item });
  }
  const file = stream.finish(scene);
  return { ...file, bytes: Array.isArray(file.bytes) ? joinBytes(file.bytes) : file.bytes };
}

/** Items to `mesh` and `polyline`, a node as its placed model (node-models.ts). */
export function meshItems(
  units: ExportUnits,
  mesh: (group: ExportGroupName, m: ExportMesh) => void,
  polyline: (group: ExportGroupName, l: ExportPolyline) => void,
) {
  return (group: ExportGroupName, it: SceneItem): void => {
    if (it.kind === 'mesh') mesh(group, it.item);
    else if (it.kind === 'polyline') polyline(group, it.item);
    else {
      const placed = placedNodeMesh(it.item, units);
      if (placed) mesh(group, placed);
    }
  };
}
