/**
 * Instances (trees, benches, …) in formats without instancing (OBJ, STL, PLY, DAE, DXF): each node
 * is drawn as a small square pyramid — base on the ground at the node, apex at its height — so a
 * designer sees where each object stands and how tall it is, at 6 triangles a node. Height is the
 * type's nominal height × `scale` (a tree: its real height); the base turns with `rotation`.
 */
import { NOMINAL_HEIGHT } from '../../geometry/instances/catalogue.ts';
import type { NodeType } from '../../geometry/instances/types.ts';
import type { ExportGroup, ExportMesh, ExportNode, ExportUnits } from '../scene.ts';
import { METRES_PER_UNIT } from '../scene.ts';

/** Triangles per node symbol: 4 sides + 2 for the base. */
export const SYMBOL_TRIANGLES = 6;

const INDICES = [0, 2, 1, 0, 3, 2, 0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4];

/** A node's pyramid in the scene's units, named by the node's id (or `<type>/<n>`). */
export function nodeSymbol(node: ExportNode, units: ExportUnits, n: number): ExportMesh {
  const k = 1 / METRES_PER_UNIT[units];
  const h = (NOMINAL_HEIGHT[node.type as NodeType] ?? 1) * node.scale * k;
  const r = Math.max(0.25 * k, 0.25 * h); // half the base side
  const [x, y, z] = node.position,
    c = Math.cos(node.rotation),
    s = Math.sin(node.rotation);
  const positions = new Float64Array(15);
  [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].forEach(([u, v], i) => {
    positions[i * 3] = x + r * (u * c - v * s);
    positions[i * 3 + 1] = y + r * (u * s + v * c);
    positions[i * 3 + 2] = z;
  });
  positions.set([x, y, z + h], 12);
  const id = typeof node.descriptor.id === 'string' ? node.descriptor.id : `${node.type}/${n}`;
  return { id, kind: node.type, positions, indices: new Uint32Array(INDICES), descriptor: node.descriptor };
}

/** A group's meshes with its nodes as symbols after them: what mesh-only writers draw. */
export function groupMeshes(group: ExportGroup, units: ExportUnits): ExportMesh[] {
  return [...group.meshes, ...group.nodes.map((node, i) => nodeSymbol(node, units, i))];
}
