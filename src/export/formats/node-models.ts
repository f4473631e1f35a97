/**
 * Nodes (trees, benches, …) as the files draw them: each node's shared model
 * (geometry/instances/models) placed by its position, its turn about up and its scale per axis,
 * in the scene's units. Formats with instancing write each model once and refer to it per node
 * (glTF nodes, DXF INSERT, 3dm instance references, IFC mapped items, COLLADA instance_node);
 * the others (OBJ, STL, PLY) write the placed mesh of each node, named by its type and name.
 * Wires are not models: they come to the writers as cables (polylines, ../scene-from-tiles.ts).
 */
import { modelMesh, modelPlacement, type ModelPlacement } from '../../geometry/instances/models/index.ts';
import type { IndexedMesh } from '../../geometry/types.ts';
import type { ExportGroup, ExportMesh, ExportNode, ExportUnits } from '../scene.ts';
import { METRES_PER_UNIT } from '../scene.ts';

/** Where a node's model goes: its key, and the model's transform into the scene (units included). */
export interface NodeInstance {
  model: string;
  /** Scene position of the model's origin. */
  position: [number, number, number];
  /** Radians, counter-clockwise about up. */
  rotation: number;
  /** Scale along the model's x, y, z, the scene's units per metre included. */
  scale: [number, number, number];
}

/** The instance of a node in a scene of `units`, or null when the node has no model (a wire). */
export function nodeInstance(node: ExportNode, units: ExportUnits): NodeInstance | null {
  const placed: ModelPlacement | null = modelPlacement(node.type, node.scale, node.descriptor);
  if (!placed) return null;
  const k = 1 / METRES_PER_UNIT[units];
  return { model: placed.key, position: node.position, rotation: node.rotation, scale: [placed.scale[0] * k, placed.scale[1] * k, placed.scale[2] * k] };
}

/** The shared model of a key, in metres, z up. */
export function sharedModel(key: string): IndexedMesh {
  return modelMesh(key);
}

/**
 * A node's name in the files: its source id (`node/123`; a row tree `way/5#3`; a wire `way/7#2`),
 * else the id its tile gave it (procedural trees), else its type and position to the centimetre,
 * so repeated exports name it the same whatever order the tiles came in.
 */
export function nodeName(node: ExportNode): string {
  const d = node.descriptor;
  if (typeof d.id === 'string' && d.id) {
    const part = typeof d.row === 'number' ? d.row : typeof d.span === 'number' ? d.span : null;
    return part === null ? d.id : `${d.id}#${part}`;
  }
  const [x, y] = node.position;
  return `${node.type}@${x.toFixed(2)},${y.toFixed(2)}`;
}

/** A node's model placed in the scene: the mesh formats without instancing write. Null for a wire. */
export function placedNodeMesh(node: ExportNode, units: ExportUnits): ExportMesh | null {
  const inst = nodeInstance(node, units);
  if (!inst) return null;
  const m = sharedModel(inst.model);
  const positions = new Float64Array(m.positions.length);
  placeModel(m.positions, inst, positions);
  return { id: nodeName(node), kind: node.type, positions, indices: m.indices, descriptor: node.descriptor };
}

/** Model positions (metres, z up) to scene positions: scale, turn about z, move. */
export function placeModel(model: Float64Array, inst: NodeInstance, out: Float64Array): void {
  const c = Math.cos(inst.rotation),
    s = Math.sin(inst.rotation);
  const [sx, sy, sz] = inst.scale,
    [x, y, z] = inst.position;
  for (let i = 0; i < model.length; i += 3) {
    const u = model[i] * sx,
      v = model[i + 1] * sy;
    out[i] = x + u * c - v * s;
    out[i + 1] = y + u * s + v * c;
    out[i + 2] = z + model[i + 2] * sz;
  }
}

/** A group's meshes with its nodes' placed models after them: what mesh-only writers draw. */
export function groupMeshes(group: ExportGroup, units: ExportUnits): ExportMesh[] {
  const nodes = group.nodes.map((node) => placedNodeMesh(node, units)).filter((m): m is ExportMesh => m !== null);
  return [...group.meshes, ...nodes];
}

/**
 * What a node is, as the formats without instancing put it in an object's name
 * (`tree-broadleaf:node/3`): its model's key when the model is the type's own (a tree by its form,
 * a bench), else its type (a bus stop drawn as the fallback post is still a `busStop`).
 */
export function nodeTypeName(node: ExportNode, inst: NodeInstance): string {
  return inst.model === node.type || inst.model.startsWith(`${node.type}-`) ? inst.model : node.type;
}
