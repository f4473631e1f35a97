/**
 * The node model table of docs/trees.md ("Models"), its numbers measured from the models
 * themselves (src/geometry/instances/models: every key of modelKeys(), its height, footprint and
 * triangles), so it cannot go stale (test/unit/docs/models-table.test.ts compares the block there
 * with it). The block sits between `<!-- node-models-table:start -->` and
 * `<!-- node-models-table:end -->`. `npm run docs:tables` rewrites it.
 */
import { modelKeys, modelMesh } from '../../../src/geometry/instances/models/index.ts';
import type { DocBlocks } from './doc-blocks.ts';

export const MODEL_TABLE_NAME = 'node-models-table';

/** What each model looks like, in a designer's words (a key without one fails the table). */
const LOOKS: Record<string, string> = {
  'tree-broadleaf': 'trunk to 45 % of the height, a rounded crown (a stretched icosahedron) over the upper 70 %',
  'tree-conifer': 'short trunk, a heptagonal cone from 12 % of the height to the top',
  'tree-palm': 'slim tapered stem, five drooping fronds',
  shrubbery: 'a rounded bush',
  bench: 'seat at 0.45 m, backrest behind (−x), two supports; 1.8 m long',
  picnicTable: 'table top at 0.75 m between two benches',
  busStop: 'shelter open to the front: roof, glass back and one side wall, four posts, bench; the stop sign beside it',
  utilityPole: 'wooden pole with a crossarm',
  transmissionTower: 'lattice pylon: four legs from a 6 m base, X braces on the lower half, two cross-arms (±y, across the line), earth-wire peak',
  hydrant: 'pillar hydrant with its cap and two outlets',
  adColumn: 'advertising column (Litfaßsäule) with its cap',
  trackedCrane: 'crawler crane: two tracks, upper works with cab and counterweight, lattice boom luffed to 75° forward, pendant, hook',
  towerCrane: 'tower crane: mast, slewing ring and cab, 45 m jib forward, counter-jib with counterweights, tower head and ties, hook',
  windTurbine: 'tapered tubular tower, nacelle, spinner and three blades (66 m hub, 34 m blades, one straight up), rotor facing +x',
  memorial: 'obelisk-like stele on two steps',
  statueSmall: 'standing figure (legs, torso, arms, head) on a plinth',
  statueBig: 'standing figure with an arm raised, on a two-stage pedestal',
  sculpture: 'open octagonal ring facing the front, on a low plinth',
  streetLamp: 'pole, arm and lantern reaching forward',
  wasteBasket: 'bin on a post',
  postBox: 'pillar box with a domed cap',
  drinkingWater: 'fountain post with spout and bowl, on a drain',
  flagpole: 'pole with a flag to the front',
  bicycleParking: 'three hoops (Sheffield stands) 0.9 m apart',
  marker: 'a pointed square post: a node type no model knows',
};

export function modelTableMarkdown(): string {
  const rows = modelKeys().map((key) => {
    const p = modelMesh(key).positions;
    const lo = [Infinity, Infinity, Infinity],
      hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < p.length; i++) {
      lo[i % 3] = Math.min(lo[i % 3], p[i]);
      hi[i % 3] = Math.max(hi[i % 3], p[i]);
    }
    const size = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1)).replace(/\.?0+$/, '');
    const looks = LOOKS[key];
    if (!looks) throw new Error(`no description of model ${key} in test/support/docs/model-table.ts`);
    return `| \`${key}\` | ${looks} | ${size(hi[2])} m | ${size(hi[0] - lo[0])} × ${size(hi[1] - lo[1])} m | ${modelMesh(key).indices.length / 3} |`;
  });
  return ['| model | what it looks like | height | footprint x × y | triangles |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** docs/trees.md and its generated block. */
export const MODEL_DOC: DocBlocks = { path: 'docs/trees.md', blocks: { [MODEL_TABLE_NAME]: modelTableMarkdown } };
