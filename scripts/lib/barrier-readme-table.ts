/**
 * The barrier size table of docs/barriers.md, rendered from BARRIER_DEFAULTS so it cannot go
 * stale (test/readme-barriers.test.ts compares the block there with it). The block sits
 * between `<!-- barrier-defaults-table:start -->` and `<!-- barrier-defaults-table:end -->`.
 * `node --import tsx scripts/lib/barrier-readme-table.ts --write` rewrites it in docs/barriers.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../src/config.ts';
import { BARRIER_DEFAULTS } from '../../src/geometry/barriers/defaults.ts';

export const BARRIER_TABLE_NAME = 'barrier-defaults-table';

export function barrierDefaultsTableMarkdown(): string {
  const byMaterial = new Set(BARRIER_DEFAULTS.filter((r) => r.materials).map((r) => r.kind));
  const rows = BARRIER_DEFAULTS.map((r) =>
    `| \`${r.kind}\` | ${r.materials ? r.materials.map((m) => `\`${m}\``).join(', ') : byMaterial.has(r.kind) ? 'any other' : 'any'} | ${r.height} m | ${r.width} m | ${r.profile}${r.spacing ? `, posts every ${r.spacing} m` : ''}${r.span ? `; node: ${r.span} m opening` : ''} | ${r.note} |`);
  return ['| kind | material | height | width | profile | why |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The text between the block's markers, or null when the markers are missing. */
export function readmeBlock(readme: string, name = BARRIER_TABLE_NAME): string | null {
  const m = new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n?<!-- ${name}:end -->`).exec(readme);
  return m ? m[1] : null;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv.includes('--write')) {
  const path = join(REPO_ROOT, 'docs/barriers.md');
  const readme = readFileSync(path, 'utf8');
  const name = BARRIER_TABLE_NAME;
  const next = readme.replace(new RegExp(`(<!-- ${name}:start -->\\n)[\\s\\S]*?\\n?(<!-- ${name}:end -->)`), `$1${barrierDefaultsTableMarkdown()}\n$2`);
  writeFileSync(path, next);
}
