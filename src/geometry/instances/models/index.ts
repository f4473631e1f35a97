/**
 * Which model draws a node, and how it is sized: the one table every file writer (and the viewer)
 * reads. Each model is built once, at its reference size, standing on z = 0 at the origin, front
 * to +x, z up, in metres; a node places it with its position, its rotation about z and a scale
 * per axis. Trees keep their own proportions (crown across and height scale apart), everything
 * else scales uniformly from its nominal height (catalogue.ts).
 *
 * To add a model: build it in a module of this folder and register its types in MODELS below.
 * Wires are not models: they are drawn as cables between their supports (cable.ts).
 */
import type { IndexedMesh } from '../../types.ts';
import type { TreeKind } from '../../trees/tags/leaf.ts';
import { NOMINAL_HEIGHT } from '../catalogue.ts';
import { MARKER_KEY, markerModel } from './marker.ts';
import { monumentModel } from './monuments.ts';
import { furnitureModel } from './street-furniture.ts';
import { structureModel } from './structures.ts';
import { treeForm, treeModel, type TreeForm } from './trees.ts';

/** A node's model and the scale that sizes it: `key` names the shared model (a block, a mesh, a type in the files). */
export interface ModelPlacement {
  key: string;
  /** Scale along the model's x, y, z. */
  scale: [number, number, number];
}

/** Reference size of each tree form: the model is built this tall and this wide, then scaled to the node's height and crown. */
const TREE_REFERENCE: Record<TreeForm, { height: number; crown: number }> = {
  broadleaf: { height: 10, crown: 7 },
  conifer: { height: 10, crown: 4.5 },
  palm: { height: 10, crown: 6 },
};

/** Builders of the shared models by key (each called once per process, then cached): every node type but `wire`, trees by form. */
const MODELS = new Map<string, () => IndexedMesh>([
  ['tree-broadleaf', () => treeModel('broadleaf', TREE_REFERENCE.broadleaf.height, TREE_REFERENCE.broadleaf.crown)],
  ['tree-conifer', () => treeModel('conifer', TREE_REFERENCE.conifer.height, TREE_REFERENCE.conifer.crown)],
  ['tree-palm', () => treeModel('palm', TREE_REFERENCE.palm.height, TREE_REFERENCE.palm.crown)],
  ['shrubbery', () => furnitureModel('shrubbery')],
  ['bench', () => furnitureModel('bench')],
  ['picnicTable', () => furnitureModel('picnicTable')],
  ['busStop', () => furnitureModel('busStop')],
  ['utilityPole', () => furnitureModel('utilityPole')],
  ['transmissionTower', () => structureModel('transmissionTower')],
  ['hydrant', () => furnitureModel('hydrant')],
  ['adColumn', () => furnitureModel('adColumn')],
  ['trackedCrane', () => structureModel('trackedCrane')],
  ['towerCrane', () => structureModel('towerCrane')],
  ['windTurbine', () => structureModel('windTurbine')],
  ['memorial', () => monumentModel('memorial')],
  ['statueSmall', () => monumentModel('statueSmall')],
  ['statueBig', () => monumentModel('statueBig')],
  ['sculpture', () => monumentModel('sculpture')],
  ['streetLamp', () => furnitureModel('streetLamp')],
  ['wasteBasket', () => furnitureModel('wasteBasket')],
  ['postBox', () => furnitureModel('postBox')],
  ['drinkingWater', () => furnitureModel('drinkingWater')],
  ['flagpole', () => furnitureModel('flagpole')],
  ['bicycleParking', () => furnitureModel('bicycleParking')],
  [MARKER_KEY, markerModel],
]);

/** Most triangles any model has (trees: TREE_TRIANGLES_MAX): the file budget per shared model. */
export const MODEL_TRIANGLES_MAX = 160;

const built = new Map<string, IndexedMesh>();

/** Every model key, in a fixed order (the files list their blocks / types in it). */
export function modelKeys(): string[] {
  return [...MODELS.keys()];
}

/** The shared model of a key (metres, z up, on z = 0 at the origin); built on first use. An unknown key gets the marker. */
export function modelMesh(key: string): IndexedMesh {
  const known = MODELS.has(key) ? key : MARKER_KEY;
  let m = built.get(known);
  if (!m) built.set(known, (m = MODELS.get(known)!()));
  return m;
}

/**
 * The model of a node and its scale, or null for a wire (a cable, not a model). Trees: the form
 * from `leafType`/`genus`/`species`, sized by the descriptor's `height` and `crownDiameter`
 * (their `scale` × nominal height when the descriptor lacks them); other types: their nominal
 * model × `scale`. A type no model knows (a newer server's, a typo) is drawn as the marker,
 * `scale` metres tall, so it still shows where it stands.
 */
export function modelPlacement(type: string, scale: number, descriptor: Readonly<Record<string, unknown>>): ModelPlacement | null {
  if (type === 'wire') return null;
  if (type === 'tree') {
    const form = treeForm(descriptor as TreeKind);
    const ref = TREE_REFERENCE[form];
    const height = positive(descriptor.height) ?? scale * NOMINAL_HEIGHT.tree;
    const crown = positive(descriptor.crownDiameter) ?? (height * ref.crown) / ref.height;
    const across = crown / ref.crown;
    return { key: `tree-${form}`, scale: [across, across, height / ref.height] };
  }
  const s = positive(scale) ?? 1;
  return { key: MODELS.has(type) && !type.startsWith('tree-') ? type : MARKER_KEY, scale: [s, s, s] };
}

function positive(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}
