/**
 * Loads an .osm.pbf extract into the PostGIS store: the same as `city-context import-postgis`
 * (src/cli/import-postgis.ts; docs/postgis.md).
 *
 *   node --import tsx scripts/import-postgis.ts <file.osm.pbf> --database postgres://…
 *   node --import tsx scripts/import-postgis.ts --refresh --database postgres://…   (after a replication update)
 */
import { runImportPostgis } from '../src/cli/import-postgis.ts';

process.exitCode = await runImportPostgis(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
