/**
 * Imports a premium building dataset (CityJSON, CityJSONSeq or CityGML; a file or a directory of
 * them) into the premium store: the same as `city-context import-buildings`
 * (src/cli/import-buildings.ts).
 *
 *   npm run import-buildings -- <file or directory> --dataset <id> --country <code>
 *     [--crs EPSG:n] [--axis-order east-north|north-east] [--name …] [--license …] [--attribution "…"] [--url …] [--out <db>]
 *
 * Default store: ${CITY_DATA_DIR:-./var}/premium.sqlite (docs/premium-data.md).
 */
import { runImportBuildings } from '../src/cli/import-buildings.ts';

process.exitCode = await runImportBuildings(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
