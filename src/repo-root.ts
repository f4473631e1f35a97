import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (for the bundled sample data), independent of the working directory. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
