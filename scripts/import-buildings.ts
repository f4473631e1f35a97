/**
 * Imports a premium building dataset (CityJSON, CityJSONSeq or CityGML; a file or a directory of
 * them) into the premium store, replacing a dataset of the same id when the import succeeds.
 *
 *   npm run import-buildings -- <file or directory> --dataset <id> --country <code>
 *     [--crs EPSG:n] [--axis-order east-north|north-east] [--name …] [--license …] [--attribution "…"] [--url …] [--out <db>]
 *
 * Default store: ${CITY_DATA_DIR:-./var}/premium.sqlite (docs/premium-data.md).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PREMIUM_STORE_FILE } from '../src/sources/premium/config.ts';
import { importPremiumDataset, type PremiumImportProgress } from '../src/sources/premium/import.ts';

const USAGE =
  'usage: npm run import-buildings -- <file or directory> --dataset <id> --country <code> [--crs EPSG:n] [--axis-order east-north|north-east] ' +
  '[--name …] [--license …] [--attribution "…"] [--url …] [--out <db>]';

function usage(message?: string): never {
  if (message) console.error(message);
  console.error(USAGE);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      dataset: { type: 'string' },
      country: { type: 'string' },
      crs: { type: 'string' },
      'axis-order': { type: 'string' },
      name: { type: 'string' },
      license: { type: 'string' },
      attribution: { type: 'string' },
      url: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
}
try {
  parsed = parse();
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
const { values, positionals } = parsed;
if (values.help) usage();
if (positionals.length !== 1) usage('expected exactly one file or directory');
if (!values.dataset) usage('--dataset <id> is required');
if (!values.country) usage('--country <ISO 3166-1 alpha-2 or ISO 3166-2 code> is required');
const axisOrder = values['axis-order'];
if (axisOrder !== undefined && axisOrder !== 'east-north' && axisOrder !== 'north-east') usage('--axis-order is east-north or north-east');
const outPath = values.out ?? join(process.env.CITY_DATA_DIR || './var', PREMIUM_STORE_FILE);

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
let lastPrint = 0;
const filesRead = new Set<number>();
function progress(p: PremiumImportProgress): void {
  const now = performance.now();
  // once a second, and once when a file has been read to its end
  const fileRead = p.pass === p.passes && p.bytesRead >= p.totalBytes && !filesRead.has(p.fileIndex);
  if (!fileRead && now - lastPrint < 1000) return;
  if (fileRead) filesRead.add(p.fileIndex);
  lastPrint = now;
  const pass = p.passes > 1 ? ` pass ${p.pass}/${p.passes}` : '';
  console.log(
    `file ${p.fileIndex + 1}/${p.fileCount} ${p.file}${pass}: ${mb(p.bytesRead)} / ${mb(p.totalBytes)} MB (${((100 * p.bytesRead) / Math.max(1, p.totalBytes)).toFixed(0)}%), ${p.buildings} buildings`,
  );
}

try {
  const report = await importPremiumDataset(
    outPath,
    positionals[0],
    {
      id: values.dataset,
      country: values.country,
      crs: values.crs,
      axisOrder,
      name: values.name,
      license: values.license,
      attribution: values.attribution,
      url: values.url,
    },
    { onProgress: progress },
  );
  console.log(`\nimported dataset ${report.dataset} → ${outPath}`);
  for (const f of report.files) console.log(`  ${f.file}: ${f.format}, ${f.crs}, ${f.buildings} buildings, ${f.skipped} left out`);
  console.log(
    `buildings: ${report.buildings} (${report.parts} parts, ${report.surfaces} surfaces; LoD2 ${report.byLod.lod2}, LoD1 ${report.byLod.lod1}, LoD0 ${report.byLod.lod0})`,
  );
  const ignored = Object.entries(report.ignoredTypes);
  if (ignored.length > 0) console.log(`not buildings, ignored: ${ignored.map(([t, n]) => `${n} ${t}`).join(', ')}`);
  for (const [label, list] of [
    ['left out', report.skipped],
    ['notes', report.notes],
  ] as const) {
    if (list.count === 0) continue;
    console.log(`${label}: ${list.count}`);
    for (const n of list.examples.slice(0, 20)) console.log(`  ${n.file} ${n.id}: ${n.reason}`);
    if (list.count > 20) console.log(`  … ${list.count - 20} more in the dataset's stored report`);
  }
  console.log(`time: ${report.seconds.toFixed(2)} s, peak RSS ${mb(report.peakRssBytes)} MB`);
} catch (error) {
  console.error(`import failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
