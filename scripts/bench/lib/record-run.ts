/**
 * `BENCH_WRITE=1 npm run bench`: every line the bench prints is kept, and at the end the
 * `bench-latest` block of docs/performance.md is replaced by them with the date, the machine and
 * the Node version, so the dated figures there come from a run, not from copying.
 */
import { cpus } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../src/config.ts';
import { withCurrentBlocks } from '../../../test/support/docs/doc-blocks.ts';

const DOC = 'docs/performance.md';

/** Starts keeping what console.log prints; the returned function writes it into the doc (when asked to). */
export function recordBenchRun(write: boolean): () => void {
  const lines: string[] = [];
  const log = console.log.bind(console);
  console.log = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
    log(...args);
  };
  return () => {
    console.log = log;
    if (!write) return;
    const path = join(REPO_ROOT, DOC);
    const cpu = cpus();
    const head =
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}), Node ${process.version}` +
      `, BENCH_RUNS=${process.env.BENCH_RUNS || 3}${process.env.BENCH_ONLY ? `, BENCH_ONLY=${process.env.BENCH_ONLY}` : ''}:`;
    const block = `${head}\n\n\`\`\`text\n${lines.join('\n')}\n\`\`\``;
    writeFileSync(path, withCurrentBlocks(readFileSync(path, 'utf8'), { 'bench-latest': () => block }));
    log(`bench: figures written to ${DOC} (bench-latest)`);
  };
}
