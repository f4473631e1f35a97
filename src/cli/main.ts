#!/usr/bin/env node
/**
 * `city-context <command> [options]`: the command line's entry (package.json `bin` runs it through
 * bin/city-context.mjs, compiled or from source; `npm run cli -- …` from source).
 */
import { EXIT_FAILED } from './command.ts';
import { runCli } from './dispatch.ts';

// a reader that stops early (`| head`) ends the run quietly, as for any command line tool
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(EXIT_FAILED);
});

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
