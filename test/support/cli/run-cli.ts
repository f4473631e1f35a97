/**
 * The `city-context` command as a user runs it: a child process through package.json's bin
 * (bin/city-context.mjs), from the sources (tsx) or from the compiled dist/, with stdout and
 * stderr as pipes (not a terminal).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../src/repo-root.ts';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const BIN = join(REPO_ROOT, 'bin/city-context.mjs');

/** Runs the command in `cwd`; `compiled` takes dist/ (build it first), else the sources. */
export function cli(args: string[], options: { cwd: string; env?: Record<string, string>; compiled?: boolean }): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (options.compiled) delete env.CITY_CONTEXT_FROM_SOURCE;
  else env.CITY_CONTEXT_FROM_SOURCE = '1';
  // the test runner's own context is not the user's
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
