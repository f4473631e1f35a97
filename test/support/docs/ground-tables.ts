/**
 * The tables of docs/ground.md, rendered from the code that decides (so they cannot go
 * stale: test/unit/docs/ground-tables.test.ts compares each block there with its renderer):
 *
 * - `surface-area-table`: OSM area tags → `descriptor.type` (surfaceAreaTableMarkdown, rules.ts);
 * - `surface-policy-legend`: what `surface=*` does under each policy of that table;
 * - `ground-priority-table`: which kind keeps the ground where areas overlap (priority.ts);
 * - `road-width-table`, `path-width-table`: default widths of carriageways and paths (roads/widths.ts).
 *
 * Each block sits in docs/ground.md between `<!-- name:start -->` and `<!-- name:end -->` lines.
 * `npm run docs:tables` rewrites them.
 */
import type { DocBlocks } from './doc-blocks.ts';
import { surfaceAreaTableMarkdown, surfacePolicyLegend } from '../../../src/geometry/surfaces/classify/index.ts';
import { BASE_GROUND_PRIORITY, SURFACE_PRIORITY, URBAN_LANDUSE_PRIORITY } from '../../../src/geometry/surfaces/priority.ts';
import {
  CARRIAGEWAY_CLASSES,
  CYCLE_LANE_WIDTH,
  DEFAULT_SIDEWALK_WIDTH,
  PARKING_LANE_WIDTHS,
  PATH_WIDTHS,
} from '../../../src/geometry/surfaces/roads/widths.ts';

const m = (v: number) => `${v} m`;
const list = (keys: readonly string[]) => keys.map((k) => `\`${k}\``).join(', ');

/** Keys with equal values, grouped in their first order. */
function grouped<T>(record: Readonly<Record<string, T>>, key: (v: T) => string): [string[], T][] {
  const groups = new Map<string, [string[], T]>();
  for (const [k, v] of Object.entries(record)) {
    const g = groups.get(key(v));
    if (g) g[0].push(k);
    else groups.set(key(v), [[k], v]);
  }
  return [...groups.values()];
}

/** Carriageway classes: lane width, untagged lane counts, paved edge and the resulting untagged widths. */
export function roadWidthTableMarkdown(): string {
  const lines = [
    '| `highway=` | lane width | lanes when untagged: two-way / one-way | paved edge (shoulders, strips) | untagged width: two-way / one-way |',
    '|---|---|---|---|---|',
  ];
  for (const [keys, c] of grouped(CARRIAGEWAY_CLASSES, (c) => `${c.lane}/${c.lanesTwoWay}/${c.lanesOneWay}/${c.edge}`)) {
    const two = c.lanesTwoWay * c.lane + c.edge,
      one = c.lanesOneWay * c.lane + c.edge;
    lines.push(`| ${list(keys)} | ${m(c.lane)} | ${c.lanesTwoWay} / ${c.lanesOneWay} | ${m(c.edge)} | ${m(two)} / ${m(one)} |`);
  }
  return lines.join('\n');
}

/** Path widths, sidewalks and on-carriageway extras. */
export function pathWidthTableMarkdown(): string {
  const lines = ['| what | width when untagged |', '|---|---|'];
  for (const [keys, w] of grouped(PATH_WIDTHS, String)) lines.push(`| \`highway=\` ${list(keys)} | ${m(w)} |`);
  lines.push(`| sidewalk strip (\`sidewalk=*\` without \`sidewalk:*:width\`) | ${m(DEFAULT_SIDEWALK_WIDTH)} |`);
  lines.push(`| painted cycle lane (\`cycleway[:both\\|:left\\|:right]=lane\`), added to the carriageway | ${m(CYCLE_LANE_WIDTH)} per side |`);
  const parking = Object.entries(PARKING_LANE_WIDTHS)
    .map(([o, w]) => `${o} ${m(w)}`)
    .join(', ');
  lines.push(
    `| parking lane (\`parking:lane:<side>=*\`, or \`parking:<side>=lane\` + \`parking:<side>:orientation\`), added to the carriageway | ${parking} per side |`,
  );
  return lines.join('\n');
}

/** Kinds from highest priority to lowest, equal priorities on one row, then urban land use and the base ground. */
export function groundPriorityTableMarkdown(): string {
  const lines = ['| priority | kind (`descriptor.type`) |', '|---|---|'];
  const byPriority = grouped(Object.fromEntries(Object.entries(SURFACE_PRIORITY).sort((a, b) => b[1] - a[1])), String);
  for (const [kinds, p] of byPriority) lines.push(`| ${p} | ${kinds.join(', ')} |`);
  lines.push(`| ${URBAN_LANDUSE_PRIORITY} | urban land use (rows marked *urban* in the kinds table): \`pavement\` below every other mapped area |`);
  lines.push(
    `| ${BASE_GROUND_PRIORITY} | base ground (the filler): whatever no mapped area covers, \`pavement\` or \`grass\` with \`inferred: true\` by its context ("The filler") |`,
  );
  return lines.join('\n');
}

/** docs/ground.md and its generated blocks, by name. */
export const GROUND_DOC: DocBlocks = {
  path: 'docs/ground.md',
  blocks: {
    'surface-area-table': surfaceAreaTableMarkdown,
    'surface-policy-legend': surfacePolicyLegend,
    'ground-priority-table': groundPriorityTableMarkdown,
    'road-width-table': roadWidthTableMarkdown,
    'path-width-table': pathWidthTableMarkdown,
  },
};
