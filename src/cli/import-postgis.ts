/**
 * `city-context import-postgis`: loads an .osm.pbf extract into the PostGIS store (osm2pgsql with
 * the shipped flex style, then the post-import step), or with --refresh runs the post-import step
 * alone — after every replication update (docs/postgis.md). Also `npm run import-postgis`.
 */
import { resolve } from 'node:path';
import { importPostgis } from '../sources/osm/postgis/import-postgis.ts';
import { isPostgresStore } from '../sources/osm/postgis/postgis-store.ts';
import { postImport } from '../sources/osm/postgis/post-import.ts';
import { EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, fail, parseCommandArgs, UsageError, type Command, type CommandIo } from './command.ts';

const OPTIONS = {
  database: { type: 'string', short: 'd' },
  refresh: { type: 'boolean' },
  cache: { type: 'string' },
  'flat-nodes': { type: 'string' },
} as const;

const HELP = `Usage: city-context import-postgis <file.osm.pbf> --database postgres://…
       city-context import-postgis --refresh --database postgres://…

Loads an OpenStreetMap extract into the PostGIS store the service reads with CITY_OSM_STORE=postgres://…:
osm2pgsql --create --slim with scripts/postgis/city-context.lua (the feature tables are replaced),
then the post-import step (building parts grouped with their outlines, anchor points, extents).
  --database, -d <url>  the database (postgis installed; default: $CITY_OSM_STORE when it is a postgres:// URL)
  --refresh             only the post-import step: run it after every osm2pgsql-replication update
  --cache <MB>          osm2pgsql's node cache (--cache)
  --flat-nodes <file>   osm2pgsql's flat node file, for a country or the planet (--flat-nodes)`;

const command: Command = { summary: 'load an .osm.pbf extract into the PostGIS store (osm2pgsql + post-step)', help: HELP, run: runImportPostgis };
export default command;

export async function runImportPostgis(args: string[], io: CommandIo): Promise<number> {
  let url: string;
  let pbfPath: string | null = null;
  let values: ReturnType<typeof parseCommandArgs<typeof OPTIONS>>['values'];
  try {
    const parsed = parseCommandArgs(args, OPTIONS);
    values = parsed.values;
    if (values.help) {
      io.stdout.write(`${HELP}\n`);
      return EXIT_OK;
    }
    url = values.database ?? (isPostgresStore(io.env.CITY_OSM_STORE ?? '') ? io.env.CITY_OSM_STORE! : '');
    if (!isPostgresStore(url)) throw new UsageError('--database postgres://… is required (or CITY_OSM_STORE set to one)');
    if (values.refresh) {
      if (parsed.positionals.length > 0) throw new UsageError('--refresh takes no extract');
    } else {
      if (parsed.positionals.length !== 1) throw new UsageError('expected one .osm.pbf file');
      pbfPath = resolve(parsed.positionals[0]);
    }
    if (values.cache !== undefined && !(Number(values.cache) > 0)) throw new UsageError('--cache must be a number of MB');
  } catch (err) {
    return fail(io, EXIT_BAD_INPUT, (err as Error).message, 'import-postgis');
  }
  const say = (line: string) => io.stderr.write(`${line}\n`);
  try {
    if (!pbfPath) {
      const post = await postImport(url, { onProgress: (m) => say(`post-import: ${m}`) });
      io.stdout.write(
        `refreshed: ${post.buildingGroups} building groups, ${post.buildingRelations} building relations; store version ${post.storeVersion}; ${post.seconds.toFixed(2)} s\n`,
      );
      return EXIT_OK;
    }
    const stats = await importPostgis(pbfPath, url, {
      cacheMb: values.cache === undefined ? undefined : Number(values.cache),
      flatNodes: values['flat-nodes'],
      onProgress: say,
    });
    io.stdout.write(
      `${[
        `imported ${stats.sourceFile} into ${redacted(url)}`,
        `osm2pgsql: ${stats.osm2pgsqlSeconds.toFixed(2)} s; post-import: ${stats.post.seconds.toFixed(2)} s (${stats.post.buildingFeatures} buildings and parts in ${stats.post.buildingGroups} groups, ${stats.post.buildingRelations} building relations)`,
        `total ${stats.seconds.toFixed(2)} s; store version ${stats.post.storeVersion}`,
      ].join('\n')}\n`,
    );
    return EXIT_OK;
  } catch (err) {
    return fail(io, EXIT_FAILED, `import-postgis failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The URL without its password, for messages. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the database';
  }
}
