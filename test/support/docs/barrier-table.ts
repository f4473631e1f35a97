/**
 * The barrier size table of docs/barriers.md, rendered from BARRIER_DEFAULTS so it cannot go
 * stale (test/unit/docs/barriers-table.test.ts compares the block there with it). The block sits
 * between `<!-- barrier-defaults-table:start -->` and `<!-- barrier-defaults-table:end -->`.
 * `npm run docs:tables` rewrites it.
 */
import type { DocBlocks } from './doc-blocks.ts';
import { BARRIER_DEFAULTS } from '../../../src/geometry/barriers/defaults.ts';

export const BARRIER_TABLE_NAME = 'barrier-defaults-table';

export function barrierDefaultsTableMarkdown(): string {
  const byMaterial = new Set(BARRIER_DEFAULTS.filter((r) => r.materials).map((r) => r.kind));
  const rows = BARRIER_DEFAULTS.map(
    (r) =>
      `| \`${r.kind}\` | ${r.materials ? r.materials.map((m) => `\`${m}\``).join(', ') : byMaterial.has(r.kind) ? 'any other' : 'any'} | ${r.height} m | ${r.width} m | ${r.profile}${r.spacing ? `, posts every ${r.spacing} m` : ''}${r.span ? `; node: ${r.span} m opening` : ''} | ${r.note} |`,
  );
  return ['| kind | material | height | width | profile | why |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** docs/barriers.md and its generated block. */
export const BARRIER_DOC: DocBlocks = { path: 'docs/barriers.md', blocks: { [BARRIER_TABLE_NAME]: barrierDefaultsTableMarkdown } };
