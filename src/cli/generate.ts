/** `city-context generate`: a site model for a polygon, made in this process or by a service (`--url`). */
import { resolve } from 'node:path';
import { ApiError } from '../contract/errors.ts';
import { parseContextRequest } from '../contract/parse-request.ts';
import { fileBaseName } from '../export/run-export.ts';
import { EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, fail, parseCommandArgs, UsageError, type Command, type CommandIo } from './command.ts';
import { requestBodyFrom } from './generate-request.ts';
import { Progress } from './progress.ts';
import { generateLocal, type GenerateOutcome } from './run-local.ts';
import { generateRemote, UnreachableError } from './run-remote.ts';

const OPTIONS = {
  polygon: { type: 'string', short: 'p' },
  bbox: { type: 'string' },
  origin: { type: 'string' },
  settings: { type: 'string', short: 's' },
  format: { type: 'string', short: 'f' },
  crs: { type: 'string' },
  placement: { type: 'string' },
  units: { type: 'string' },
  'surface-type': { type: 'string' },
  output: { type: 'string', short: 'o' },
  json: { type: 'boolean' },
  url: { type: 'string' },
  key: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

const HELP = `Usage: city-context generate (--polygon <file | "lat,lon lat,lon …"> | --bbox minLon,minLat,maxLon,maxLat) [options]

Builds the site model of a polygon: the JSON geometry answer of POST /v1/context, or with --format an
export file. Runs in this process on the local OSM store (no server, no account; the store is built
from the configured extract when $CITY_DATA_DIR has none yet), or on a service with --url and --key.

The site:
  -p, --polygon <arg>     a GeoJSON file (Feature, FeatureCollection with one polygon, or a Polygon;
                          lon/lat as GeoJSON says), a KML file (its Polygon's outer boundary), "-" for
                          either on standard input, or "lat,lon lat,lon …" pairs (closed for you)
      --bbox <box>        a rectangle instead: minLon,minLat,maxLon,maxLat
      --origin <lat,lon>  the local frame's origin (default: the first corner)
  -s, --settings <arg>    the request's settings as JSON ('{"geometry":["buildings"]}') or a file of it

The export (the request's "export" object; without --format the answer is JSON geometry):
  -f, --format <fmt>      glb, gltf, obj, 3dm, dxf, ifc, stl, ply, dae
      --crs <crs>         local (default) or EPSG:<code>
      --placement <p>     anchor (default) or absolute
      --units <u>         m (default), mm, ft, in
      --surface-type <t>  meshes (default), centerlines, outlines

Output:
  -o, --output <file>     where to write; "-" for standard output. Default: the export's own name
                          (city-context-<lat>N-<lon>E.<fmt>), or city-context-<lat>N-<lon>E.json
      --json              standard output gets the JSON answer itself (geometry without -o), or
                          {downloadUrl, file, spatialReference, warnings}
  -q, --quiet             no progress on stderr

A service:
      --url <base>        e.g. http://localhost:8080: send the request there instead
      --key <key>         its API key (default: $CITY_CONTEXT_KEY)

Exit codes: 0 done, 1 failed (including an unreachable --url), 2 bad input (usage, or a request
the API refuses: its own message is printed). docs/cli.md has examples.`;

/** Ctrl-C or SIGTERM: the run stops, its partial output is removed. */
class Interrupted extends Error {}

const command: Command = {
  summary: 'build a site model for a polygon',
  help: HELP,
  run: generate,
};
export default command;

async function generate(args: string[], io: CommandIo): Promise<number> {
  let values: ReturnType<typeof parseCommandArgs<typeof OPTIONS>>['values'];
  try {
    const parsed = parseCommandArgs(args, OPTIONS);
    if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument "${parsed.positionals[0]}"`);
    values = parsed.values;
  } catch (err) {
    return fail(io, EXIT_BAD_INPUT, (err as Error).message, 'generate');
  }
  const progress = new Progress(io, { tty: io.stderr.isTTY === true, quiet: values.quiet === true, everyMs: progressInterval(io, io.stderr.isTTY === true) });
  const abort = new AbortController();
  const onSignal = () => {
    if (abort.signal.aborted) process.exit(EXIT_FAILED);
    abort.abort(new Interrupted('interrupted: nothing was written'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const { body, notes } = requestBodyFrom(values);
    for (const note of notes) progress.note(`note: ${note}`);
    const request = parseContextRequest(body); // the API's own verdict, before any work or upload
    const key = values.key ?? io.env.CITY_CONTEXT_KEY;
    if (values.url !== undefined && !key) throw new UsageError('--url needs an API key: --key, or $CITY_CONTEXT_KEY');
    const toStdout = values.output === '-' || (values.output === undefined && values.json === true && !request.export);
    if (toStdout && values.json && request.export) throw new UsageError('--json prints to standard output: give the export file with -o <file>');
    const named = values.output !== undefined && values.output !== '-' ? resolve(values.output) : null;
    const base = fileBaseName(request.origin);
    const out = toStdout ? null : (named ?? ((fileName: string) => resolve(fileName || `${base}.json`)));
    const where = values.url ? `on ${values.url}` : 'in this process';
    progress.note(`generating ${request.export ? `the ${request.export.format} export` : 'the JSON geometry'} of ${request.areaKm2.toFixed(3)} km² ${where}…`);
    const outcome =
      values.url !== undefined
        ? await generateRemote({ url: values.url, key: key!, body, isExport: !!request.export, out, progress, io, signal: abort.signal })
        : await generateLocal({ request, out, progress, io, signal: abort.signal });
    progress.stop();
    report(outcome, values.json === true, toStdout, io, progress);
    return EXIT_OK;
  } catch (err) {
    progress.stop(true);
    return failure(abort.signal.aborted ? abort.signal.reason : err, io);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The result: warnings for people on stderr; on stdout the file (a script's next step), or with --json the summary. */
function report(outcome: GenerateOutcome, json: boolean, toStdout: boolean, io: CommandIo, progress: Progress): void {
  for (const w of outcome.warnings as { code?: string; message?: string }[]) progress.note(`warning: ${w.message ?? w.code}`);
  if (toStdout) return;
  progress.note(`wrote ${outcome.file}`);
  const kind = outcome.fileName ? /\.([a-z0-9]+(?:\.zip)?)$/i.exec(outcome.fileName)?.[1] : undefined;
  if (kind && !outcome.file?.endsWith(`.${kind}`)) progress.note(`note: the file is a .${kind}, whatever its name says`);
  if (json) {
    const { file, downloadUrl, spatialReference, warnings } = outcome;
    io.stdout.write(`${JSON.stringify({ downloadUrl, file, spatialReference, warnings })}\n`);
  } else io.stdout.write(`${outcome.file}\n`);
}

/** The API's refusals of the request itself are bad input (2); anything else, the run failed (1). */
function failure(err: unknown, io: CommandIo): number {
  if (err instanceof UsageError) return fail(io, EXIT_BAD_INPUT, err.message, 'generate');
  if (err instanceof ApiError) {
    const code = err.status === 400 || err.status === 413 || err.status === 422 ? EXIT_BAD_INPUT : EXIT_FAILED;
    const details = err.details.filter((d) => d.message !== err.message).map((d) => `\n  ${d.path?.length ? `${d.path.join('.')}: ` : ''}${d.message}`);
    return fail(io, code, `${err.message} (${err.code})${details.join('')}`);
  }
  if (err instanceof UnreachableError || err instanceof Interrupted) return fail(io, EXIT_FAILED, err.message);
  return fail(io, EXIT_FAILED, (err as Error)?.stack ?? String(err));
}

/** Plain lines every 2 s, a terminal's bar redrawn 10 times a second; CITY_PROGRESS_MS overrides. */
function progressInterval(io: CommandIo, tty: boolean): number {
  const asked = Number(io.env.CITY_PROGRESS_MS);
  return Number.isFinite(asked) && asked > 0 ? asked : tty ? 100 : 2000;
}
