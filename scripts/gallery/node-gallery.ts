/**
 * The scene of `npm run gallery:exports`: every node type's model lined up and labelled, in rows
 * by size, standing on a grey apron, so a person can look at each one in every format.
 *
 * - row 1 (y = 0): street furniture and small monuments — every type without a place of its own,
 *   a type added later included — from the lowest to the tallest, 4 m apart at least;
 * - row 2 (y = −25): trees of every form at several heights (crowns from the leaf type's
 *   crown / height ratio, docs/trees.md), then the big statue and the utility pole;
 * - row 3 (y = −90): the structures, and one power-line span (a `wire`: a cable, 3 % sag,
 *   attached at 90 % of the towers' height as features/instances/wires.ts attaches it) between
 *   two transmission towers.
 * Each node's name in the files (descriptor `id`, node-models.ts nodeName) is its label.
 */
import type { ExportMesh, ExportNode, ExportPolyline, ExportScene } from '../../src/export/scene.ts';
import { NOMINAL_HEIGHT } from '../../src/geometry/instances/catalogue.ts';
import { cablePoints } from '../../src/geometry/instances/models/cable.ts';
import { modelMesh, modelPlacement } from '../../src/geometry/instances/models/index.ts';
import type { NodeType } from '../../src/geometry/instances/types.ts';

/** A label: what it says, and where it stands (the node's position, metres, z up). */
export interface GalleryLabel {
  text: string;
  type: string;
  position: [number, number, number];
  /** How tall the labelled thing is (m): the render sizes the label by it. */
  height: number;
}

export interface NodeGallery {
  scene: ExportScene;
  labels: GalleryLabel[];
  /** The rows, for cameras: name, first and last x, y, tallest height, how long a stretch one picture shows. */
  rows: { name: string; x0: number; x1: number; y: number; height: number; stretch: number }[];
}

/** Types with a row or a place of their own; every other type (a new one too) joins the street row. */
const TREE_ROW: NodeType[] = ['statueBig', 'utilityPole'];
const STRUCTURES: NodeType[] = ['trackedCrane', 'towerCrane', 'windTurbine'];
const SMALL = (Object.keys(NOMINAL_HEIGHT) as NodeType[])
  .filter((t) => t !== 'tree' && t !== 'wire' && t !== 'transmissionTower' && !TREE_ROW.includes(t) && !STRUCTURES.includes(t))
  .sort((a, b) => NOMINAL_HEIGHT[a] - NOMINAL_HEIGHT[b]);

/** Trees: form (by the tags that choose it), heights, crown / height (docs/trees.md defaults). */
const TREES: { label: string; tags: Record<string, string>; heights: number[]; crownShare: number }[] = [
  { label: 'broadleaf', tags: { leafType: 'broadleaved' }, heights: [5, 10, 20], crownShare: 0.6 },
  { label: 'conifer', tags: { leafType: 'needleleaved' }, heights: [8, 14, 25], crownShare: 0.35 },
  { label: 'palm', tags: { leafType: 'palm', genus: 'Phoenix' }, heights: [5, 8, 15], crownShare: 0.6 },
];

const SPAN = 160;

export function nodeGallery(): NodeGallery {
  const nodes: ExportNode[] = [],
    labels: GalleryLabel[] = [],
    rows: NodeGallery['rows'] = [];
  const place = (type: string, label: string, x: number, y: number, height: number, descriptor: Record<string, unknown> = {}) => {
    nodes.push({ type, position: [x, y, 0], rotation: turn(type), scale: 1, descriptor: { type, id: label, source: 'gallery', ...descriptor } });
    labels.push({ text: label, type, position: [x, y, 0], height });
  };

  let x = 0;
  for (const type of SMALL) {
    const [lo, hi] = along(type);
    x += Math.max(2, 1 - lo);
    place(type, type, x, 0, NOMINAL_HEIGHT[type]);
    x += Math.max(2, hi + 1);
  }
  rows.push({ name: 'street', x0: 0, x1: x, y: 0, height: 5, stretch: 22 });

  x = 0;
  for (const t of TREES)
    for (const h of t.heights) {
      const crown = t.crownShare * h;
      x += Math.max(3, crown / 2 + 1);
      place('tree', `tree ${t.label} ${h} m`, x, -25, h, { ...t.tags, height: h, crownDiameter: crown });
      x += Math.max(3, crown / 2 + 1);
    }
  for (const type of TREE_ROW) {
    const [lo, hi] = along(type);
    x += Math.max(3, 2 - lo);
    place(type, type, x, -25, NOMINAL_HEIGHT[type]);
    x += Math.max(3, hi + 2);
  }
  rows.push({ name: 'trees', x0: 0, x1: x, y: -25, height: 20, stretch: 80 });

  x = 0;
  for (const type of STRUCTURES) {
    const [lo, hi] = along(type);
    x += 10 - lo;
    place(type, type, x, -90, NOMINAL_HEIGHT[type]);
    x += hi + 10;
  }
  const towerA = x + 10,
    towerB = towerA + SPAN;
  place('transmissionTower', 'transmissionTower', towerA, -90, NOMINAL_HEIGHT.transmissionTower);
  place('transmissionTower', 'transmissionTower 2', towerB, -90, NOMINAL_HEIGHT.transmissionTower);
  const attach = 0.9 * NOMINAL_HEIGHT.transmissionTower;
  const from = [towerA, -90, attach],
    to = [towerB, -90, attach];
  const wire: ExportPolyline = {
    id: 'wire',
    kind: 'wire',
    points: cablePoints(from, to),
    closed: false,
    descriptor: { type: 'wire', id: 'wire', source: 'gallery', from, to, length: SPAN, span: 0, power: 'line' },
  };
  labels.push({ text: 'wire (160 m span, 3 % sag)', type: 'wire', position: [(towerA + towerB) / 2, -90, 0], height: 60 });
  rows.push({ name: 'structures', x0: 0, x1: towerB + 10, y: -90, height: 100, stretch: 220 });

  const xMax = Math.max(...rows.map((r) => r.x1)) + 10;
  const apron = quad('apron', 'pavement', -10, -140, xMax, 15, -0.02);
  const scene: ExportScene = {
    name: 'city-context-node-gallery',
    units: 'm',
    georef: { crs: 'local', origin: { lat: 43.7335, lon: 7.419 }, originGrid: [0, 0], gridConvergence: 0, placement: 'anchor' },
    groups: [
      { name: 'surface', meshes: [apron], polylines: [], nodes: [] },
      { name: 'instances', meshes: [], polylines: [wire], nodes },
    ],
    attribution: ['City Context node gallery (made-up scene)'],
  };
  return { scene, labels, rows };
}

/**
 * How each model is turned: its front (+x) to the south (−y), towards the cameras, but the cranes
 * (jib along the row) and the pylons (arms across the line, which runs along the row).
 */
function turn(type: string): number {
  return type === 'towerCrane' || type === 'trackedCrane' || type === 'transmissionTower' || type === 'tree' ? 0 : -Math.PI / 2;
}

/** How far a type's model reaches along the row (x) either side of its position, nominal size, turned. */
function along(type: NodeType): [number, number] {
  const m = modelMesh(modelPlacement(type, 1, {})!.key).positions;
  const c = Math.cos(turn(type)),
    s = Math.sin(turn(type));
  let lo = 0,
    hi = 0;
  for (let i = 0; i < m.length; i += 3) {
    const x = c * m[i] - s * m[i + 1];
    lo = Math.min(lo, x);
    hi = Math.max(hi, x);
  }
  return [lo, hi];
}

/** A flat upward rectangle at height z. */
function quad(id: string, kind: string, x0: number, y0: number, x1: number, y1: number, z: number): ExportMesh {
  return {
    id,
    kind,
    positions: new Float64Array([x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z]),
    indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    descriptor: { type: kind, id },
    colour: [0.72, 0.72, 0.7],
  };
}
