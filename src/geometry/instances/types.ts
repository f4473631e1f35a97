/** Node types of the `instances` group (docs/design.md "Nodes"). */
export type NodeType =
  | 'tree'
  | 'shrubbery'
  | 'bench'
  | 'picnicTable'
  | 'busStop'
  | 'utilityPole'
  | 'transmissionTower'
  | 'wire'
  | 'hydrant'
  | 'adColumn'
  | 'trackedCrane'
  | 'towerCrane'
  | 'windTurbine'
  | 'memorial'
  | 'statueSmall'
  | 'statueBig'
  | 'sculpture'
  | 'streetLamp'
  | 'wasteBasket'
  | 'postBox'
  | 'drinkingWater'
  | 'flagpole'
  | 'bicycleParking';

/** One placed instance in the local frame (x east, y north, z up), before the output transform. */
export interface InstanceNode {
  type: NodeType;
  x: number;
  y: number;
  z: number;
  /** Radians, counter-clockwise about the up axis; 0 = the model's front faces east (+x). */
  rotation: number;
  /** Relative to the type's nominal size (catalogue.ts). */
  scale: number;
  descriptor: Record<string, unknown>;
}
