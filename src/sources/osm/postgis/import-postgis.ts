/**
 * The whole load of the PostGIS store: osm2pgsql (--slim, so osm2pgsql-replication can keep it
 * current) with the shipped flex style, then the post-import step (post-import.ts). Progress lines
 * go to `onProgress`: osm2pgsql's own (nodes, ways, relations read; indexes built), then ours.
 *
 *   await importPostgis('extract.osm.pbf', 'postgres://…/osm', { onProgress: console.error });
 */
import { spawn } from 'node:child_process';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from '../../../repo-root.ts';
import { readPbfBlocks } from '../pbf-blobs.ts';
import { decodeHeaderBlock, type PbfHeader } from '../pbf-header.ts';
import { postImport, type PostImportStats } from './post-import.ts';

/** The flex style osm2pgsql loads (it selects what the SQLite import selects). */
export const POSTGIS_STYLE = join(REPO_ROOT, 'scripts/postgis/city-context.lua');

export interface PostgisImportOptions {
  /** osm2pgsql's node cache in MB (--cache). */
  cacheMb?: number;
  /** A flat-nodes file for planet-sized imports (--flat-nodes). */
  flatNodes?: string;
  /** The osm2pgsql binary (default: osm2pgsql on PATH). */
  osm2pgsql?: string;
  onProgress?: (line: string) => void;
}

export interface PostgisImportStats {
  sourceFile: string;
  osm2pgsqlSeconds: number;
  post: PostImportStats;
  seconds: number;
}

/** Runs osm2pgsql with the style; rejects with its last lines when it fails. */
export function runOsm2pgsql(args: readonly string[], options: Pick<PostgisImportOptions, 'osm2pgsql' | 'onProgress'> = {}): Promise<void> {
  const say = options.onProgress ?? (() => {});
  return new Promise((resolve, reject) => {
    const child = spawn(options.osm2pgsql ?? 'osm2pgsql', ['--log-progress=true', '--output=flex', `--style=${POSTGIS_STYLE}`, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        tail.push(line);
        if (tail.length > 20) tail.shift();
        say(`osm2pgsql: ${line}`);
      });
    }
    child.on('error', (error) => reject(new Error(`cannot run osm2pgsql (${error.message}); install it (Debian: apt-get install osm2pgsql)`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`osm2pgsql exited with ${code}:\n${tail.join('\n')}`))));
  });
}

async function readHeader(pbfPath: string): Promise<PbfHeader | null> {
  for await (const block of readPbfBlocks(pbfPath)) return block.type === 'OSMHeader' ? decodeHeaderBlock(block.data) : null;
  return null;
}

/** Loads `pbfPath` into the database at `url` (its feature tables are replaced), then runs the post-import step. */
export async function importPostgis(pbfPath: string, url: string, options: PostgisImportOptions = {}): Promise<PostgisImportStats> {
  const started = performance.now();
  const header = await readHeader(pbfPath);
  const args = ['--create', '--slim', '-d', url];
  if (options.cacheMb !== undefined) args.push(`--cache=${options.cacheMb}`);
  if (options.flatNodes) args.push(`--flat-nodes=${options.flatNodes}`);
  await runOsm2pgsql([...args, pbfPath], options);
  const osm2pgsqlSeconds = (performance.now() - started) / 1000;
  const meta: Record<string, string> = { source_file: basename(pbfPath), imported_at: new Date().toISOString() };
  if (header?.replicationTimestamp) meta.data_timestamp = new Date(header.replicationTimestamp * 1000).toISOString();
  if (header?.writingProgram) meta.writing_program = header.writingProgram;
  const post = await postImport(url, { extent: header?.bbox ?? null, meta, onProgress: (m) => options.onProgress?.(`post-import: ${m}`) });
  return { sourceFile: basename(pbfPath), osm2pgsqlSeconds, post, seconds: (performance.now() - started) / 1000 };
}
