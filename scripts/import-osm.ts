/**
 * Builds the OSM store from an .osm.pbf extract.
 *
 *   node --import tsx scripts/import-osm.ts <file.osm.pbf> [--out <db>]
 *
 * Default output: ${CITY_DATA_DIR:-./var}/osm.sqlite. The previous store is replaced only when the
 * import succeeds.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { importOsm, type ImportProgress } from '../src/sources/osm/import.ts';

function usage(message?: string): never {
  if (message) console.error(message);
  console.error('usage: node --import tsx scripts/import-osm.ts <file.osm.pbf> [--out <db>]');
  process.exit(2);
}

const { values, positionals } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
if (values.help) usage();
if (positionals.length !== 1) usage('expected exactly one .osm.pbf file');
const pbfPath = positionals[0];
const outPath = values.out ?? join(process.env.CITY_DATA_DIR || './var', 'osm.sqlite');
mkdirSync(dirname(outPath), { recursive: true });

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
let lastPrint = 0;
function progress(p: ImportProgress): void {
  const now = performance.now();
  if (p.bytesRead < p.totalBytes && now - lastPrint < 1000) return;
  lastPrint = now;
  console.log(`pass ${p.pass}/2: ${mb(p.bytesRead)} / ${mb(p.totalBytes)} MB (${((100 * p.bytesRead) / p.totalBytes).toFixed(0)}%), ${p.blobs} blobs`);
}

try {
  const stats = await importOsm(pbfPath, outPath, { onProgress: progress });
  console.log(`\nimported ${stats.sourceFile} → ${outPath}`);
  console.log(`read: ${stats.nodes} nodes, ${stats.ways} ways, ${stats.relations} relations`);
  console.log(`features: ${stats.features} (${stats.byKind.point} points, ${stats.byKind.line} lines, ${stats.byKind.area} areas)`);
  for (const [layer, count] of Object.entries(stats.byLayer)) console.log(`  ${layer.padEnd(14)} ${count}`);
  const s = stats.skipped;
  console.log(
    `skipped: ${s.unresolvedWays} ways with missing nodes, ${s.degenerateGeometry} degenerate geometries, ` +
      `${s.incompleteRelations} incomplete and ${s.unassembledRelations} unclosed multipolygons`,
  );
  console.log(`time: ${stats.seconds.toFixed(2)} s, peak RSS ${mb(stats.peakRssBytes)} MB (node index ${mb(stats.nodeIndexBytes)} MB)`);
} catch (error) {
  console.error(`import failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
