import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/config.ts';
import { barrierDefaultsTableMarkdown, readmeBlock } from '../scripts/lib/barrier-readme-table.ts';

test('docs/barriers.md prints the defaults table the code uses', () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs/barriers.md'), 'utf8');
  const block = readmeBlock(doc);
  assert.ok(block !== null, 'docs/barriers.md has the barrier-defaults-table block');
  assert.equal(block, barrierDefaultsTableMarkdown(), 'stale: run node --import tsx scripts/lib/barrier-readme-table.ts --write');
});
