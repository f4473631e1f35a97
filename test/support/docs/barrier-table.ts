/**
 * The barrier size table of README.md "## Barriers", rendered from BARRIER_DEFAULTS so it cannot
 * go stale (test/unit/docs/readme-barriers.test.ts compares the README block with it). The block sits
 * between `<!-- barrier-defaults-table:start -->` and `<!-- barrier-defaults-table:end -->`.
 * `npm run docs:tables` rewrites it in README.md.
 */
import { BARRIER_DEFAULTS } from '../../../src/geometry/barriers/defaults.ts';

export const BARRIER_TABLE_NAME = 'barrier-defaults-table';

export function barrierDefaultsTableMarkdown(): string {
  const byMaterial = new Set(BARRIER_DEFAULTS.filter((r) => r.materials).map((r) => r.kind));
  const rows = BARRIER_DEFAULTS.map((r) =>
    `| \`${r.kind}\` | ${r.materials ? r.materials.map((m) => `\`${m}\``).join(', ') : byMaterial.has(r.kind) ? 'any other' : 'any'} | ${r.height} m | ${r.width} m | ${r.profile}${r.spacing ? `, posts every ${r.spacing} m` : ''}${r.span ? `; node: ${r.span} m opening` : ''} | ${r.note} |`);
  return ['| kind | material | height | width | profile | why |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The generated README blocks of this table, by name (see readme-blocks.ts). */
export const BARRIER_README_BLOCKS: Readonly<Record<string, () => string>> = { [BARRIER_TABLE_NAME]: barrierDefaultsTableMarkdown };
