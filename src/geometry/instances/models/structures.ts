import type { MeshBuilder } from '../../mesh-builder.ts';
import type { IndexedMesh } from '../../types.ts';
import { NOMINAL_HEIGHT } from '../catalogue.ts';
import { beam, box, column, frustum, model, polygon, strut } from './solids.ts';

/**
 * Low-poly models of tall structures at their nominal size (catalogue.ts NOMINAL_HEIGHT: the
 * model's top is that height), standing at the origin on z = 0, front facing +x, z up, every part
 * a closed outward solid (overlapping where parts meet, never sharing a face). Proportions from
 * the common European kinds: a single-circuit 30 m lattice pylon, a 50 m top-slewing tower crane,
 * a 40 m crawler crane with a luffing lattice boom, a 2 MW-class wind turbine (66 m hub, 68 m
 * rotor). Lattices are drawn as their legs, a few braces and arms: what reads from a street away.
 */
export type StructureType = 'transmissionTower' | 'towerCrane' | 'trackedCrane' | 'windTurbine';

/** Every structure type, for tests and galleries. */
export const STRUCTURE_TYPES: readonly StructureType[] = ['transmissionTower', 'towerCrane', 'trackedCrane', 'windTurbine'];

/** The model of a structure type at its nominal size. */
export function structureModel(type: StructureType): IndexedMesh {
  return model((b) => {
    if (type === 'transmissionTower') pylon(b, NOMINAL_HEIGHT.transmissionTower);
    else if (type === 'towerCrane') towerCrane(b, NOMINAL_HEIGHT.towerCrane);
    else if (type === 'trackedCrane') crawlerCrane(b, NOMINAL_HEIGHT.trackedCrane);
    else windTurbine(b, NOMINAL_HEIGHT.windTurbine);
  });
}

/**
 * A lattice pylon `h` tall (30 m): four legs leaning in from a 6 m square base to a 1.4 m square
 * at 90 % of the height (where wires attach, features/instances/wires.ts), one X brace on each face
 * of the lower half, two cross-arms across the line (±y; the line runs along x) at 70 % and 90 %,
 * and the earth-wire peak to the top.
 */
function pylon(b: MeshBuilder, h: number): void {
  const base = 0.1 * h,
    neck = 0.023 * h,
    legTop = 0.9 * h,
    leg = 0.012 * h;
  const half = (z: number) => base + ((neck - base) * z) / legTop;
  for (const [sx, sy] of CORNERS) column(b, [sx * base, sy * base, 0], [sx * neck, sy * neck, legTop], leg / Math.SQRT2, leg / Math.SQRT2, 4, Math.PI / 4);
  // X braces: each face of the lower half, corner to opposite corner
  const braceTop = 0.45 * h,
    w = half(braceTop);
  for (const [sx, sy] of CORNERS) {
    // the face between this corner and the next one counter-clockwise
    const [nx, ny] = [-sy, sx];
    strut(b, [sx * base, sy * base, 0.01 * h], [nx * w, ny * w, braceTop], 0.6 * leg, 3);
  }
  for (const [sx, sy] of CORNERS) {
    const [nx, ny] = [-sy, sx];
    strut(b, [nx * base, ny * base, 0.01 * h], [sx * w, sy * w, braceTop], 0.6 * leg, 3);
  }
  // the arms: 1 m deep girders across the line, the lower one wider (two circuits' phases)
  box(b, -0.017 * h, -0.23 * h, 0.7 * h - 0.02 * h, 0.017 * h, 0.23 * h, 0.7 * h);
  box(b, -0.017 * h, -0.17 * h, legTop - 0.02 * h, 0.017 * h, 0.17 * h, legTop);
  frustum(b, 0, 0, legTop - 0.01 * h, h, 1.5 * neck, 0, 4, Math.PI / 4);
}

const CORNERS = [
  [1, 1],
  [-1, 1],
  [-1, -1],
  [1, -1],
] as const;

/**
 * A top-slewing tower crane `h` tall (50 m) at the tower head's tip: a 1.8 m square mast to 84 %
 * of the height, the slewing unit and cab on it, a triangular jib reaching 45 m to the front (+x),
 * a 15 m counter-jib with its concrete counterweights behind, tie bars from the tower head to both,
 * and the trolley's hook hanging halfway down.
 */
function towerCrane(b: MeshBuilder, h: number): void {
  const k = h / 50;
  const jibZ = 43 * k;
  box(b, -2 * k, -2 * k, 0, 2 * k, 2 * k, 0.8 * k); // foundation block
  box(b, -0.9 * k, -0.9 * k, 0.5 * k, 0.9 * k, 0.9 * k, jibZ - 1.5 * k); // mast
  frustum(b, 0, 0, jibZ - 1.8 * k, jibZ - 0.6 * k, 1.4 * k, 1.4 * k, 6); // slewing ring
  box(b, 0.6 * k, 0.7 * k, jibZ - 2.8 * k, 2.6 * k, 2.3 * k, jibZ - 0.3 * k); // cab, beside the jib
  // jib: a triangular lattice girder, apex up, from behind the mast to its tip
  beam(
    b,
    [-1 * k, 0, jibZ - 0.8 * k],
    [45 * k, 0, jibZ - 0.8 * k],
    [
      [-0.8 * k, -0.5 * k],
      [0.8 * k, -0.5 * k],
      [0, 1 * k],
    ],
  );
  box(b, -16 * k, -0.9 * k, jibZ - 1 * k, -0.5 * k, 0.9 * k, jibZ); // counter-jib
  box(b, -15.5 * k, -1.3 * k, jibZ - 3.5 * k, -12 * k, 1.3 * k, jibZ - 0.5 * k); // counterweights
  frustum(b, 0, 0, jibZ - 0.5 * k, h, 1.1 * k, 0, 4, Math.PI / 4); // tower head
  strut(b, [0, 0, h - 0.6 * k], [30 * k, 0, jibZ + 0.1 * k], 0.25 * k, 3); // jib tie
  strut(b, [0, 0, h - 0.6 * k], [-14 * k, 0, jibZ - 0.2 * k], 0.25 * k, 3); // counter-jib tie
  box(b, 24 * k, -0.6 * k, jibZ - 1.8 * k, 26 * k, 0.6 * k, jibZ - 0.9 * k); // trolley
  box(b, 24.95 * k, -0.05 * k, 22 * k, 25.05 * k, 0.05 * k, jibZ - 1.7 * k); // hoist rope
  box(b, 24.6 * k, -0.4 * k, 20.5 * k, 25.4 * k, 0.4 * k, 22.1 * k); // hook block
}

/**
 * A crawler crane `h` tall (40 m) at its boom's head: two tracks (7 m long, 4.4 m over both) under
 * the upper works with cab (front left) and counterweight (back), a lattice boom luffed to 75°
 * toward the front, the gantry behind and the pendant from it to the boom head, hoist rope and hook
 * block hanging from the head.
 */
function crawlerCrane(b: MeshBuilder, h: number): void {
  const k = h / 40;
  box(b, -3.5 * k, -2.3 * k, 0, 3.5 * k, -1.3 * k, 1.1 * k); // tracks
  box(b, -3.5 * k, 1.3 * k, 0, 3.5 * k, 2.3 * k, 1.1 * k);
  box(b, -1.5 * k, -1.4 * k, 0.5 * k, 1.5 * k, 1.4 * k, 1.3 * k); // car body between the tracks
  box(b, -3 * k, -1.5 * k, 1.2 * k, 2 * k, 1.5 * k, 3 * k); // upper works
  box(b, -4.6 * k, -1.6 * k, 1.4 * k, -2.8 * k, 1.6 * k, 3.4 * k); // counterweight
  box(b, 1 * k, -1.5 * k, 1.4 * k, 2.7 * k, -0.5 * k, 3.6 * k); // cab
  // the boom from its foot at the front of the upper works to its head
  const foot = [1.5 * k, 0, 2.6 * k];
  const angle = (75 * Math.PI) / 180;
  const head = [foot[0] + ((h - 1 * k - foot[2]) / Math.tan(angle)) * 1, 0, h - 1 * k];
  const s0 = 0.7 * k,
    s1 = 0.35 * k;
  beam(
    b,
    foot,
    head,
    [
      [-s0, -s0 * 0.8],
      [s0, -s0 * 0.8],
      [s0, s0 * 0.8],
      [-s0, s0 * 0.8],
    ],
    [
      [-s1, -s1],
      [s1, -s1],
      [s1, s1],
      [-s1, s1],
    ],
  );
  box(b, head[0] - 0.6 * k, -0.4 * k, head[2] - 0.3 * k, head[0] + 0.9 * k, 0.4 * k, h); // boom head sheaves
  const gantry = [-2.6 * k, 0, 7 * k];
  strut(b, [-2.2 * k, 0, 2.8 * k], gantry, 0.35 * k, 3);
  strut(b, gantry, [head[0] - 0.2 * k, 0, head[2]], 0.12 * k, 3); // pendant
  box(b, head[0] + 0.55 * k, -0.05 * k, 9 * k, head[0] + 0.65 * k, 0.05 * k, head[2]); // hoist rope
  box(b, head[0] + 0.2 * k, -0.4 * k, 7.6 * k, head[0] + 1 * k, 0.4 * k, 9.1 * k); // hook block
}

/**
 * A wind turbine `h` tall at a blade's highest tip (100 m): a tapered tubular tower to the 66 m
 * hub, a nacelle behind the hub, a spinner and three 34 m blades turning in the y–z plane in front
 * of the tower (the rotor faces +x, into the wind), one blade straight up.
 */
function windTurbine(b: MeshBuilder, h: number): void {
  const hub = 0.66 * h,
    blade = h - hub,
    k = h / 100;
  frustum(b, 0, 0, 0, hub - 1.5 * k, 2.1 * k, 1.3 * k, 8, Math.PI / 8); // tower
  box(b, -6 * k, -1.7 * k, hub - 1.8 * k, 2.6 * k, 1.7 * k, hub + 1.7 * k); // nacelle
  beam(b, [2.4 * k, 0, hub], [5.2 * k, 0, hub], polygon(1.5 * k, 6), polygon(0.2 * k, 6)); // spinner
  const centre = [3.6 * k, 0, hub];
  for (let n = 0; n < 3; n++) {
    const a = Math.PI / 2 + (2 * Math.PI * n) / 3;
    const along = (r: number) => [centre[0], r * Math.cos(a), hub + r * Math.sin(a)];
    // a thin blade from inside the spinner (the three roots apart, so no two share an edge) to
    // its tip: the chord in the rotor plane, 2.8 m at the root to 0.5 m at the tip
    beam(b, along(0.8 * k), along(blade), aerofoil(0.35 * k, 1.4 * k), aerofoil(0.08 * k, 0.25 * k));
  }
}

/** A blade's section: a rhombus `thick` along the wind (the beam's u, ±x here) and `chord` across it. */
function aerofoil(thick: number, chord: number): number[][] {
  return [
    [thick, 0],
    [0, chord],
    [-thick, 0],
    [0, -chord],
  ];
}
