/**
 * The generated tables of the docs (test/support/docs/: the barrier defaults in docs/barriers.md;
 * the ground's kinds, surface=* legend, priority order and road and path widths in docs/ground.md;
 * the node models in docs/trees.md),
 * each between its `<!-- name:start -->` and `<!-- name:end -->` lines. `npm run docs:tables`
 * (this with `--write`) rewrites them in place; without `--write` they are printed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { BARRIER_DOC } from '../../test/support/docs/barrier-table.ts';
import { withCurrentBlocks } from '../../test/support/docs/doc-blocks.ts';
import { GROUND_DOC } from '../../test/support/docs/ground-tables.ts';
import { MODEL_DOC } from '../../test/support/docs/model-table.ts';

for (const doc of [BARRIER_DOC, GROUND_DOC, MODEL_DOC]) {
  const path = join(REPO_ROOT, doc.path);
  if (process.argv.includes('--write')) writeFileSync(path, withCurrentBlocks(readFileSync(path, 'utf8'), doc.blocks));
  else for (const [name, render] of Object.entries(doc.blocks)) console.log(`${doc.path}\n<!-- ${name}:start -->\n${render()}\n<!-- ${name}:end -->\n`);
}
