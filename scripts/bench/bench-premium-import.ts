/**
 * Premium import throughput and memory: the bundled samples copied into large files (CityJSON with
 * vertices after CityObjects, CityJSONSeq, CityGML; BENCH_PREMIUM_MB each, default 100), each
 * imported in a fresh process. Prints MB/s, buildings/s, CPU seconds and the import's peak RSS,
 * which must not grow with the file (the import streams; target ≤ 300 MB).
 *
 *   node --import tsx scripts/bench/bench-premium-import.ts      (BENCH_PREMIUM_MB=400 for a bigger run)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/repo-root.ts';
import { writeBerlinGml, writeZurichCityJson, writeZurichSeq } from '../../test/support/generators/premium-sample-copies.ts';

const targetMb = Number(process.env.BENCH_PREMIUM_MB) || 100;
const dir = mkdtempSync(join(tmpdir(), 'bench-premium-'));
const RSS_TARGET_MB = 300;

const cases = [
  { name: 'CityJSON 1.1 (vertices last)', file: 'zurich-copies.city.json', write: writeZurichCityJson },
  { name: 'CityJSONSeq', file: 'zurich-copies.city.jsonl', write: writeZurichSeq },
  { name: 'CityGML 1.0', file: 'berlin-copies.gml', write: writeBerlinGml },
];

try {
  console.log(`premium import bench: ~${targetMb} MB per format, each imported in its own process`);
  for (const c of cases) {
    const path = join(dir, c.file);
    const written = c.write(path, targetMb * 1048576);
    const mb = statSync(path).size / 1048576;
    const started = performance.now();
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'scripts/bench/lib/premium-import-run.ts'), path, join(dir, `${c.file}.sqlite`), 'bench'],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      },
    );
    const wall = (performance.now() - started) / 1000;
    const r = JSON.parse(out.trim().split('\n').at(-1)!) as {
      buildings: number;
      parts: number;
      seconds: number;
      peakRssBytes: number;
      cpuSeconds: number;
      skipped: number;
    };
    const rss = r.peakRssBytes / 1048576;
    console.log(
      `${c.name.padEnd(30)} ${mb.toFixed(0).padStart(5)} MB, ${r.buildings} buildings (${written} written, ${r.skipped} left out), ${r.parts} parts: ` +
        `import ${r.seconds.toFixed(1)} s (process ${wall.toFixed(1)} s wall, ${r.cpuSeconds.toFixed(1)} CPU-s), ` +
        `${(mb / r.seconds).toFixed(1)} MB/s, ${(r.buildings / r.seconds).toFixed(0)} buildings/s, peak RSS ${rss.toFixed(0)} MB${rss > RSS_TARGET_MB ? ` — above the ${RSS_TARGET_MB} MB target` : ''}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
