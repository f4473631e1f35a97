import type { IndexedMesh } from '../../types.ts';
import { blob, box, frustum, model } from './solids.ts';

/**
 * Low-poly models of small street objects at their nominal size (catalogue.ts NOMINAL_HEIGHT:
 * the model's top is that height), standing at the origin on z = 0, front facing +x (a node's
 * `rotation` turns it, its `scale` sizes it), z up, every part a closed outward solid. Real
 * proportions from common European street furniture; a few dozen triangles each.
 */
export type FurnitureType =
  | 'shrubbery'
  | 'bench'
  | 'picnicTable'
  | 'streetLamp'
  | 'utilityPole'
  | 'hydrant'
  | 'wasteBasket'
  | 'postBox'
  | 'bollard'
  | 'flagpole'
  | 'adColumn'
  | 'busStop'
  | 'drinkingWater'
  | 'bicycleParking';

/** The model of a furniture type at its nominal size. */
export function furnitureModel(type: FurnitureType): IndexedMesh {
  return model((b) => {
    switch (type) {
      case 'shrubbery': // a rounded bush 2 m high, 2.4 m across
        blob(b, 0, 0, 1, 1.2, 1);
        break;
      case 'bench': // seat 0.45 m high, 1.8 m long (along y), backrest to 0.9 m behind it (−x)
        box(b, -0.2, -0.9, 0.4, 0.2, 0.9, 0.47);
        box(b, -0.24, -0.9, 0.5, -0.2, 0.9, 0.9);
        box(b, -0.15, -0.85, 0, 0.15, -0.75, 0.4);
        box(b, -0.15, 0.75, 0, 0.15, 0.85, 0.4);
        break;
      case 'picnicTable': // table top 0.75 m, two benches 0.45 m either side, 1.8 m long
        box(b, -0.4, -0.9, 0.7, 0.4, 0.9, 0.75);
        box(b, -0.05, -0.8, 0, 0.05, -0.7, 0.7);
        box(b, -0.05, 0.7, 0, 0.05, 0.8, 0.7);
        box(b, -0.75, -0.9, 0.4, -0.5, 0.9, 0.45);
        box(b, 0.5, -0.9, 0.4, 0.75, 0.9, 0.45);
        break;
      case 'streetLamp': // a 6 m pole with an arm and a lantern reaching 1.2 m forward
        frustum(b, 0, 0, 0, 5.9, 0.09, 0.06, 6);
        box(b, 0, -0.04, 5.8, 1.2, 0.04, 5.88);
        box(b, 0.9, -0.15, 5.6, 1.4, 0.15, 6);
        break;
      case 'utilityPole': // a 9 m wooden pole with a crossarm where wires attach (90 %, features/instances/wires.ts)
        frustum(b, 0, 0, 0, 9, 0.14, 0.1, 6);
        box(b, -0.05, -0.9, 8.05, 0.05, 0.9, 8.15);
        break;
      case 'hydrant': // a 0.8 m pillar hydrant with its cap
        frustum(b, 0, 0, 0, 0.65, 0.12, 0.1, 8);
        frustum(b, 0, 0, 0.65, 0.8, 0.11, 0.02, 8);
        box(b, -0.05, -0.18, 0.4, 0.05, 0.18, 0.48);
        break;
      case 'wasteBasket': // a 1 m bin on a post
        frustum(b, 0, 0, 0, 0.5, 0.04, 0.04, 5);
        frustum(b, 0, 0, 0.45, 1, 0.22, 0.25, 8);
        break;
      case 'postBox': // a 1.3 m pillar box
        frustum(b, 0, 0, 0, 1.15, 0.25, 0.25, 8);
        frustum(b, 0, 0, 1.15, 1.3, 0.27, 0.05, 8);
        break;
      case 'bollard':
        frustum(b, 0, 0, 0, 0.9, 0.1, 0.09, 6);
        break;
      case 'flagpole': // an 8 m pole with a flag to +x near the top
        frustum(b, 0, 0, 0, 8, 0.06, 0.03, 5);
        box(b, 0.05, -0.01, 6.6, 1.8, 0.01, 7.8);
        break;
      case 'adColumn': // a 3 m advertising column (Litfaßsäule) with its cap
        frustum(b, 0, 0, 0, 2.7, 0.6, 0.6, 10);
        frustum(b, 0, 0, 2.7, 3, 0.7, 0.1, 10);
        break;
      case 'busStop': // a 3.6 m shelter open to the front: roof to 2.6 m, glass back and one side, bench, stop sign
        box(b, -0.85, -1.85, 2.45, 0.85, 1.85, 2.6);
        for (const [x, y] of [
          [-0.72, -1.72],
          [-0.72, 1.72],
          [0.72, -1.72],
          [0.72, 1.72],
        ])
          box(b, x - 0.04, y - 0.04, 0, x + 0.04, y + 0.04, 2.5);
        box(b, -0.74, -1.7, 0.12, -0.7, 1.7, 2.3);
        box(b, -0.72, 1.7, 0.12, 0.55, 1.74, 2.3);
        box(b, -0.71, -1.3, 0.42, -0.3, 1.3, 0.48);
        frustum(b, 1.05, -2.1, 0, 2.2, 0.04, 0.04, 4);
        box(b, 1.03, -2.35, 1.85, 1.07, -1.85, 2.35);
        break;
      case 'drinkingWater': // a 1 m fountain post with its spout over a small bowl, on a drain
        frustum(b, 0, 0, 0, 0.06, 0.3, 0.28, 6);
        frustum(b, 0, 0, 0.04, 0.9, 0.12, 0.1, 8);
        frustum(b, 0, 0, 0.89, 1, 0.13, 0, 8);
        box(b, 0.05, -0.02, 0.78, 0.24, 0.02, 0.82);
        frustum(b, 0.22, 0, 0.55, 0.62, 0.06, 0.13, 6);
        break;
      case 'bicycleParking': // three 0.8 m hoops (Sheffield stands) 0.9 m apart, bikes park along x
        for (const y of [-0.9, 0, 0.9]) {
          box(b, -0.4, y - 0.025, 0, -0.35, y + 0.025, 0.78);
          box(b, 0.35, y - 0.025, 0, 0.4, y + 0.025, 0.78);
          box(b, -0.41, y - 0.026, 0.75, 0.41, y + 0.026, 0.8);
        }
        break;
    }
  });
}

/** Every furniture type, for tests and galleries. */
export const FURNITURE_TYPES: readonly FurnitureType[] = [
  'shrubbery',
  'bench',
  'picnicTable',
  'streetLamp',
  'utilityPole',
  'hydrant',
  'wasteBasket',
  'postBox',
  'bollard',
  'flagpole',
  'adColumn',
  'busStop',
  'drinkingWater',
  'bicycleParking',
];
