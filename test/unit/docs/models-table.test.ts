import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../src/config.ts';
import { docBlock } from '../../support/docs/doc-blocks.ts';
import { MODEL_DOC, MODEL_TABLE_NAME, modelTableMarkdown } from '../../support/docs/model-table.ts';

test('docs/trees.md prints the node models as the code builds them', () => {
  const doc = readFileSync(join(REPO_ROOT, MODEL_DOC.path), 'utf8');
  const block = docBlock(doc, MODEL_TABLE_NAME);
  assert.ok(block !== null, 'docs/trees.md has the node-models-table block');
  assert.equal(block, modelTableMarkdown(), 'stale: run npm run docs:tables');
});
