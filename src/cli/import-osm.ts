/**
 * `city-context import`: builds the OSM store from an .osm.pbf extract (also `npm run import-osm`,
 * scripts/import-osm.ts). The previous store is replaced only when the import succeeds.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConfig, storePaths } from '../config.ts';
import { importOsm, type ImportProgress, type ImportStats } from '../sources/osm/import.ts';
import { EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, fail, parseCommandArgs, UsageError, type Command, type CommandIo } from './command.ts';

const OPTIONS = { out: { type: 'string' } } as const;

const HELP = `Usage: city-context import [<file.osm.pbf>] [--out <db>]

Builds the OSM store the pipeline reads from an OpenStreetMap extract (e.g. from download.geofabrik.de).
  <file.osm.pbf>  the extract (default: $CITY_OSM_EXTRACT, else the bundled Monaco sample)
  --out <db>      the store to write (default: $CITY_DATA_DIR/osm.sqlite, CITY_DATA_DIR defaulting to ./var)

The previous store stays in place until the new one is complete; a running service picks the new
one up on its next start.`;

const command: Command = { summary: 'build the OSM store from an .osm.pbf extract', help: HELP, run: runImport };
export default command;

export async function runImport(args: string[], io: CommandIo): Promise<number> {
  let pbfPath: string;
  let outPath: string;
  try {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    if (positionals.length > 1) throw new UsageError('expected at most one .osm.pbf file');
    const config = loadConfig(io.env);
    pbfPath = positionals[0] ?? config.osmExtract;
    outPath = resolve(values.out ?? storePaths(config.dataDir).osm);
  } catch (err) {
    return fail(io, EXIT_BAD_INPUT, (err as Error).message, 'import');
  }
  mkdirSync(dirname(outPath), { recursive: true });
  const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
  let lastPrint = 0;
  const progress = (p: ImportProgress): void => {
    const now = performance.now();
    if (p.bytesRead < p.totalBytes && now - lastPrint < 1000) return;
    lastPrint = now;
    io.stderr.write(`pass ${p.pass}/2: ${mb(p.bytesRead)} / ${mb(p.totalBytes)} MB (${((100 * p.bytesRead) / p.totalBytes).toFixed(0)}%), ${p.blobs} blobs\n`);
  };
  try {
    const stats = await importOsm(pbfPath, outPath, { onProgress: progress });
    io.stdout.write(`${describe(stats, outPath).join('\n')}\n`);
    return EXIT_OK;
  } catch (err) {
    return fail(io, EXIT_FAILED, `import failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function describe(stats: ImportStats, outPath: string): string[] {
  const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
  const s = stats.skipped;
  return [
    `imported ${stats.sourceFile} → ${outPath}`,
    `read: ${stats.nodes} nodes, ${stats.ways} ways, ${stats.relations} relations`,
    `features: ${stats.features} (${stats.byKind.point} points, ${stats.byKind.line} lines, ${stats.byKind.area} areas)`,
    ...Object.entries(stats.byLayer).map(([layer, count]) => `  ${layer.padEnd(14)} ${count}`),
    `skipped: ${s.unresolvedWays} ways with missing nodes, ${s.degenerateGeometry} degenerate geometries, ` +
      `${s.incompleteRelations} incomplete and ${s.unassembledRelations} unclosed multipolygons`,
    `time: ${stats.seconds.toFixed(2)} s, peak RSS ${mb(stats.peakRssBytes)} MB (node index ${mb(stats.nodeIndexBytes)} MB)`,
  ];
}
