/**
 * `city-context serve`: the service, exactly as `npm start` runs it (src/main.ts: listens first,
 * builds the store on a first start, warms up behind GET /readyz). Its options are the environment
 * variables of docs/configuration.md; the few everyone sets have flags.
 */
import { EXIT_BAD_INPUT, EXIT_OK, fail, parseCommandArgs, UsageError, type Command, type CommandIo } from './command.ts';

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  extract: { type: 'string' },
  workers: { type: 'string' },
} as const;

/** Flag → the variable src/config.ts reads. */
const ENV_OF = { port: 'PORT', host: 'HOST', 'data-dir': 'CITY_DATA_DIR', extract: 'CITY_OSM_EXTRACT', workers: 'CITY_WORKERS' } as const;

const HELP = `Usage: city-context serve [--port N] [--host H] [--data-dir DIR] [--extract FILE.osm.pbf] [--workers N]

Starts the service as npm start does: POST /v1/context on http://HOST:PORT (default 127.0.0.1:8080,
or $HOST/$PORT). On a first start it builds the OSM store from the extract (default: the bundled
Monaco sample, or $CITY_OSM_EXTRACT) and creates a demo account whose key it prints.

  --port N         PORT
  --host H         HOST
  --data-dir DIR   CITY_DATA_DIR (default ./var): accounts, OSM store, export files
  --extract FILE   CITY_OSM_EXTRACT
  --workers N      CITY_WORKERS (tile worker threads; default: one per core)

Every other setting is an environment variable (docs/configuration.md). Stop it with Ctrl-C (SIGINT)
or SIGTERM.`;

const command: Command = {
  summary: 'start the service (as npm start does)',
  help: HELP,
  async run(args: string[], io: CommandIo): Promise<number> {
    try {
      const { values, positionals } = parseCommandArgs(args, OPTIONS);
      if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      for (const [flag, name] of Object.entries(ENV_OF)) {
        const value = values[flag as keyof typeof ENV_OF];
        if (value !== undefined) io.env[name] = value;
      }
    } catch (err) {
      return fail(io, EXIT_BAD_INPUT, (err as Error).message, 'serve');
    }
    // the service's own entry reads process.env; it keeps running after this returns
    Object.assign(process.env, io.env);
    await import('../main.ts');
    return EXIT_OK;
  },
};
export default command;
