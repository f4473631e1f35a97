import type { IndexedMesh } from '../../types.ts';
import { PALM_GENERA, type TreeKind } from '../../trees/tags/leaf.ts';
import { blob, frustum, model } from './solids.ts';

/** The three tree shapes the models draw. */
export type TreeForm = 'broadleaf' | 'conifer' | 'palm';

/** Genera drawn as conifers when `leaf_type` is not tagged (lower case). */
const CONIFER_GENERA = new Set(['pinus', 'picea', 'abies', 'cedrus', 'cupressus', 'larix', 'taxus', 'juniperus', 'pseudotsuga', 'sequoia', 'thuja', 'tsuga']);

/**
 * A tree's shape from what the node's descriptor says of it (OSM `leaf_type`, `genus`, `species`,
 * as trees/tags/leaf.ts reads them): a palm leaf type or genus → palm; `needleleaved` or a conifer
 * genus → conifer; anything else (broadleaved, untagged) → broadleaf, the common street and park tree.
 */
export function treeForm(kind: Readonly<TreeKind>): TreeForm {
  const genus = (kind.genus ?? kind.species?.split(/\s+/)[0] ?? '').trim().toLowerCase();
  if (kind.leafType === 'palm' || PALM_GENERA.has(genus)) return 'palm';
  if (kind.leafType === 'needleleaved' || CONIFER_GENERA.has(genus)) return 'conifer';
  return 'broadleaf';
}

/** Most triangles a tree model has (the file budget: a tree ≤ ~60 triangles). */
export const TREE_TRIANGLES_MAX = 60;

/**
 * A tree model standing at the origin, `height` tall with a crown `crownDiameter` across, z up,
 * closed and outward (each part a closed solid):
 * - broadleaf: a pentagonal trunk to 45 % of the height, a rounded crown (an icosahedron stretched
 *   to the crown's width and the upper 70 % of the height, overlapping the trunk's top);
 * - conifer: a trunk to 20 %, a heptagonal cone from 12 % to the top;
 * - palm: a slender tapered trunk to 85 %, five fronds — flat wedges — drooping from the top.
 */
export function treeModel(form: TreeForm, height: number, crownDiameter: number): IndexedMesh {
  const h = Math.max(height, 0.5),
    r = Math.max(crownDiameter, 0.3) / 2;
  // a 10 m tree's trunk ~0.4 m across at the foot (a street tree's stem, 25–40 cm at breast
  // height, drawn a little stout so it still reads at a distance); a palm's ~0.5 m, as thick as
  // a short one's and not much thicker on a tall one
  const trunk = Math.min(form === 'palm' ? 0.02 * h + 0.05 : 0.018 * h + 0.02, r * 0.35);
  return model((b) => {
    if (form === 'conifer') {
      frustum(b, 0, 0, 0, 0.2 * h, trunk, trunk * 0.8, 5);
      frustum(b, 0, 0, 0.12 * h, h, r, 0, 7);
    } else if (form === 'palm') {
      // the fronds' highest points (a tenth of their reach over the crown's centre) at the height
      const rise = Math.min(0.1 * r, h / 3),
        top = h - rise;
      frustum(b, 0, 0, 0, top, trunk * 0.9, trunk * 0.6, 5);
      for (let k = 0; k < 5; k++) frond(b, top, rise, r, (2 * Math.PI * k) / 5, 0.1 * r);
    } else {
      frustum(b, 0, 0, 0, 0.45 * h, trunk, trunk * 0.8, 5);
      const crownBottom = 0.3 * h;
      blob(b, 0, 0, (crownBottom + h) / 2, r, (h - crownBottom) / 2);
    }
  });
}

/**
 * A palm frond: a thin closed double wedge (6 faces) from the crown's centre out to `reach`, rising
 * by `rise` over the crown at its middle and drooping below it at its tip.
 */
function frond(b: Parameters<Parameters<typeof model>[0]>[0], top: number, rise: number, reach: number, angle: number, width: number): void {
  const c = Math.cos(angle),
    s = Math.sin(angle);
  const w = Math.max(width, 0.08);
  const droop = Math.min(0.35 * reach, 0.5 * top);
  const base = b.vertex(0, 0, top + 0.5 * rise);
  const tip = b.vertex(reach * c, reach * s, top - droop);
  const left = b.vertex(0.45 * reach * c - w * s, 0.45 * reach * s + w * c, top + rise);
  const right = b.vertex(0.45 * reach * c + w * s, 0.45 * reach * s - w * c, top + rise);
  const under = b.vertex(0.45 * reach * c, 0.45 * reach * s, top - 0.2 * rise);
  // a flat-ish double wedge: upper faces over the leaf, lower faces under it, closed at the rim
  b.triangle(base, right, left);
  b.triangle(left, right, tip);
  b.triangle(base, left, under);
  b.triangle(left, tip, under);
  b.triangle(base, under, right);
  b.triangle(right, under, tip);
}
