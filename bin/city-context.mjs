#!/usr/bin/env node
/**
 * The `city-context` command (package.json `bin`). Runs the compiled command line when
 * `npm run build` made it (dist/src/cli/main.js), else the sources through tsx, in a node started
 * with `--import tsx` so that the tile and export threads load TypeScript too (they inherit the
 * flag; a loader registered here would not reach them). CITY_CONTEXT_FROM_SOURCE=1 takes the
 * sources even when dist/ exists (it may be older than them).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(compiled) && !process.env.CITY_CONTEXT_FROM_SOURCE) {
  await import(compiled.href);
} else {
  const source = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
  // tsx as this package has it, wherever the command runs from
  const tsx = import.meta.resolve('tsx');
  const child = spawn(process.execPath, ['--import', tsx, source, ...process.argv.slice(2)], { stdio: 'inherit' });
  // the terminal's Ctrl-C reaches the child itself (same process group): passing it on too would
  // be a second one, which stops the run without its clean-up; this process just waits for it
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
