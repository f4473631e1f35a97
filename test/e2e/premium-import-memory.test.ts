/**
 * The premium import streams: ~30 MB of each format (the bundled samples copied side by side) goes
 * through `scripts/import-buildings.ts` in a process whose V8 old space is capped at 64 MB. Parsed
 * whole, any of these files would need several times that, so the import would die of heap
 * exhaustion; it must instead finish with every building in, and print its progress on the way.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBerlinGml, writeZurichCityJson, writeZurichSeq } from '../support/generators/premium-sample-copies.ts';

const dir = mkdtempSync(join(tmpdir(), 'premium-memory-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const SIZE = 30 * 1048576;

const cases = [
  { file: 'copies.city.json', write: writeZurichCityJson },
  { file: 'copies.city.jsonl', write: writeZurichSeq },
  { file: 'copies.gml', write: writeBerlinGml },
];

for (const c of cases) {
  test(`${c.file}: ~30 MB imported with a 64 MB old-space cap, every building in`, () => {
    const path = join(dir, c.file);
    const buildings = c.write(path, SIZE);
    assert.ok(statSync(path).size > 0.6 * SIZE, 'the generated file is large enough to matter');
    const run = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=64',
        '--import',
        'tsx',
        'scripts/import-buildings.ts',
        path,
        '--dataset',
        'copies',
        '--country',
        'CH',
        '--out',
        join(dir, `${c.file}.sqlite`),
      ],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /\(100%\)/, 'progress lines (on stderr) up to the end of the file');
    assert.match(run.stdout, new RegExp(`^buildings: ${buildings} \\(`, 'm'));
    assert.match(run.stdout, /imported dataset copies/);
  });
}
