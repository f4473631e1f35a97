/**
 * The `city-context` command as a user runs it: a child process through package.json's bin
 * (bin/city-context.mjs), from the sources (tsx) or from the compiled dist/, with stdout and
 * stderr as pipes (not a terminal).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../src/repo-root.ts';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const BIN = join(REPO_ROOT, 'bin/city-context.mjs');

export interface CliOptions {
  cwd: string;
  env?: Record<string, string>;
  /** dist/ (build it first); else the sources. */
  compiled?: boolean;
  /** In a process group of its own, as a terminal starts a command (signal it with `process.kill(-pid, …)`, as Ctrl-C does). */
  ownGroup?: boolean;
  /** Called on each chunk with the process and what it wrote so far (to act on a line). */
  onOutput?: (child: ChildProcess, out: { stdout: string; stderr: string }) => void;
}

/** Runs the command in `cwd` until it exits. */
export function cli(args: string[], options: CliOptions): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (options.compiled) delete env.CITY_CONTEXT_FROM_SOURCE;
  else env.CITY_CONTEXT_FROM_SOURCE = '1';
  // the test runner's own context is not the user's
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.ownGroup === true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    options.onOutput?.(child, { stdout, stderr });
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    options.onOutput?.(child, { stdout, stderr });
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
