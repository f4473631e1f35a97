import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/config.ts';
import { barrierDefaultsTableMarkdown, readmeBlock } from '../scripts/lib/barrier-readme-table.ts';

test('README "## Barriers" prints the defaults table the code uses', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  assert.ok(readme.includes('\n## Barriers\n'), 'README has a "## Barriers" section');
  const block = readmeBlock(readme);
  assert.ok(block !== null, 'README has the barrier-defaults-table block');
  assert.equal(block, barrierDefaultsTableMarkdown(), 'stale: run node --import tsx scripts/lib/barrier-readme-table.ts --write');
});
