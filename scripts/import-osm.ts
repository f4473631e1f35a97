/**
 * Builds the OSM store from an .osm.pbf extract: the same as `city-context import` (src/cli/import-osm.ts).
 *
 *   node --import tsx scripts/import-osm.ts <file.osm.pbf> [--out <db>]
 *
 * Default output: ${CITY_DATA_DIR:-./var}/osm.sqlite. The previous store is replaced only when the
 * import succeeds.
 */
import { runImport } from '../src/cli/import-osm.ts';

process.exitCode = await runImport(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
