import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../src/config.ts';
import { BARRIER_DOC, BARRIER_TABLE_NAME, barrierDefaultsTableMarkdown } from '../../support/docs/barrier-table.ts';
import { docBlock } from '../../support/docs/doc-blocks.ts';

test('docs/barriers.md prints the defaults table the code uses', () => {
  const doc = readFileSync(join(REPO_ROOT, BARRIER_DOC.path), 'utf8');
  const block = docBlock(doc, BARRIER_TABLE_NAME);
  assert.ok(block !== null, 'docs/barriers.md has the barrier-defaults-table block');
  assert.equal(block, barrierDefaultsTableMarkdown(), 'stale: run npm run docs:tables');
});
