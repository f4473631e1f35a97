/**
 * The generated tables of README.md (test/support/docs/: the barrier defaults, the ground's kinds,
 * surface=* legend, priority order and road and path widths), each between its
 * `<!-- name:start -->` and `<!-- name:end -->` lines. `npm run docs:tables` (this with `--write`)
 * rewrites them in README.md; without `--write` they are printed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { BARRIER_README_BLOCKS } from '../../test/support/docs/barrier-table.ts';
import { GROUND_README_BLOCKS } from '../../test/support/docs/ground-tables.ts';
import { withCurrentBlocks } from '../../test/support/docs/readme-blocks.ts';

const BLOCKS = { ...GROUND_README_BLOCKS, ...BARRIER_README_BLOCKS };

const path = join(REPO_ROOT, 'README.md');
if (process.argv.includes('--write')) writeFileSync(path, withCurrentBlocks(readFileSync(path, 'utf8'), BLOCKS));
else for (const [name, render] of Object.entries(BLOCKS)) console.log(`<!-- ${name}:start -->\n${render()}\n<!-- ${name}:end -->\n`);
