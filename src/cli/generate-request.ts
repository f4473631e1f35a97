/**
 * The request body `generate` sends, from its options: the polygon (`--polygon` or `--bbox`),
 * `--origin`, `--settings` (JSON, or a file holding it) and, with `--format`, the export object
 * (`--crs`, `--placement`, `--units`, `--surface-type`, named as its fields). The body is left as
 * the user gave it: the API's parser (src/contract/parse-request.ts) judges it, locally and on a
 * server alike.
 */
import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from './command.ts';
import { polygonFromBbox, polygonFromPairs, readPolygonArg } from './polygon-input.ts';

export interface GenerateValues {
  polygon?: string;
  bbox?: string;
  origin?: string;
  settings?: string;
  format?: string;
  crs?: string;
  placement?: string;
  units?: string;
  'surface-type'?: string;
}

/** `--option` → its field in the request's `export` object. */
const EXPORT_OPTIONS = { crs: 'crs', placement: 'placement', units: 'units', 'surface-type': 'surfaceType' } as const;

export interface GenerateBody {
  body: { polygon: [number, number][]; origin?: [number, number]; settings?: unknown; export?: Record<string, string> };
  /** What was left out of the input files, to tell the user. */
  notes: string[];
}

export function requestBodyFrom(values: GenerateValues, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): GenerateBody {
  if ((values.polygon === undefined) === (values.bbox === undefined)) throw new UsageError('give the site as --polygon or as --bbox (one of them)');
  const input = values.polygon !== undefined ? readPolygonArg(values.polygon, (p) => (p === 0 ? readFileSync(0, 'utf8') : readFile(p))) : null;
  const body: GenerateBody['body'] = { polygon: input ? input.ring : polygonFromBbox(values.bbox!) };
  if (values.origin !== undefined) {
    const pairs = polygonFromPairs(values.origin);
    if (pairs.length !== 1) throw new UsageError(`--origin takes one "lat,lon" pair, not "${values.origin}"`);
    body.origin = pairs[0];
  }
  if (values.settings !== undefined) body.settings = settingsFrom(values.settings, readFile);
  const exportFields = Object.entries(EXPORT_OPTIONS).filter(([option]) => values[option as keyof GenerateValues] !== undefined);
  if (values.format !== undefined) {
    body.export = { format: values.format };
    for (const [option, field] of exportFields) body.export[field] = values[option as keyof GenerateValues]!;
  } else if (exportFields.length > 0) {
    throw new UsageError(`--${exportFields[0][0]} is an export option: give --format too`);
  }
  return { body, notes: input?.notes ?? [] };
}

/** `--settings '{"geometry":["buildings"]}'`, or the name of a file holding that object. */
function settingsFrom(arg: string, readFile: (path: string) => string): unknown {
  const inline = arg.trimStart().startsWith('{');
  if (!inline && !existsSync(arg)) throw new UsageError(`--settings: no file "${arg}", and not a JSON object either`);
  const text = inline ? arg : readFile(arg);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--settings${inline ? '' : ` (${arg})`} is not valid JSON: ${(err as Error).message}`);
  }
}
