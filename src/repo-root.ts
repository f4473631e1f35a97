import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Repository root (for the bundled sample data), independent of the working directory and of
 * whether the code runs from `src/` or compiled from `dist/src/`: the nearest folder up with a
 * package.json.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(from, '..');
  }
}

export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
