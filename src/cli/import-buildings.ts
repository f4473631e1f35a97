/**
 * `city-context import-buildings`: imports a premium building dataset (CityJSON, CityJSONSeq or
 * CityGML; a file or a directory of them) into the premium store (also `npm run import-buildings`,
 * scripts/import-buildings.ts), replacing a dataset of the same id only when the import succeeds
 * (docs/premium-data.md).
 */
import { join, resolve } from 'node:path';
import { PREMIUM_STORE_FILE } from '../sources/premium/config.ts';
import { importPremiumDataset, type PremiumImportProgress } from '../sources/premium/import.ts';
import type { ImportReport } from '../sources/premium/import-report.ts';
import { EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, fail, parseCommandArgs, UsageError, type Command, type CommandIo } from './command.ts';

const OPTIONS = {
  dataset: { type: 'string' },
  country: { type: 'string' },
  crs: { type: 'string' },
  'axis-order': { type: 'string' },
  name: { type: 'string' },
  license: { type: 'string' },
  attribution: { type: 'string' },
  url: { type: 'string' },
  out: { type: 'string' },
} as const;

const HELP = `Usage: city-context import-buildings <file or directory> --dataset <id> --country <code> [options]

Imports official LoD2 building models (CityJSON 1.0–2.0, CityJSONSeq, CityGML 1.0/2.0) into the
premium store, streamed (a file of a few GB never sits in memory), in one transaction.
  --dataset <id>         the dataset's id (an import replaces the dataset of the same id)
  --country <code>       ISO 3166-1 alpha-2 or ISO 3166-2 code of the area it covers
  --crs EPSG:n           the files' CRS when they do not say it (or say it wrongly)
  --axis-order <order>   east-north or north-east, overriding the CRS's own
  --name, --license, --attribution "<credit line>", --url   what the credits show
  --out <db>             the store (default: $CITY_DATA_DIR/${PREMIUM_STORE_FILE}, CITY_DATA_DIR defaulting to ./var)`;

const command: Command = { summary: 'import official LoD2 building models (CityJSON, CityGML) into the premium store', help: HELP, run: runImportBuildings };
export default command;

export async function runImportBuildings(args: string[], io: CommandIo): Promise<number> {
  let source: string;
  let outPath: string;
  let dataset: Parameters<typeof importPremiumDataset>[2];
  try {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    if (positionals.length !== 1) throw new UsageError('expected exactly one file or directory');
    if (!values.dataset) throw new UsageError('--dataset <id> is required');
    if (!values.country) throw new UsageError('--country <ISO 3166-1 alpha-2 or ISO 3166-2 code> is required');
    const axisOrder = values['axis-order'];
    if (axisOrder !== undefined && axisOrder !== 'east-north' && axisOrder !== 'north-east') throw new UsageError('--axis-order is east-north or north-east');
    source = positionals[0];
    outPath = resolve(values.out ?? join(io.env.CITY_DATA_DIR || './var', PREMIUM_STORE_FILE));
    dataset = {
      id: values.dataset,
      country: values.country,
      crs: values.crs,
      axisOrder,
      name: values.name,
      license: values.license,
      attribution: values.attribution,
      url: values.url,
    };
  } catch (err) {
    return fail(io, EXIT_BAD_INPUT, (err as Error).message, 'import-buildings');
  }
  const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
  let lastPrint = 0;
  const filesRead = new Set<number>();
  const progress = (p: PremiumImportProgress): void => {
    const now = performance.now();
    // once a second, and once when a file has been read to its end
    const fileRead = p.pass === p.passes && p.bytesRead >= p.totalBytes && !filesRead.has(p.fileIndex);
    if (!fileRead && now - lastPrint < 1000) return;
    if (fileRead) filesRead.add(p.fileIndex);
    lastPrint = now;
    const pass = p.passes > 1 ? ` pass ${p.pass}/${p.passes}` : '';
    io.stderr.write(
      `file ${p.fileIndex + 1}/${p.fileCount} ${p.file}${pass}: ${mb(p.bytesRead)} / ${mb(p.totalBytes)} MB (${((100 * p.bytesRead) / Math.max(1, p.totalBytes)).toFixed(0)}%), ${p.buildings} buildings\n`,
    );
  };
  try {
    const report = await importPremiumDataset(outPath, source, dataset, { onProgress: progress });
    io.stdout.write(`${describe(report, outPath).join('\n')}\n`);
    return EXIT_OK;
  } catch (err) {
    return fail(io, EXIT_FAILED, `import failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function describe(report: ImportReport, outPath: string): string[] {
  const lines = [`imported dataset ${report.dataset} → ${outPath}`];
  for (const f of report.files) lines.push(`  ${f.file}: ${f.format}, ${f.crs}, ${f.buildings} buildings, ${f.skipped} left out`);
  lines.push(
    `buildings: ${report.buildings} (${report.parts} parts, ${report.surfaces} surfaces; LoD2 ${report.byLod.lod2}, LoD1 ${report.byLod.lod1}, LoD0 ${report.byLod.lod0})`,
  );
  const ignored = Object.entries(report.ignoredTypes);
  if (ignored.length > 0) lines.push(`not buildings, ignored: ${ignored.map(([t, n]) => `${n} ${t}`).join(', ')}`);
  for (const [label, list] of [
    ['left out', report.skipped],
    ['notes', report.notes],
  ] as const) {
    if (list.count === 0) continue;
    lines.push(`${label}: ${list.count}`);
    for (const n of list.examples.slice(0, 20)) lines.push(`  ${n.file} ${n.id}: ${n.reason}`);
    if (list.count > 20) lines.push(`  … ${list.count - 20} more in the dataset's stored report`);
  }
  lines.push(`time: ${report.seconds.toFixed(2)} s, peak RSS ${(report.peakRssBytes / 1048576).toFixed(1)} MB`);
  return lines;
}
