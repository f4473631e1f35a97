/**
 * README.md "The ground" carries the current tables: the kinds table (surfaceAreaTableMarkdown,
 * rules.ts), the surface=* legend, the priority order (priority.ts) and the road and path widths
 * (roads/widths.ts). Regenerate with `npm run docs:tables`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../src/config.ts';
import { surfaceAreaTableMarkdown } from '../../../src/geometry/surfaces/classify/index.ts';
import { GROUND_README_BLOCKS } from '../../support/docs/ground-tables.ts';
import { readmeBlock } from '../../support/docs/readme-blocks.ts';

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

test('README.md carries the current kinds table (the same as the doc comment of rules.ts)', () => {
  assert.equal(readmeBlock(readme, 'surface-area-table'), surfaceAreaTableMarkdown(),
    'regenerate with npm run docs:tables');
});

test('README.md carries the current surface=* legend, priority order and road and path widths', () => {
  for (const [name, render] of Object.entries(GROUND_README_BLOCKS)) {
    assert.equal(readmeBlock(readme, name), render(), `README block ${name}: regenerate with npm run docs:tables`);
  }
});

test('the README blocks are in the section "The ground", each once', () => {
  const section = readme.slice(readme.indexOf('\n## The ground\n'), readme.indexOf('\n## ', readme.indexOf('\n## The ground\n') + 1));
  for (const name of Object.keys(GROUND_README_BLOCKS)) {
    assert.equal(section.split(`<!-- ${name}:start -->`).length, 2, `${name} in "The ground"`);
    assert.equal(readme.split(`<!-- ${name}:start -->`).length, 2, `${name} once in README.md`);
  }
});
