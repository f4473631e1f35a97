/**
 * Tests and scripts import each other one way only: scripts/ may use test/support/ (the fixture
 * generators, the compiled-server starter), but nothing under test/ imports scripts/, and
 * test/support/ imports no test file (so a helper never drags a test, or its lane, along).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { REPO_ROOT } from '../../../src/repo-root.ts';

/** Every .ts file below `dir`, relative to the repository root with forward slashes. */
function tsFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(REPO_ROOT, join(e.parentPath, e.name)).split(sep).join('/'));
}

/** The repository paths a file imports by relative specifier (static, dynamic and `new URL`). */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:from\s*|import\s*\(\s*|new URL\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g)].map((m) => m[2]);
  return specs.map((s) =>
    relative(REPO_ROOT, resolve(REPO_ROOT, dirname(file), s))
      .split(sep)
      .join('/'),
  );
}

test('nothing under test/ imports scripts/', () => {
  const found = tsFiles('test').flatMap((f) =>
    relativeImports(f)
      .filter((p) => p.startsWith('scripts/'))
      .map((p) => `${f} → ${p}`),
  );
  assert.deepEqual(found, []);
});

test('test/support/ imports no test file', () => {
  const found = tsFiles('test/support').flatMap((f) =>
    relativeImports(f)
      .filter((p) => p.endsWith('.test.ts'))
      .map((p) => `${f} → ${p}`),
  );
  assert.deepEqual(found, []);
});

test('the check sees imports (it would catch one)', () => {
  assert.ok(
    relativeImports('scripts/bench/bench.ts').some((p) => p.startsWith('test/support/')),
    'scripts/bench/bench.ts uses test/support/',
  );
  assert.ok(tsFiles('test/support').length > 10);
});
