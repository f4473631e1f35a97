import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../src/config.ts';
import { BARRIER_TABLE_NAME, barrierDefaultsTableMarkdown } from '../../support/docs/barrier-table.ts';
import { readmeBlock } from '../../support/docs/readme-blocks.ts';

test('README "## Barriers" prints the defaults table the code uses', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  assert.ok(readme.includes('\n## Barriers\n'), 'README has a "## Barriers" section');
  const block = readmeBlock(readme, BARRIER_TABLE_NAME);
  assert.ok(block !== null, 'README has the barrier-defaults-table block');
  assert.equal(block, barrierDefaultsTableMarkdown(), 'stale: run npm run docs:tables');
});
