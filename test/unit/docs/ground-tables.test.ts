/**
 * docs/ground.md carries the current tables: the kinds table (surfaceAreaTableMarkdown,
 * rules.ts), the surface=* legend, the priority order (priority.ts) and the road and path widths
 * (roads/widths.ts). Regenerate with `npm run docs:tables`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../src/config.ts';
import { surfaceAreaTableMarkdown } from '../../../src/geometry/surfaces/classify/index.ts';
import { GROUND_DOC } from '../../support/docs/ground-tables.ts';
import { docBlock } from '../../support/docs/doc-blocks.ts';

const doc = readFileSync(join(REPO_ROOT, GROUND_DOC.path), 'utf8');

test('docs/ground.md carries the current kinds table (the same as the doc comment of rules.ts)', () => {
  assert.equal(docBlock(doc, 'surface-area-table'), surfaceAreaTableMarkdown(), 'regenerate with npm run docs:tables');
});

test('docs/ground.md carries the current surface=* legend, priority order and road and path widths', () => {
  for (const [name, render] of Object.entries(GROUND_DOC.blocks)) {
    assert.equal(docBlock(doc, name), render(), `docs/ground.md block ${name}: regenerate with npm run docs:tables`);
  }
});

test('each docs/ground.md block is there once', () => {
  for (const name of Object.keys(GROUND_DOC.blocks)) {
    assert.equal(doc.split(`<!-- ${name}:start -->`).length, 2, `${name} once in docs/ground.md`);
  }
});
